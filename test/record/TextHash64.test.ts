import { describe, expect, it } from 'vitest';
import { TextHash64 } from '../../src/record/TextHash64.js';

/** The hash of a sequence of texts and numbers. */
function hashOf(...parts: (string | number)[]): [number, number] {
  const h = new TextHash64();
  for (const part of parts) {
    if (typeof part === 'number') h.number(part);
    else h.text(part);
  }
  return h.digest();
}

describe('TextHash64', () => {
  it('is the same for the same sequence, whatever kind of string V8 holds it in (joined, sliced, flat, two bytes)', () => {
    const flat = 'Müller, Anna 中𝔘 and more';
    const joined = ['Müller, ', 'Anna 中𝔘', ' and more'].reduce((a, b) => a + b);
    const sliced = `xx${flat}yy`.slice(2, -2);
    expect(hashOf(joined, 3)).toEqual(hashOf(flat, 3));
    expect(hashOf(sliced, 3)).toEqual(hashOf(flat, 3));
    const [a, b] = hashOf(flat);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(b).toBeLessThan(2 ** 32);
  });

  it('tells apart cuts of the same characters, and an empty text from none (a text adds its length first: the number -1 is no length)', () => {
    const digests = [
      hashOf('ab', 'c'),
      hashOf('a', 'bc'),
      hashOf('abc'),
      hashOf('abc', ''),
      hashOf('', 'abc'),
      hashOf('abc', -1),
      hashOf(''),
      hashOf(),
      hashOf(-1),
    ].map((d) => d.join(','));
    expect(new Set(digests).size).toBe(digests.length);
  });

  it('differs in both lanes for every one-unit change, swap of neighbours or odd last unit of a text', () => {
    const text = 'Navigating heavy-ion collisions: an update (Müller, 佐藤)';
    const [a0, b0] = hashOf(text);
    const changed: string[] = [];
    for (let i = 0; i < text.length; i++) {
      changed.push(text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1));
      if (i + 1 < text.length && text[i] !== text[i + 1])
        changed.push(text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2));
    }
    changed.push(`${text}x`, text.slice(0, -1));
    for (const other of changed) {
      const [a, b] = hashOf(other);
      expect(a).not.toBe(a0);
      expect(b).not.toBe(b0);
    }
  });
});
