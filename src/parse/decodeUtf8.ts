import type { RdfInput } from './RdfInput.js';

/**
 * Decodes chunks as UTF-8 text (multi-byte characters may span chunks; an
 * invalid sequence becomes U+FFFD) and drops a leading BOM.
 *
 * Each chunk is decoded whole, up to its last complete character (the bytes
 * of a character it cuts go with the next chunk), not by a streaming
 * `TextDecoder`: that one gives reads of 1 MiB as two bytes a character, ASCII
 * too (text held by a line reader or a parser, a long line or a JSON-LD node,
 * took twice its size), a whole decode one byte a character for Latin-1.
 * The text is the same: a chunk is cut only before a byte that starts a
 * character, where a streaming decoder starts one afresh too.
 *
 * `release` is given each chunk of bytes once it is decoded (and no part of it
 * carried to the next): the reader of the input may read into it again
 * (`openRdfFile`'s `release`). Defaults to none.
 */
export async function* decodeUtf8(input: RdfInput, release?: (chunk: Uint8Array) => void): AsyncGenerator<string> {
  if (typeof input === 'string') {
    yield input.replace(/^\uFEFF/, '');
    return;
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let first = true;
  /** The start of a character the last chunk cut. */
  let carry: Uint8Array | undefined;
  /** The chunk `carry` is a part of (not a copy). */
  let carriedFrom: Uint8Array | undefined;
  for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
    let text: string;
    if (typeof chunk === 'string') {
      text = carry ? decoder.decode(carry) + chunk : chunk;
      carry = undefined;
      if (carriedFrom) release?.(carriedFrom);
      carriedFrom = undefined;
    } else {
      const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      // The chunk the carry was cut from is copied into `bytes` now.
      if (carriedFrom) release?.(carriedFrom);
      const cut = completeLength(bytes);
      text = decoder.decode(cut < bytes.length ? bytes.subarray(0, cut) : bytes);
      carry = cut < bytes.length ? bytes.subarray(cut) : undefined;
      carriedFrom = carry && bytes === chunk ? chunk : undefined;
      if (!carriedFrom) release?.(chunk);
    }
    if (first && text !== '') {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text !== '') yield text;
  }
  const tail = carry ? decoder.decode(carry) : '';
  if (tail !== '') yield first ? tail.replace(/^\uFEFF/, '') : tail;
}

/**
 * The length of `bytes` up to the character the end cuts, if it cuts one: a lead byte in the last three bytes
 * whose sequence is longer than what follows it. Else all of them (invalid bytes are decoded as U+FFFD then).
 */
function completeLength(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let i = end - 1; i >= 0 && i >= end - 3; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return end;
    if (b < 0xc0) continue;
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return i + size > end ? i : end;
  }
  return end;
}
