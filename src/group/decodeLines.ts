/**
 * The lines of UTF-8 bytes that end in a line feed (the last line may not) and hold no carriage return, each
 * without its line feed, decoded apart (invalid bytes as U+FFFD, as a decoder of the whole text gives them: no
 * character of UTF-8 holds a line feed). Each line is a string of its own: an ASCII line (most lines of a dump) is a
 * one-byte string whatever the lines around it hold (decoded whole, the text of a dump with a single character
 * beyond Latin-1 is two bytes a character, and every line and term cut from it too), and no line is a slice of a
 * larger text (a slice keeps the whole text alive as long as any line, term or key cut from it lives: the young
 * collections then copied whole texts into the old generation). Undefined when the bytes hold a carriage return
 * (lines may end there too: the caller decodes the text whole). Returns the lines and whether the last one was
 * ended by a line feed.
 */
export function decodeLines(bytes: Uint8Array): { lines: string[]; ended: boolean } | undefined {
  if (bytes.indexOf(13 /* \r */) >= 0) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = buffer.indexOf(10 /* \n */, start);
    const end = nl < 0 ? buffer.length : nl;
    if (nl < 0 && start === end) return { lines, ended: true };
    lines.push(buffer.toString('utf8', start, end));
    if (nl < 0) return { lines, ended: false };
    start = nl + 1;
  }
}

/**
 * Bytes of lines decoded at a time ({@link pieceEnd}): the string of a piece is small enough for the young
 * generation (a read of 128 KiB decoded whole is a large object, made in the old generation at once), and the
 * lines of a piece are grouped and validated before the next is decoded (those of a whole read were all held).
 */
export const PIECE_BYTES = 32 * 1024;

/**
 * Where the piece of `bytes` that starts at `at` ends: after the first line feed from `at + PIECE_BYTES` on, or
 * at `end` (the end of the lines: after a line feed, or the end of the input).
 */
export function pieceEnd(bytes: Uint8Array, at: number, end: number): number {
  if (at + PIECE_BYTES >= end) return end;
  const nl = bytes.indexOf(10 /* \n */, at + PIECE_BYTES);
  return nl < 0 || nl >= end ? end : nl + 1;
}
