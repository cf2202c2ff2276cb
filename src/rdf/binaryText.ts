import { Buffer } from 'node:buffer';
import { flat } from './flat.js';

/**
 * The UTF-8 bytes of a text as a *binary string*: one character a byte
 * (U+0000–U+00FF), which `Buffer`'s `'latin1'` encoding writes as it is. An
 * ASCII text is its own binary string. A record's text made of binary
 * strings is a one-byte string for V8, written out by copying (`'latin1'`,
 * even as a tree of pieces), where the UTF-8 encoding of a text holding one
 * character past U+00FF goes a code unit at a time over a flattened copy
 * (measured: about 3 times the CPU a record). `text` must be well-formed (no
 * lone surrogate: the writers refuse those first).
 */
export function binaryText(text: string): string {
  // most texts come here as concatenations (an IRI the mapper joined, a line's pieces): flattened before the test.
  // A text is ASCII when its UTF-8 bytes are as many as its code units (any other unit takes 2 or 3 bytes, a pair
  // 4): Node counts them natively, several times as fast as a regular expression tests for a unit past U+007F
  // (about 40 against 175 ns an IRI of 84 characters; the regular expression's code was 38 k instructions a
  // record of convert -f ntriples, callgrind).
  if (Buffer.byteLength(flat(text), 'utf8') === text.length) return text;
  return utf8BinaryText(text);
}

/** {@link binaryText} of a text known to hold a character past U+007F (not tested again). */
export function utf8BinaryText(text: string): string {
  // Encoded into one buffer kept for it (a UTF-16 unit is 3 bytes at most): no buffer made a text, 12% fewer
  // instructions a text than `Buffer.from` (callgrind, names and IRIs of 10 to 80 characters).
  if (text.length * 3 > SCRATCH_BYTES) return Buffer.from(text, 'utf8').toString('latin1');
  const bytes = scratch.write(text, 0, 'utf8');
  return scratch.toString('latin1', 0, bytes);
}

const SCRATCH_BYTES = 1 << 16;
const scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
