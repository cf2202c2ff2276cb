import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ToolkitError } from '../errors.js';
import { isGzipPath } from '../formats.js';

/** An output being written: the stream to write to, and how to finish it. */
export interface Output {
  stream: Writable;
  /** Ends the stream (and the file under a gzip stream), waits until all is on disk, and puts the file in its place. */
  close(): Promise<void>;
  /** The name for messages. */
  name: string;
  /** Stops writing and removes what was written (after a fatal error: no half-written output is left, a file that was there before stays as it was). Does nothing for stdout. */
  discard(): Promise<void>;
}

/**
 * Opens an output: a file (gzip-compressed when its name ends in `.gz`), or
 * `fallback` (stdout) when `path` is undefined or `-`. The file is written
 * under a temporary name beside it and renamed to `path` by `close()`, so a
 * run that fails leaves an existing file untouched and no partial one. Fails
 * with code `io`, naming the path, when the file cannot be created.
 */
export async function openOutput(path: string | undefined, fallback: Writable): Promise<Output> {
  if (path === undefined || path === '-') {
    return { stream: fallback, name: '<stdout>', close: async () => {}, discard: async () => {} };
  }
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.partial`);
  const file = createWriteStream(partial);
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
    await rm(partial, { force: true });
  };
  const place = async (): Promise<void> => {
    try {
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw new ToolkitError(`cannot write ${path}: ${(err as Error).message}`, 'io', { cause: err, details: { path } });
    }
  };
  if (!isGzipPath(path)) {
    return { stream: file, name: path, close: async () => { file.end(); await finished(file); await place(); }, discard };
  }
  const gzip = createGzip();
  gzip.pipe(file);
  return {
    stream: gzip,
    name: path,
    close: async () => {
      gzip.end();
      await finished(file);
      await place();
    },
    discard: async () => {
      gzip.destroy();
      await discard();
    },
  };
}
