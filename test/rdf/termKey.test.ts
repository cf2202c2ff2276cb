import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { termKey } from '../../src/rdf/termKey.js';

const { namedNode, blankNode, literal, defaultGraph, quad, variable } = DataFactory;
const XSD_STRING = namedNode('http://www.w3.org/2001/XMLSchema#string');

describe('termKey (the one key of an RDF/JS term)', () => {
  it('tells apart terms RDF/JS equals tells apart, a literal direction included', () => {
    const terms = [
      namedNode('http://example.org/a'),
      blankNode('a'),
      literal('http://example.org/a'),
      literal('a'),
      literal('a', 'en'),
      literal('a', { language: 'ar', direction: 'rtl' }),
      literal('a', { language: 'ar', direction: 'ltr' }),
      literal('a', { language: 'ar' }),
      literal('a', namedNode('http://example.org/t')),
      defaultGraph(),
      variable('a'),
      quad(namedNode('http://example.org/a'), namedNode('http://example.org/p'), literal('a', 'en')),
      quad(namedNode('http://example.org/a'), namedNode('http://example.org/p'), literal('a', 'de')),
    ];
    for (const a of terms)
      for (const b of terms) expect(termKey(a) === termKey(b), `${termKey(a)} vs ${termKey(b)}`).toBe(a.equals(b));
    expect(new Set(terms.map(termKey)).size).toBe(terms.length);
  });

  it('gives equal terms made by different factories one key', () => {
    const plain = { termType: 'Literal', value: 'a', language: '', datatype: XSD_STRING, equals: () => false };
    expect(termKey(plain as never)).toBe(termKey(literal('a')));
    expect(termKey(literal('a', { language: 'ar', direction: 'rtl' }))).toBe('"a"@ar--rtl^^' + RDF_DIR_LANG);
  });
});

const RDF_DIR_LANG = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString';
