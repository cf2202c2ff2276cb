import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ioError } from '../errors.js';

/**
 * Writes a text file atomically: a temp file beside it (`<path>.tmp`),
 * fsynced, renamed over it, and the folder fsynced. A write that fails (a
 * full disk) throws `io` naming the file as `what` it is, and leaves the
 * file as it was (the temp file removed).
 */
export async function writeFileAtomically(path: string, text: string, what: string): Promise<void> {
  const temp = `${path}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw ioError(err, path, 'write', what);
  }
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // some file systems cannot fsync a folder; the rename is still atomic
  }
}
