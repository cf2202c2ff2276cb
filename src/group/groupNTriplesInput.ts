import { DEFAULT_MAX_DOCUMENT_CHARS } from '../parse/limits.js';
import type { RdfInput } from '../parse/RdfInput.js';
import { decodeLines, pieceEnd } from './decodeLines.js';
import { NTriplesLineGrouper } from './groupNTriplesRecords.js';
import type { GroupNTriplesRecordsOptions, NTriplesRecordGroup } from './groupNTriplesRecords.js';

/** Options of {@link groupNTriplesInput}. */
export interface GroupNTriplesInputOptions extends GroupNTriplesRecordsOptions {
  /**
   * Given each chunk of bytes once no part of it is held (its lines decoded): the reader of the input may read into
   * it again (`openRdfFile`'s `release`). Defaults to none.
   */
  release?: (chunk: Uint8Array) => void;
  /** Whether a byte-order mark at the start of the input is dropped (false: the input starts within a file). Defaults to true. */
  bom?: boolean;
  /** The number of the input's first line (an input that starts within a file). Defaults to 1. */
  firstLine?: number;
}

/** The longest unfinished line carried as bytes from one chunk to the next: a longer one is read as text from there on. */
const MAX_CARRY = 1 << 16;

/**
 * `groupNTriplesRecords` of an input as it is read (bytes, text or a whole string): the same groups. Bytes are cut
 * into lines and decoded line by line ({@link decodeLines}: an ASCII line is a one-byte string, whatever the lines
 * around it hold), a BOM at the start dropped; text, text with a carriage return, and everything from a line
 * longer than 64 KiB or `maxDocumentChars` bytes on (the grouper bounds and refuses it as it does any text) are
 * decoded and grouped as text. Each chunk of bytes is given to `release` once decoded.
 */
export async function* groupNTriplesInput(
  input: RdfInput,
  options: GroupNTriplesInputOptions = {},
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
  const release = options.release;
  const lines = new NTriplesLineGrouper(options);
  if (typeof input === 'string') {
    yield* lines.addText(input.replace(/^\uFEFF/, ''));
    yield* lines.end();
    return;
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const maxCarry = Math.min(MAX_CARRY, options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS);
  /** Whether the input is read as text from here on (a streaming decode). */
  let asText = false;
  /** Whether nothing was read yet (a BOM is dropped there). */
  let first = options.bom ?? true;
  /** The bytes of the line not ended yet. */
  let carry: Uint8Array | undefined;
  /** The chunk `carry` is a view of (not a copy): given back once `carry` is copied or decoded. */
  let carriedFrom: Uint8Array | undefined;
  const giveBackCarried = () => {
    if (carriedFrom) release?.(carriedFrom);
    carriedFrom = undefined;
  };
  for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
    if (typeof chunk === 'string' || asText) {
      let text = '';
      if (carry) text = decoder.decode(carry, { stream: true });
      carry = undefined;
      giveBackCarried();
      if (typeof chunk === 'string') text += chunk;
      else {
        text += decoder.decode(chunk, { stream: true });
        release?.(chunk);
      }
      asText = true;
      if (first && text !== '') {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (text !== '') yield* lines.addText(text);
      continue;
    }
    // `bytes` is `chunk` or a view of it, unless a carry was copied in front of it.
    const copied = carry !== undefined;
    let bytes = copied ? Buffer.concat([carry!, chunk]) : chunk;
    giveBackCarried();
    if (first && bytes.length > 0) {
      if (bytes.length < 3 && bytes[0] === 0xef) {
        carry = bytes; // a BOM may be cut: wait for more
        if (!copied) carriedFrom = chunk;
        else release?.(chunk);
        continue;
      }
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      first = false;
    }
    const end = bytes.lastIndexOf(10 /* \n */) + 1;
    if (bytes.length - end > maxCarry) {
      // A long line: read as text from here on (the grouper holds it, and refuses it as it always does).
      asText = true;
      carry = undefined;
      const text = decoder.decode(bytes, { stream: true });
      release?.(chunk);
      if (text !== '') yield* lines.addText(text);
      continue;
    }
    carry = end < bytes.length ? bytes.subarray(end) : undefined;
    // A piece of lines at a time, its groups passed on before the next is decoded.
    for (let at = 0; at < end;) {
      const cut = pieceEnd(bytes, at, end);
      const piece = bytes.subarray(at, cut);
      at = cut;
      const decoded = decodeLines(piece)?.lines ?? decoder.decode(piece, { stream: true });
      const groups = typeof decoded === 'string' ? lines.addText(decoded) : lines.addLines(decoded);
      if (groups.length) yield* groups;
    }
    // The lines are decoded (copies): the chunk is held only by a carry that is a view of it.
    if (carry && !copied) carriedFrom = chunk;
    else release?.(chunk);
  }
  if (carry) {
    const text = decoder.decode(carry, { stream: true });
    giveBackCarried();
    if (text !== '') yield* lines.addText(first ? text.replace(/^\uFEFF/, '') : text);
  }
  const tail = decoder.decode();
  if (tail !== '') yield* lines.addText(tail);
  yield* lines.end();
}
