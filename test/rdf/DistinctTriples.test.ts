import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { termsKey, tripleKey } from '../../src/rdf/tripleKey.js';
import { DistinctTriples } from '../../src/rdf/DistinctTriples.js';

const { namedNode, literal, quad } = DataFactory;

describe('DistinctTriples', () => {
  it('counts each key once through every growth of its table, as a Set does', () => {
    const distinct = new DistinctTriples();
    const truth = new Set<number>();
    const added: number[] = [];
    let x = 12345;
    for (let i = 0; i < 200_000; i++) {
      // 53-bit keys, a third of them again
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const key = i % 3 === 2 ? added[(i * 7919) % added.length]! : x * 2097152 + (i & 0x1fffff);
      distinct.addKey(key);
      truth.add(key);
      added.push(key);
    }
    expect(distinct.size).toBe(truth.size);
    distinct.addKey(0);
    distinct.addKey(0);
    expect(distinct.size).toBe(truth.size + 1);
  });

  it('keys a triple by its terms: a language, a datatype or one character more is another triple', () => {
    const s = namedNode('https://w3id.org/scholarly-rdf/journal/1234-5678');
    const p = namedNode('http://schema.org/name');
    const triples = [
      quad(s, p, literal('Journal of Tests')),
      quad(s, p, literal('Journal of Tests', 'en')),
      quad(s, p, literal('Journal of Tests', namedNode('http://www.w3.org/2001/XMLSchema#token'))),
      quad(s, p, literal('Journal of Tests.')),
      quad(s, p, namedNode('Journal of Tests')),
      quad(namedNode(`${s.value}x`), p, literal('Journal of Tests')),
    ];
    for (const key of [termsKey, tripleKey]) {
      expect(new Set(triples.map(key)).size).toBe(triples.length);
      expect(key(quad(s, p, literal('Journal of Tests')))).toBe(key(triples[0]!));
    }
  });

  it('keys a class by its IRI whatever string holds it, and a class apart from the same IRI under another predicate', () => {
    const s = namedNode('https://w3id.org/scholarly-rdf/journal/1');
    const type = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
    const periodical = 'http://schema.org/Periodical';
    const copy = [...periodical].join('');
    const keys = [
      termsKey(quad(s, type, namedNode(periodical))),
      termsKey(quad(s, type, namedNode('http://schema.org/Periodicals'))),
      termsKey(quad(s, namedNode('http://schema.org/additionalType'), namedNode(periodical))),
      termsKey(quad(s, type, literal(periodical))),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(termsKey(quad(s, namedNode(`${type.value}`), namedNode(copy)))).toBe(keys[0]);
  });
});
