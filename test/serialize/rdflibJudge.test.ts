/**
 * rdflib.js as an independent judge: the RDF/XML and JSON-LD the writers
 * make for the bundled sample are read by rdflib.js (its own parsers, not the
 * project's) and must give the same triples as the N-Triples of the same
 * records read by n3. (Turtle is judged by n3, Jena and rapper elsewhere:
 * rdflib.js's Turtle parser refuses list cells that are IRIs — "Bad list
 * element node" — which RDF allows and the author lists use.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as $rdf from 'rdflib';
import { describe, expect, it } from 'vitest';
import { mapItem } from '../../src/pipeline/mapItem.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { parseNTriples } from '../helpers/rdf.js';

const ROOT = join(import.meta.dirname, '..', '..');
const records = readFileSync(join(ROOT, 'data/sample-catalogue.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .slice(0, 60)
  .map((l) => JSON.parse(l) as unknown);
const groups = records.map((raw, i) => {
  const outcome = mapItem({ kind: 'record', raw, source: 'sample', index: i + 1 });
  if (outcome.kind !== 'mapped') throw new Error(outcome.rejection.reason);
  return outcome.mapped.quads;
});
const write = (format: 'ntriples' | 'rdfxml' | 'jsonld') => {
  const w = serializerFor(format).createWriter();
  return w.start() + groups.map((g) => w.write(g)).join('') + w.end();
};

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
type Term = { termType: string; value: string; language?: string; datatype?: { value: string } };
const key = (s: Term, p: Term, o: Term) => {
  const object =
    o.termType === 'Literal'
      ? `"${o.value}"@${(o.language ?? '').toLowerCase()}^^${o.language ? LANG_STRING : (o.datatype?.value ?? XSD_STRING)}`
      : `<${o.value}>`;
  return `<${s.value}> <${p.value}> ${object}`;
};

/** The distinct triples rdflib.js reads from a text. */
function readByRdflib(text: string, mediaType: string): Promise<Set<string>> {
  const store = $rdf.graph();
  return new Promise((resolve, reject) => {
    $rdf.parse(text, store, 'https://example.org/base', mediaType, (err) => {
      if (err) reject(err);
      else
        resolve(
          new Set(store.statements.map((st) => key(st.subject as Term, st.predicate as Term, st.object as Term))),
        );
    });
  });
}

describe('rdflib.js reads what the writers write as the same graph', () => {
  const expected = new Set(parseNTriples(write('ntriples')).map((q) => key(q.subject, q.predicate, q.object)));

  it('has a graph to compare (60 records, thousands of triples)', () => {
    expect(expected.size).toBeGreaterThan(2000);
  });

  for (const [format, mediaType] of [
    ['rdfxml', 'application/rdf+xml'],
    ['jsonld', 'application/ld+json'],
  ] as const) {
    it(`${format}`, async () => {
      const got = await readByRdflib(write(format), mediaType);
      expect([...got].filter((t) => !expected.has(t)).slice(0, 5)).toEqual([]);
      expect([...expected].filter((t) => !got.has(t)).slice(0, 5)).toEqual([]);
    });
  }
});
