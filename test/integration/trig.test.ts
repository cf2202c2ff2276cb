/**
 * TriG, the format added through the table of formats: a dump in TriG holds the same quads, graph names
 * included, as the N-Quads of the same input, as three parsers that are not ours read it: Apache Jena 5.6's
 * riot (`--validate` first: no error, no warning), rapper (`-i trig`) and Python rdflib.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, needTools, rapperNQuads, rdflibNQuads, riot5NQuads, runCli } from './helpers.js';

const FIXTURES = resolve(ROOT, 'test/fixtures/service');
const work = mkdtempSync(join(tmpdir(), 'scholarly-trig-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The distinct quads of an N-Quads text (a dump repeats the triples of shared entities in each record graph). */
function quadsOf(nquads: string): RDF.Quad[] {
  const quads = new Parser({ format: 'application/n-quads', factory: DataFactory }).parse(nquads) as RDF.Quad[];
  const unique = new Map<string, RDF.Quad>();
  for (const q of quads)
    unique.set(
      `${q.subject.value} ${q.predicate.value} ${q.object.termType}${q.object.value} ${(q.object as RDF.Literal).language ?? ''} ${(q.object as RDF.Literal).datatype?.value ?? ''} ${q.graph.value}`,
      q,
    );
  return [...unique.values()];
}

/** The first 80 records of the bundled sample and two real responses, as one input of records. */
function input(): string {
  const path = join(work, 'records.jsonl');
  const sample = readFileSync(resolve(ROOT, 'data/sample-catalogue.jsonl'), 'utf8').trim().split('\n').slice(0, 80);
  const real = [
    'metadata-json-article-metabolomics-2017.json',
    'metadata-json-2023-record-only-computational-visual-media.json',
  ].map((f) => JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, f), 'utf8'))));
  writeFileSync(path, `${[...sample, ...real].join('\n')}\n`);
  return path;
}

describe.runIf(needTools('jena5', 'rapper', 'rdflib'))('TriG dumps judged by Jena 5.6 riot, rapper and rdflib', () => {
  const records = input();

  for (const [name, flags] of [
    ['a graph per record', ['--graph-per-record']],
    ['one named graph for all records', ['--graph', 'https://example.org/graph/all']],
    ['the default graph', []],
  ] as const) {
    it(`${name}: the TriG dump holds the N-Quads dump's quads, for each judge`, async () => {
      const slug = name.replace(/\W+/g, '-');
      const trig = join(work, `${slug}.trig`);
      const nq = join(work, `${slug}.nq`);
      for (const out of [trig, nq]) {
        const r = await runCli(['convert', records, ...flags, '-o', out]);
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const reference = quadsOf(readFileSync(nq, 'utf8'));
      expect(reference.length).toBeGreaterThan(5000);
      const graphs = new Set(reference.map((q) => q.graph.value));
      expect(graphs.size).toBe(name === 'a graph per record' ? 82 : 1); // 80 sample records and 2 real ones
      for (const [judge, read] of [
        ['Jena 5.6 riot', () => riot5NQuads(trig)],
        ['rapper', () => rapperNQuads(trig, 'trig')],
        ['rdflib', () => rdflibNQuads(trig, 'trig')],
      ] as const) {
        const got = quadsOf(await read());
        expect(got.length, `${judge}: quad count`).toBe(reference.length);
        expect(isomorphic(got, reference), `${judge} reads the TriG dump as the N-Quads dump's quads`).toBe(true);
      }
    });
  }

  it('a TriG dump read back by convert (streaming, any graph kept) is the N-Quads dump again', async () => {
    const trig = join(work, 'back.trig');
    const nq = join(work, 'back.nq');
    expect((await runCli(['convert', records, '--graph-per-record', '-o', trig])).exitCode).toBe(0);
    expect((await runCli(['convert', records, '--graph-per-record', '-o', nq])).exitCode).toBe(0);
    const back = await runCli(['convert', trig, '-f', 'nquads']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(isomorphic(quadsOf(back.stdout), quadsOf(readFileSync(nq, 'utf8')))).toBe(true);
  });
});
