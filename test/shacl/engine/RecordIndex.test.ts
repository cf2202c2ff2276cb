import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { distinctRecord, RecordIndex } from '../../../src/shacl/engine/RecordIndex.js';
import { TermInterner } from '../../../src/shacl/engine/TermInterner.js';

const { namedNode, literal, quad } = DataFactory;
const EX = 'http://example.org/';

/** Quads of a few subjects with repeats (some subjects past the pairs scanned for a repeat), in a scrambled order. */
function quadsWithRepeats(seed: number): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  for (let i = 0; i < 600; i++) {
    const s = namedNode(`${EX}s${next(4)}`);
    const p = namedNode(`${EX}p${next(5)}`);
    const o = next(3) === 0 ? namedNode(`${EX}o${next(40)}`) : literal(`v${next(60)}`);
    out.push(quad(s, p, o, next(4) === 0 ? namedNode(`${EX}g`) : DataFactory.defaultGraph()));
  }
  return out;
}

describe('distinctRecord', () => {
  it("keeps each triple's first quad, in order, and gives the pairs RecordIndex builds itself", () => {
    for (const seed of [1, 2, 3, 42]) {
      const interner = new TermInterner();
      const quads = quadsWithRepeats(seed).map((q) => interner.quad(q));
      const { triples, pairs } = distinctRecord(quads);
      // The first quad of each triple (graphs ignored), by the triple's text.
      const seen = new Set<string>();
      const expected = quads.filter((q) => {
        const key = `${q.subject.value} ${q.predicate.value} ${q.object.termType}${q.object.value}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      expect(triples).toEqual(expected);
      expect(triples.every((q, i) => q === expected[i])).toBe(true);
      const fromPairs = new RecordIndex(triples, pairs);
      const built = new RecordIndex(triples);
      for (const s of new Set(triples.map((q) => q.subject))) {
        expect(fromPairs.pairsOf(s)).toEqual(built.pairsOf(s));
        for (let p = 0; p < 5; p++) {
          const predicate = interner.term(namedNode(`${EX}p${p}`));
          expect(fromPairs.objects(s, predicate)).toEqual(built.objects(s, predicate));
        }
      }
      // Some subject went past the pairs scanned for a repeat.
      expect(Math.max(...[...pairs.values()].map((l) => l.length))).toBeGreaterThan(128);
    }
  });

  it('interns quads through the function given', () => {
    const interner = new TermInterner();
    const q = quad(namedNode(`${EX}s`), namedNode(`${EX}p`), literal('x'));
    const { triples } = distinctRecord([q, quad(namedNode(`${EX}s`), namedNode(`${EX}p`), literal('x'))], (x) =>
      interner.quad(x),
    );
    expect(triples).toHaveLength(1);
    expect(triples[0]!.subject).toBe(interner.term(namedNode(`${EX}s`)));
  });
});
