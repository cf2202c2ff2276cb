import { DEFAULT_MAX_DOCUMENT_CHARS } from '../parse/limits.js';
import type { RdfInput } from '../parse/RdfInput.js';
import { decodeLines } from './decodeLines.js';
import { NTriplesLineGrouper } from './groupNTriplesRecords.js';
import type { GroupNTriplesRecordsOptions, NTriplesRecordGroup } from './groupNTriplesRecords.js';

/** The longest unfinished line carried as bytes from one chunk to the next: a longer one is read as text from there on. */
const MAX_CARRY = 1 << 16;

/**
 * `groupNTriplesRecords` of an input as it is read (bytes, text or a whole string): the same groups. Bytes are cut
 * into lines and decoded line by line ({@link decodeLines}: an ASCII line is a one-byte string, whatever the lines
 * around it hold), a BOM at the start dropped; text, text with a carriage return, and everything from a line
 * longer than 64 KiB or `maxDocumentChars` bytes on (the grouper bounds and refuses it as it does any text) are
 * decoded and grouped as text.
 */
export async function* groupNTriplesInput(
  input: RdfInput,
  options: GroupNTriplesRecordsOptions = {},
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
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
  let first = true;
  /** The bytes of the line not ended yet. */
  let carry: Uint8Array | undefined;
  for await (const chunk of input as AsyncIterable<string | Uint8Array>) {
    if (typeof chunk === 'string' || asText) {
      let text = '';
      if (carry) text = decoder.decode(carry, { stream: true });
      carry = undefined;
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      asText = true;
      if (first && text !== '') {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (text !== '') yield* lines.addText(text);
      continue;
    }
    let bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
    if (first && bytes.length > 0) {
      if (bytes.length < 3 && bytes[0] === 0xef) {
        carry = bytes; // a BOM may be cut: wait for more
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
      if (text !== '') yield* lines.addText(text);
      continue;
    }
    carry = end < bytes.length ? bytes.subarray(end) : undefined;
    if (end > 0) {
      const whole = bytes.subarray(0, end);
      const decoded = decodeLines(whole, decoder);
      yield* decoded ? lines.addLines(decoded.lines) : lines.addText(decoder.decode(whole, { stream: true }));
    }
  }
  if (carry) {
    const text = decoder.decode(carry, { stream: true });
    if (text !== '') yield* lines.addText(first ? text.replace(/^\uFEFF/, '') : text);
  }
  const tail = decoder.decode();
  if (tail !== '') yield* lines.addText(tail);
  yield* lines.end();
}
