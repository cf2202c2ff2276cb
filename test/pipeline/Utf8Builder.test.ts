import { describe, expect, it } from 'vitest';
import { Utf8Builder } from '../../src/pipeline/Utf8Builder.js';

describe('Utf8Builder', () => {
  it('gathers texts as the UTF-8 of their concatenation, returning each one’s byte length', () => {
    const builder = new Utf8Builder(16);
    const texts = ['<a> <b> "x" .\n', 'é€😀\n', 'z'.repeat(1000), ''];
    const lengths = texts.map((t) => builder.add(t));
    expect(lengths).toEqual(texts.map((t) => Buffer.byteLength(t)));
    expect(builder.length).toBe(Buffer.byteLength(texts.join('')));
    expect(Buffer.from(builder.bytes()).toString('utf8')).toBe(texts.join(''));
  });

  it('keeps what it wrote when it grows (a text longer than its room)', () => {
    const builder = new Utf8Builder(4);
    builder.add('ab');
    builder.add('ü'.repeat(50));
    expect(Buffer.from(builder.bytes()).toString('utf8')).toBe(`ab${'ü'.repeat(50)}`);
  });
});
