import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLines } from '../../src/group/decodeLines.js';
import { fuzzParams } from '../fuzz/fuzzConfig.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** What decoding the bytes whole gives, as decodeLines gives it. */
function whole(bytes: Uint8Array): { lines: string[]; ended: boolean } {
  const text = decoder.decode(bytes);
  const lines = text.split('\n');
  const ended = lines[lines.length - 1] === '';
  if (ended) lines.pop();
  return { lines, ended };
}

describe('decodeLines', () => {
  it('decodes each line as the whole text decodes it: ASCII, other characters, invalid bytes', () => {
    const text = '<http://a/s> <http://a/p> "x" .\n<http://a/s> <http://a/p> "Łukasz é 😀 \u2028" .\n\n# c\nlast';
    const bytes = new TextEncoder().encode(text);
    expect(decodeLines(bytes)).toEqual({ lines: text.split('\n'), ended: false });
    expect(decodeLines(new TextEncoder().encode(`${text}\n`))).toEqual({
      lines: text.split('\n'),
      ended: true,
    });
    // A character cut by a line feed, a stray continuation byte: U+FFFD, as whole.
    const broken = Uint8Array.from([0x61, 0xe2, 0x0a, 0x80, 0x62, 0x0a, 0xc3, 0xa9, 0x0a]);
    expect(decodeLines(broken)).toEqual(whole(broken));
    expect(decodeLines(new Uint8Array(0))).toEqual({ lines: [], ended: true });
  });

  it('leaves a text with a carriage return to the caller (lines may end there too)', () => {
    expect(decodeLines(new TextEncoder().encode('a\r\nb\n'))).toBeUndefined();
    expect(decodeLines(new TextEncoder().encode('a\rb'))).toBeUndefined();
  });

  it('gives the whole decode for any bytes without a carriage return', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x41, 0xc3, 0xa9, 0xf0, 0x9f));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 64 }), (values) => {
        const bytes = Uint8Array.from(values.filter((b) => b !== 0x0d));
        expect(decodeLines(bytes)).toEqual(whole(bytes));
      }),
      fuzzParams('decodeLines', 1000),
    );
  });
});
