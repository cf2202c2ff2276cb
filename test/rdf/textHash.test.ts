import { describe, expect, it } from 'vitest';
import { TEXT_HASH_A, TEXT_HASH_B, hashText } from '../../src/rdf/textHash.js';

/** FNV-1a over UTF-16 units, one a step, from the lanes `a` and `b`. */
function reference(text: string, a = TEXT_HASH_A, b = TEXT_HASH_B): number[] {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return [a >>> 0, b >>> 0];
}

function lanes(text: string, a?: number, b?: number): number[] {
  const out = new Uint32Array(4);
  hashText(text, out, 2, a, b);
  return [out[2]!, out[3]!];
}

describe('hashText', () => {
  const texts = ['', 'a', 'ab', 'abc', 'Kovács, Björn', '0000-0002-5432-1008', '\u{1D400}x', 'https://orcid.org/'];

  it('is FNV-1a of the UTF-16 units, two lanes, for texts of odd and even length', () => {
    for (const text of texts) expect(lanes(text), text).toEqual(reference(text));
    expect(lanes('a')).not.toEqual(lanes('b'));
  });

  it('continues from the lanes of a text before: the lanes of x + y are those of y from x’s', () => {
    for (const x of texts)
      for (const y of texts) {
        const [a, b] = lanes(x);
        expect(lanes(y, a, b), `${x} + ${y}`).toEqual(lanes(x + y));
      }
  });
});
