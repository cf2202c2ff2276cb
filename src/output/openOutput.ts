import { chmod, lstat, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ToolkitError, ioError } from '../errors.js';
import { isGzipPath } from '../formats.js';
import { registerTempFile, unregisterTempFile } from '../tempFiles.js';
import { openWriteStream } from './openWriteStream.js';

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
 * run that fails leaves an existing file untouched and no partial one (a
 * symbolic link at `path` is written through to its target, an existing
 * file's mode is kept; a hard link is not kept). A device or a pipe at
 * `path` (`/dev/null`, a FIFO) is written in place. Fails with code `io`,
 * naming the path, when the file cannot be created or `path` is a directory.
 */
export async function openOutput(path: string | undefined, fallback: Writable): Promise<Output> {
  if (path === undefined || path === '-') {
    return { stream: fallback, name: '<stdout>', close: async () => {}, discard: async () => {} };
  }
  // What is at the path now: a symbolic link is written through (to its target), a file keeps its mode.
  let target = path;
  let mode: number | undefined;
  try {
    target = await realpath(path);
    const info = await stat(target);
    if (info.isDirectory())
      throw new ToolkitError(`cannot write ${path}: it is a directory`, 'io', { details: { path } });
    // A device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO) is written in place: renaming a file over it would
    // replace the device with a file (run as root, `-o /dev/null` did).
    if (!info.isFile()) return inPlace(path, target);
    mode = info.mode & 0o7777;
  } catch (err) {
    if (err instanceof ToolkitError) throw err;
    // Nothing there yet: a new file; a link to nothing yet: a new file where it points.
    const link = await lstat(path).catch(() => undefined);
    if (link?.isSymbolicLink()) target = resolve(dirname(path), await readlink(path));
  }
  const partial = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.partial`,
  );
  registerTempFile(partial);
  // Failures name the output, not its temporary file: a full disk is `cannot write out.nt: no space left on the device (ENOSPC)`.
  const file = await openWriteStream(partial, { name: path }).catch((err: unknown) => {
    unregisterTempFile(partial);
    throw err;
  });
  const discard = async (): Promise<void> => {
    await closed(file);
    await rm(partial, { force: true });
    unregisterTempFile(partial);
  };
  const place = async (): Promise<void> => {
    try {
      if (mode !== undefined) await chmod(partial, mode);
      await rename(partial, target);
      unregisterTempFile(partial);
    } catch (err) {
      await rm(partial, { force: true });
      unregisterTempFile(partial);
      throw ioError(err, path);
    }
  };
  /** Ends the file and puts it in place; a failure (a full disk at the last write) discards it. */
  const finish = async (end: () => void): Promise<void> => {
    await ended(file, path, end, discard);
    await place();
  };
  return compressed(path, file, finish, discard);
}

/** An output written straight into a device or a pipe at `target`: nothing to rename, nothing to remove. */
async function inPlace(path: string, target: string): Promise<Output> {
  const file = await openWriteStream(target, { name: path });
  const discard = (): Promise<void> => closed(file);
  return compressed(path, file, (end) => ended(file, path, end, discard), discard);
}

/** Calls `end` (which ends `file`, or a stream into it) and waits until `file` is closed; a failure discards it and is an `io` error naming `path`. */
async function ended(file: Writable, path: string, end: () => void, discard: () => Promise<void>): Promise<void> {
  try {
    end();
    await finished(file);
  } catch (err) {
    await discard();
    throw ioError(err, path);
  }
}

/** Waits until `file` is closed, destroying it first when it is still open. */
function closed(file: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
    if (file.closed) resolve();
    else file.once('close', () => resolve()).destroy();
  });
}

/** The output over `file`: the file itself, or a gzip stream into it when `path` ends in `.gz`. */
function compressed(
  path: string,
  file: Writable,
  finish: (end: () => void) => Promise<void>,
  discard: () => Promise<void>,
): Output {
  if (!isGzipPath(path)) {
    return { stream: file, name: path, close: () => finish(() => file.end()), discard };
  }
  const gzip = createGzip();
  gzip.pipe(file);
  // The file failing (a full disk) fails the gzip stream written to, with the file's error: writers see it instead of waiting for ever.
  file.on('error', (err) => gzip.destroy(err));
  gzip.on('error', () => undefined);
  return {
    stream: gzip,
    name: path,
    close: () => finish(() => gzip.end()),
    discard: async () => {
      gzip.destroy();
      await discard();
    },
  };
}
