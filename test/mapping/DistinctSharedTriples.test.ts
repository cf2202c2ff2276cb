import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DistinctSharedTriples } from '../../src/mapping/DistinctSharedTriples.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { sharedTripleKeys } from '../../src/mapping/sharedTriples.js';
import { dataFactory as f } from '../../src/rdf/dataFactory.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';

const records = readFileSync('data/sample-catalogue.jsonl', 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line, i) => mapRecord(normalizeRecord(JSON.parse(line), { recordLabel: `#${i}` })));

/** What the keys of every record's shared statements say: how many there are, and how many distinct. */
function byKeys(groups: readonly (readonly import('@rdfjs/types').Quad[])[]): { count: number; distinct: number } {
  const keys = groups.flatMap((quads) => sharedTripleKeys(quads));
  return { count: keys.length, distinct: new Set(keys).size };
}

describe('DistinctSharedTriples', () => {
  it('counts the statements about shared entities of records, and the distinct ones, as their keys do', () => {
    const groups = [...records, ...records].map((r) => r.quads);
    const counter = new DistinctSharedTriples();
    for (const quads of groups) counter.addQuads(quads);
    const expected = byKeys(groups);
    expect(counter.count).toBe(expected.count);
    expect(counter.distinct).toBe(expected.distinct);
    expect(counter.distinct).toBeLessThan(counter.count); // the sample repeats its journals, and twice over
  });

  it('hashes a run that differs from the last one of its subject in one term only (object, literal tag, predicate)', () => {
    const j = f.namedNode('https://w3id.org/scholarly-rdf/journal/1');
    const name = f.namedNode('http://schema.org/name');
    const run = (o: import('@rdfjs/types').Quad_Object, p = name) => [
      f.quad(
        j,
        f.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
        f.namedNode('http://schema.org/Periodical'),
      ),
      f.quad(j, p, o),
    ];
    const groups = [
      run(f.literal('A')),
      run(f.literal('A')),
      run(f.literal('A', 'en')),
      run(f.literal('A', f.namedNode('http://www.w3.org/2001/XMLSchema#token'))),
      run(f.literal('B')),
      run(f.literal('A')),
      run(f.literal('A'), f.namedNode('http://schema.org/alternateName')),
      run(f.blankNode('b1')),
      run(f.blankNode('b1')),
    ];
    const counter = new DistinctSharedTriples();
    for (const quads of groups) counter.addQuads(quads);
    expect({ count: counter.count, distinct: counter.distinct }).toEqual(byKeys(groups));
    expect(counter.distinct).toBe(6);
  });

  it('takes keys made elsewhere (a worker thread’s) into the same count', () => {
    const counter = new DistinctSharedTriples();
    counter.addQuads(records[0]!.quads);
    counter.addKeys(sharedTripleKeys(records[0]!.quads));
    const keys = sharedTripleKeys(records[0]!.quads);
    expect(counter.count).toBe(2 * keys.length);
    expect(counter.distinct).toBe(new Set(keys).size);
  });
});
