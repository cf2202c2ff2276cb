import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ToolkitError, ioError } from '../errors.js';

/**
 * Throws `io` naming `path` (as given, and as `what` it is) unless its folder
 * is there, is a folder, and can be written to: checked before a run, so a
 * slip in a path is refused before any work, not after it.
 */
export function assertWritableFolder(path: string, what?: string): void {
  const folder = dirname(resolve(path));
  try {
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    accessSync(folder, constants.W_OK);
  } catch (err) {
    throw ioError(err, path, 'create', what);
  }
}

/** Throws `io` (naming `path` as given) unless a file can be written at `path`: its folder writable, no folder there, an existing file writable. */
export function assertWritable(path: string): void {
  assertWritableFolder(path);
  let info;
  try {
    info = statSync(path);
  } catch {
    return; // nothing there yet: the folder is writable
  }
  if (info.isDirectory())
    throw new ToolkitError(`cannot write ${path}: it is a directory`, 'io', { details: { path } });
  try {
    accessSync(path, constants.W_OK);
  } catch (err) {
    throw ioError(err, path, 'write');
  }
}
