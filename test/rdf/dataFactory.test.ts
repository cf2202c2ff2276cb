import { DataFactory as N3 } from 'n3';
import { describe, expect, it } from 'vitest';
import { dataFactory as f, hashedNamedNode, vocabularyIndex } from '../../src/rdf/dataFactory.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

describe('dataFactory', () => {
  it('makes terms whose fields are those of n3 for the same calls', () => {
    const cases = [
      [f.literal('a'), N3.literal('a')],
      [f.literal('a', 'EN-gb'), N3.literal('a', 'EN-gb')],
      [f.literal('5', f.namedNode(`${XSD}integer`)), N3.literal('5', N3.namedNode(`${XSD}integer`))],
      [f.literal('x', f.namedNode(`${XSD}string`)), N3.literal('x', N3.namedNode(`${XSD}string`))],
      [
        f.literal('ar', { language: 'AR', direction: 'rtl' }),
        N3.literal('ar', { language: 'AR', direction: 'rtl' } as never),
      ],
    ] as const;
    for (const [ours, theirs] of cases) {
      expect([ours.termType, ours.value, ours.language, ours.direction || '', ours.datatype.value]).toEqual([
        theirs.termType,
        theirs.value,
        theirs.language,
        theirs.direction || '',
        theirs.datatype.value,
      ]);
      expect(ours.equals(theirs)).toBe(true);
      expect(theirs.equals(ours)).toBe(true);
    }
    expect(f.literal('a', 'en').datatype.value).toBe(`${RDF}langString`);
    expect(f.literal('a', { language: 'ar', direction: 'rtl' }).datatype.value).toBe(`${RDF}dirLangString`);
  });

  it('tells terms apart by type, value, language, direction and datatype', () => {
    expect(f.namedNode('http://x/a').equals(f.namedNode('http://x/a'))).toBe(true);
    expect(f.namedNode('http://x/a').equals(f.blankNode('http://x/a'))).toBe(false);
    expect(f.namedNode('x').equals(null)).toBe(false);
    expect(f.literal('a', 'en').equals(f.literal('a', 'de'))).toBe(false);
    expect(f.literal('a', 'en').equals(f.literal('a', { language: 'en', direction: 'ltr' }))).toBe(false);
    expect(f.literal('1', f.namedNode(`${XSD}integer`)).equals(f.literal('1'))).toBe(false);
    expect(f.literal('a').equals(f.namedNode('a'))).toBe(false);
    expect(f.defaultGraph().equals(N3.defaultGraph())).toBe(true);
    expect(f.variable!('v').equals(N3.variable('v'))).toBe(true);
    expect(f.blankNode().value).not.toBe(f.blankNode().value);
  });

  it('makes quads equal to those of any other factory with equal terms', () => {
    const q = f.quad(f.namedNode('http://x/s'), f.namedNode('http://x/p'), f.literal('o', 'en'));
    const n = N3.quad(N3.namedNode('http://x/s'), N3.namedNode('http://x/p'), N3.literal('o', 'en'));
    expect([q.termType, q.value, q.graph.termType]).toEqual(['Quad', '', 'DefaultGraph']);
    expect(q.equals(n)).toBe(true);
    expect(n.equals(q)).toBe(true);
    expect(q.equals(f.quad(q.subject, q.predicate, q.object, f.namedNode('http://x/g')))).toBe(false);
  });

  it('copies terms and quads of other factories', () => {
    const n = N3.quad(
      N3.blankNode('b'),
      N3.namedNode('http://x/p'),
      N3.literal('5', N3.namedNode(`${XSD}integer`)),
      N3.namedNode('http://x/g'),
    );
    const copy = f.fromQuad(n);
    expect(copy.equals(n)).toBe(true);
    expect(copy).not.toBe(n);
    expect(copy.object.constructor).toBe(f.literal('x').constructor);
    expect(
      f
        .fromTerm(N3.literal('ar', { language: 'ar', direction: 'rtl' } as never))
        .equals(f.literal('ar', { language: 'ar', direction: 'rtl' })),
    ).toBe(true);
    expect(f.fromTerm(N3.defaultGraph())).toBe(f.defaultGraph());
  });

  it('numbers vocabulary terms in the order they are made; other terms have no number', () => {
    const a = hashedNamedNode('http://x.org/a');
    const b = hashedNamedNode('http://x.org/a');
    const ia = vocabularyIndex(a, Infinity);
    expect(ia).toBeGreaterThanOrEqual(0);
    expect(vocabularyIndex(b, Infinity)).toBe(ia + 1);
    expect(a.equals(b)).toBe(true);
    // at or past the limit, and for any other term: -1
    expect(vocabularyIndex(a, ia)).toBe(-1);
    expect(vocabularyIndex(a, ia + 1)).toBe(ia);
    expect(vocabularyIndex(f.namedNode('http://x.org/a'), Infinity)).toBe(-1);
    expect(vocabularyIndex(N3.namedNode('http://x.org/a'), Infinity)).toBe(-1);
    expect(vocabularyIndex(f.literal('a'), Infinity)).toBe(-1);
  });
});
