// The count of statements about shared entities, and of the distinct ones, asks whether a subject is shared once
// a subject term and never of the nodes the mapper marks as a record's own: the counts must be those of keying
// every statement (sharedTripleKeys), and the distinct count the size of the set of the statements' text, whatever
// order, repeats, returns of a subject or blank nodes the records bring.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DistinctSharedStatements } from '../../src/mapping/DistinctSharedStatements.js';
import { isSharedEntityIri } from '../../src/mapping/entityIris.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { RecordTriples } from '../../src/mapping/RecordTriples.js';
import { SharedSubjects, isOwnNode, isSharedTriple, sharedTripleKeys } from '../../src/mapping/sharedTriples.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { dataFactory } from '../../src/rdf/dataFactory.js';

const BASE = 'https://w3id.org/scholarly-rdf/';

/** A fixed pseudo-random sequence: every run checks the same records. */
function sequence(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

/** The text of a statement, each term told apart as termsKey tells them. */
function text(q: RDF.Quad): string {
  const o = q.object;
  const tag = o.termType === 'Literal' ? `${o.language}|${o.datatype.value}` : o.termType;
  return `${q.subject.value} ${q.predicate.value} ${o.value} ${tag}`;
}

/**
 * Records naming a few shared subjects (journals, a publisher, a person, an ISSN) and nodes of their own. A shared
 * subject's run is mostly the one it had before, else that run changed in one place: a statement with another
 * language tag, datatype, value, predicate or object kind, one more, one fewer, one with a blank node.
 */
function records(f: RDF.DataFactory, seed: number, count: number): RDF.Quad[][] {
  const next = sequence(seed);
  const subjects = [
    ...Array.from({ length: 6 }, (_, i) => `${BASE}journal/${i}`),
    `${BASE}publisher/springer`,
    'https://orcid.org/0000-0002-8765-4634',
    `${BASE}issn/1573-7721`,
  ];
  const predicates = ['http://schema.org/name', 'http://schema.org/issn', 'http://www.w3.org/2002/07/owl#sameAs'];
  const token = 'http://www.w3.org/2001/XMLSchema#token';
  type Spec = [predicate: number, value: string, kind: number];
  const object = ([, value, kind]: Spec): RDF.Quad_Object =>
    kind === 0
      ? f.namedNode(value)
      : kind === 1
        ? f.literal(value, 'en')
        : kind === 2
          ? f.literal(value, 'de')
          : kind === 3
            ? f.literal(value, f.namedNode(token))
            : kind === 4
              ? f.blankNode(value)
              : f.literal(value);
  const spec = (): Spec => [next(3), `urn:v${next(100_000)}`, next(6)];
  const last = new Map<string, Spec[]>();
  const out: RDF.Quad[][] = [];
  for (let r = 0; r < count; r++) {
    const quads: RDF.Quad[] = [];
    for (let run = 1 + next(5); run > 0; run--) {
      if (next(4) === 0) {
        const own = f.namedNode(`${BASE}doi/10.1/${r}#a`);
        quads.push(f.quad(own, f.namedNode(predicates[0]!), f.literal('own')));
        continue;
      }
      const iri = subjects[next(subjects.length)]!;
      const specs = [...(last.get(iri) ?? Array.from({ length: 1 + next(5) }, spec))];
      const at = next(specs.length + 1);
      const change = next(10);
      if (change === 1 && at < specs.length) specs[at] = [specs[at]![0], specs[at]![1], next(6)];
      if (change === 2 && at < specs.length) specs[at] = [specs[at]![0], `urn:v${next(100_000)}`, specs[at]![2]];
      if (change === 3 && at < specs.length) specs[at] = [next(3), specs[at]![1], specs[at]![2]];
      if (change === 4) specs.splice(at, 0, spec());
      if (change === 5 && specs.length > 1) specs.splice(at, 1);
      last.set(iri, specs);
      const subject = f.namedNode(iri);
      for (const s of specs) quads.push(f.quad(subject, f.namedNode(predicates[s[0]]!), object(s)));
    }
    out.push(quads);
  }
  return out;
}

describe('DistinctSharedStatements', () => {
  for (const [name, f] of [
    ['the toolkit’s factory', dataFactory],
    ['n3’s', DataFactory],
  ] as const)
    it(`counts as keying every statement does, and the distinct ones as a set of their text (${name})`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const counter = new DistinctSharedStatements();
        const texts = new Set<string>();
        const keys = new Set<number>();
        let shared = 0;
        for (const quads of records(f as RDF.DataFactory, seed, 3000)) {
          counter.add(quads);
          for (const q of quads)
            if (isSharedTriple(q)) {
              shared++;
              texts.add(text(q));
            }
          for (const key of sharedTripleKeys(quads)) keys.add(key);
        }
        expect(counter.count).toBe(shared);
        expect(counter.distinct).toBe(texts.size);
        expect(counter.distinct).toBe(keys.size);
        expect(counter.distinct).toBeLessThan(shared);
      }
    });

  it('the nodes the mapper marks as a record’s own are no shared entities by their IRIs: the counts are the same', () => {
    const lines = readFileSync('data/sample-catalogue.jsonl', 'utf8').trim().split('\n');
    const raws = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // a DOI with a shared entity's segment in it: its work's IRI reads as one (`https://doi.org/10.1000/journal/1`)
    raws.push({ ...raws[0], doi: '10.1000/journal/1', identifier: 'doi:10.1000/journal/1' });
    const counter = new DistinctSharedStatements();
    let own = 0;
    let shared = 0;
    const texts = new Set<string>();
    for (const [i, raw] of raws.entries()) {
      const { quads } = mapRecord(normalizeRecord(raw, { recordLabel: `sample#${i}` }), { recordLabel: `sample#${i}` });
      for (const q of quads) {
        if (isOwnNode(q.subject)) {
          own++;
          expect(isSharedEntityIri(q.subject.value), q.subject.value).toBe(false);
        }
        if (isSharedTriple(q)) {
          shared++;
          texts.add(text(q));
        }
      }
      counter.add(quads);
    }
    expect(own).toBeGreaterThan(raws.length * 3); // authors, authorships, list cells, files
    expect([counter.count, counter.distinct]).toEqual([shared, texts.size]);
  });

  it('SharedSubjects: each subject term answered as its IRI says, whatever came between (own nodes, other terms, new terms of one IRI)', () => {
    const f = dataFactory;
    const work = f.namedNode('https://doi.org/10.1000/journal/1'); // reads as shared: its IRI has a /journal/ segment
    const journal = f.namedNode(`${BASE}journal/381`);
    const publisher = f.namedNode(`${BASE}publisher/springer`);
    const other = f.namedNode('https://doi.org/10.1000/x');
    const own = new RecordTriples(f, 'http://schema.org/', undefined, [], true).ownIri(`${BASE}doi/10.1000/x#author-a`);
    const sequence = [
      work,
      own,
      journal,
      work,
      own,
      publisher,
      other,
      work,
      journal,
      f.namedNode(journal.value),
      other,
    ];
    const subjects = new SharedSubjects();
    for (const term of sequence)
      expect(subjects.of(term), term.value).toBe(
        isSharedEntityIri(term.value) && !isOwnNode(term) ? term.value : undefined,
      );
    expect(isOwnNode(own)).toBe(true);
  });

  it('counts keys a worker made as they are', () => {
    const counter = new DistinctSharedStatements();
    counter.addKeys([1, 2, 2, 3]);
    counter.addKeys([3]);
    expect([counter.count, counter.distinct]).toEqual([5, 3]);
  });
});
