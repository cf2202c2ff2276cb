import type * as RDF from '@rdfjs/types';
import { Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { QuadIndex } from '../../../src/shacl/scope/QuadIndex.js';
import { loadShapes } from '../../../src/shacl/loadShapes.js';
import { termKey } from '../../../src/rdf/termKey.js';

const TRIG = `@prefix ex: <http://example.org/> .
ex:b ex:p ex:c, "c", "c"@en, "c"@en-GB, 1, _:x .
ex:a ex:q ex:c ; ex:p ex:b .
_:x ex:p ex:a ; ex:r ( ex:a ex:b ) .
ex:g1 { ex:a ex:p ex:c . ex:z ex:p "c" . }
ex:g2 { ex:b ex:p ex:c . ex:a ex:q "c"@en . }
`;

const keys = (terms: readonly (RDF.Term | RDF.Quad)[]) =>
  terms.map((t) => ('subject' in t ? termKey(t.subject) + termKey(t.predicate) + termKey(t.object) : termKey(t)));

/** Every pattern of the terms of `store`: the index answers as the store does. */
function expectSameAnswers(store: Store): void {
  const index = new QuadIndex(store.getQuads(null, null, null, null));
  const quads = store.getQuads(null, null, null, null);
  const pick = <T>(f: (q: RDF.Quad) => T) => [...new Map(quads.map((q) => [termKey(f(q) as RDF.Term), f(q)])).values()];
  const subjects = [null, ...pick((q) => q.subject)];
  const predicates = [null, ...pick((q) => q.predicate)];
  const objects = [null, ...pick((q) => q.object)];
  const graphs = [null, ...pick((q) => q.graph)];
  let asked = 0;
  for (const s of subjects)
    for (const p of predicates)
      for (const o of objects)
        for (const g of graphs) {
          const mine = keys(index.getQuads(s, p, o, g));
          const theirs = keys(store.getQuads(s, p, o, g));
          // The store orders the quads of a predicate alone by object first: the same quads, another order.
          if (!s && p && !o) expect(mine.sort()).toEqual(theirs.sort());
          else expect(mine).toEqual(theirs);
          expect(index.countQuads(s, p, o, g)).toBe(store.countQuads(s, p, o, g));
          asked++;
        }
  for (const p of predicates)
    for (const o of objects)
      for (const g of graphs) expect(keys(index.getSubjects(p, o, g))).toEqual(keys(store.getSubjects(p, o, g)));
  for (const s of subjects)
    for (const p of predicates)
      for (const g of graphs) {
        const mine = keys(index.getObjects(s, p, g));
        const theirs = keys(store.getObjects(s, p, g));
        if (!s) expect(mine.sort()).toEqual(theirs.sort());
        else expect(mine).toEqual(theirs);
      }
  expect(asked).toBeGreaterThan(100);
}

describe('QuadIndex', () => {
  it('answers as an n3 Store, in its order, over named graphs, literals that differ by language or type, blank nodes and lists', () => {
    expectSameAnswers(new Store(new Parser({ format: 'application/trig' }).parse(TRIG)));
  });

  it('answers as the store of the shipped shapes', async () => {
    const store = (await loadShapes()).dataset;
    const index = new QuadIndex(store.getQuads(null, null, null, null));
    for (const q of store.getQuads(null, null, null, null)) {
      expect(keys(index.getQuads(q.subject, null, null, null))).toEqual(
        keys(store.getQuads(q.subject, null, null, null)),
      );
      expect(keys(index.getObjects(q.subject, q.predicate, null))).toEqual(
        keys(store.getObjects(q.subject, q.predicate, null)),
      );
      expect(keys(index.getSubjects(q.predicate, q.object, null))).toEqual(
        keys(store.getSubjects(q.predicate, q.object, null)),
      );
    }
  });

  it('finds nothing for a term the graph does not hold', () => {
    const store = new Store(new Parser({ format: 'application/trig' }).parse(TRIG));
    const index = new QuadIndex(store.getQuads(null, null, null, null));
    const [q] = new Parser().parse('<http://example.org/none> <http://example.org/p> "c"@fr .');
    expect(index.getQuads(q!.subject, null, null, null)).toEqual([]);
    expect(index.getObjects(null, null, q!.subject)).toEqual([]);
    expect(index.getSubjects(null, q!.object, null)).toEqual([]);
    expect(index.countQuads(null, q!.subject, null, null)).toBe(0);
  });
});
