import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isGzipPath } from '../formats.js';

/**
 * Bytes of the input files as stored (compressed ones as they are): the
 * total of a progress by bytes read. `null` when one of them is stdin (`-`),
 * whose size is not known; an unreadable file counts nothing (it is reported
 * when it is opened).
 */
export function storedBytes(paths: readonly string[]): number | null {
  let total = 0;
  for (const path of paths) {
    if (path === '-') return null;
    total += sizeOf(path);
  }
  return total;
}

/** The least ratio of text to gzip assumed for RDF (it compresses 5 to 15 times). */
const GZIP_RATIO_FLOOR = 4;

/**
 * Bytes of text the input files hold, estimated: a plain file's size; for a
 * gzip file (by name) the larger of its trailer's ISIZE (exact for one gzip
 * member under 4 GiB) and 4 times its size (an export's `.gz` has a member per
 * page, and ISIZE gives only the last one's size). Stdin and unreadable files
 * count nothing.
 */
export function estimatedTextBytes(paths: readonly string[]): number {
  let total = 0;
  for (const path of paths) {
    if (path === '-') continue;
    const size = sizeOf(path);
    total += isGzipPath(path) ? Math.max(gzipTrailerSize(path, size), size * GZIP_RATIO_FLOOR) : size;
  }
  return total;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The ISIZE of a gzip file's trailer (the last member's text size, modulo 2^32); 0 when it cannot be read. */
function gzipTrailerSize(path: string, size: number): number {
  if (size < 18) return 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(4);
    if (readSync(fd, buffer, 0, 4, size - 4) !== 4) return 0;
    return buffer.readUInt32LE(0);
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
