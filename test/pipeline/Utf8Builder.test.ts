import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { Utf8Builder } from '../../src/pipeline/Utf8Builder.js';
import { binaryText } from '../../src/rdf/binaryText.js';
import { serializerFor } from '../../src/serialize/serializers.js';

const { namedNode, literal, quad } = DataFactory;

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

  it('appends binary strings as their bytes, and a writer’s record as its binary string when it gives one', () => {
    const builder = new Utf8Builder(4);
    expect(builder.addBinary(binaryText('é€😀'))).toBe(Buffer.byteLength('é€😀'));
    const quads = [quad(namedNode('https://example.org/ü'), namedNode('http://x.org/p'), literal('中文', 'ja'))];
    const expected = serializerFor('ntriples').createWriter().write(quads);
    expect(builder.record(serializerFor('ntriples').createWriter(), quads)).toBe(Buffer.byteLength(expected));
    // Turtle gives no binary string: its text is encoded.
    const turtle = serializerFor('turtle').createWriter();
    turtle.continueAfter(1);
    const text = serializerFor('turtle').createWriter();
    text.continueAfter(1);
    builder.record(turtle, quads);
    expect(Buffer.from(builder.bytes()).toString('utf8')).toBe(`é€😀${expected}${text.write(quads)}`);
  });
});
