import { Buffer } from 'node:buffer';

const NON_ASCII = /[^\u0000-\u007F]/;

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
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}
