import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ToolkitError } from '../errors.js';
import { isGzipPath } from '../formats.js';

/** An output being written: the stream to write to, and how to finish it. */
export interface Output {
  stream: Writable;
  /** Ends the stream (and the file under a gzip stream) and waits until all is on disk. */
  close(): Promise<void>;
  /** The name for messages. */
  name: string;
  /** Stops writing and removes the file (after a fatal error: no half-written output is left). Does nothing for stdout. */
  discard(): Promise<void>;
}

/**
 * Opens an output: a file (gzip-compressed when its name ends in `.gz`), or
 * `fallback` (stdout) when `path` is undefined or `-`. Fails with code `io`,
 * naming the path, when the file cannot be created.
 */
export async function openOutput(path: string | undefined, fallback: Writable): Promise<Output> {
  if (path === undefined || path === '-') {
    return { stream: fallback, name: '<stdout>', close: async () => {}, discard: async () => {} };
  }
  const file = createWriteStream(path);
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', (err: NodeJS.ErrnoException) =>
      reject(new ToolkitError(`cannot write ${path}: ${err.code === 'ENOENT' ? 'no such directory' : err.code === 'EACCES' ? 'permission denied' : err.message}`, 'io', { cause: err, details: { path } })),
    );
  });
  const discard = async (): Promise<void> => {
    await new Promise<void>((resolve) => {
      if (file.closed) resolve();
      else file.once('close', () => resolve()).destroy();
    });
    await rm(path, { force: true });
  };
  if (!isGzipPath(path)) {
    return { stream: file, name: path, close: async () => { file.end(); await finished(file); }, discard };
  }
  const gzip = createGzip();
  gzip.pipe(file);
  return {
    stream: gzip,
    name: path,
    close: async () => {
      gzip.end();
      await finished(file);
    },
    discard: async () => {
      gzip.destroy();
      await discard();
    },
  };
}
