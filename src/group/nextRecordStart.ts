import { readSync } from 'node:fs';
import type { LineFormat } from '../formats.js';
import { lineRecordKey } from './groupNTriplesRecords.js';

/** Bytes read at a time when looking for a cut. */
const WINDOW = 1 << 16;

/**
 * Where a part of an N-Triples or N-Quads file may start (`validate --jobs`): the first byte, at or after `from`,
 * of a line whose record ({@link lineRecordKey}) is not the record of the statements before it (a record
 * starts there), found by reading a few lines of the open file `fd` (a cheap scan: no line is parsed); `size` (the
 * file's end) when none starts before it. Undefined when none starts within `limit` bytes.
 */
export function nextRecordStart(
  fd: number,
  from: number,
  size: number,
  format: LineFormat,
  limit = 1 << 22,
): number | undefined {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const bytes = Buffer.allocUnsafe(WINDOW);
  const stop = Math.min(size, from + limit);
  // The first line that starts at or after `from`: after the line break at or after `from - 1`.
  let at = Math.max(0, from - 1);
  let lineStart = from === 0 ? 0 : -1;
  let current: string | undefined;
  while (at < stop) {
    const n = readSync(fd, bytes, 0, Math.min(WINDOW, size - at), at);
    if (n <= 0) return size;
    let i = 0;
    if (lineStart < 0) {
      const nl = bytes.indexOf(0x0a, 0);
      if (nl < 0 || nl >= n) {
        at += n;
        continue;
      }
      lineStart = at + nl + 1;
      i = nl + 1;
    }
    for (;;) {
      const nl = bytes.indexOf(0x0a, i);
      if (nl < 0 || nl >= n) break;
      const key = lineRecordKey(decoder.decode(bytes.subarray(i, nl)), format);
      if (key !== undefined) {
        if (current !== undefined && key !== current) return lineStart;
        current = key;
      }
      i = nl + 1;
      lineStart = at + i;
    }
    if (i === 0) {
      // A line longer than the window: no cut before its end is looked for.
      at += n;
      lineStart = -1;
      continue;
    }
    at += i;
  }
  return at >= size ? size : undefined;
}
