/**
 * `load --bulk` and `load --upsert` through the built binary (`npm run build`) into the suite's real
 * Virtuoso 7 (globalSetup.ts): the sharded sample catalogue bulk-loaded from its manifest over isql (the
 * host taken from --endpoint), the count equal to the distinct triples and in the manifest's range; a
 * delta of record graphs upserted, the store then holding the new state of the changed records.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, needTools, runBin, withVirtuoso, type VirtuosoServer } from './helpers.js';

const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');

/** Runs the built binary in `cwd` (where the default load logs go). */
const bin = runBin;

/** A SPARQL SELECT of one number `?n` over the protocol. */
async function sparqlNumber(v: VirtuosoServer, query: string): Promise<number> {
  const res = await fetch(v.sparql, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query }),
  });
  const json = (await res.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(json.results.bindings[0]!.n.value);
}

describe.runIf(needTools('virtuoso'))('load --bulk and load --upsert through the binary, into Virtuoso', () => {
  let v: VirtuosoServer;
  let work: string;
  beforeAll(() => {
    ensureBuilt();
    v = withVirtuoso();
    if (!v.dir) throw new Error("the suite's Virtuoso has no folder");
    // Inside the instance's folder: scripts/virtuoso.sh lists it in DirsAllowed, so the server may read the shards.
    work = mkdtempSync(join(v.dir, 'load-modes-it-'));
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("--bulk --manifest: the shards loaded by rdf_loader_run(), the count in the manifest's range, --json on stdout", async () => {
    const converted = await bin(work, [
      'convert',
      CATALOGUE,
      '-o',
      join(work, 'bulk.nt.gz'),
      '--shard-records',
      '100',
      '--quiet',
    ]);
    expect(converted.code, converted.stderr).toBe(0);
    const sqlPort = Number(/^SQL_PORT=(\d+)$/m.exec(readFileSync(join(v.dir!, 'ports'), 'utf8'))![1]);
    const graph = `https://w3id.org/scholarly-rdf/graph/it-load-bulk-${randomBytes(4).toString('hex')}`;
    const r = await bin(
      work,
      [
        'load',
        '--bulk',
        '--store',
        'virtuoso',
        '--endpoint',
        v.baseUrl,
        '--isql-port',
        String(sqlPort),
        '--graph',
        graph,
        '--manifest',
        join(work, 'bulk.manifest.json'),
        '--replace',
        '--json',
      ],
      { SCHOLARLY_STORE_PASSWORD: 'dba' },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      mode: string;
      loadedFiles: number;
      failedFiles: number;
      count: number;
      countOk: boolean;
    };
    expect(summary).toMatchObject({ mode: 'bulk', loadedFiles: 3, failedFiles: 0, countOk: true });
    expect(summary.count).toBe(await sparqlNumber(v, `SELECT (COUNT(*) AS ?n) FROM <${graph}> WHERE { ?s ?p ?o }`));
    expect(summary.count).toBeGreaterThan(1000);
    expect(r.stderr).toMatch(/files: +3 of 3 loaded/);
  });

  it('--upsert: a delta replaces the record graphs it holds (an author removed is gone), the others stay', async () => {
    const base = `http://it.example/load-upsert-${randomBytes(4).toString('hex')}/`;
    const records = readFileSync(CATALOGUE, 'utf8')
      .trim()
      .split('\n')
      .slice(0, 10)
      .map((l) => JSON.parse(l) as { creators: { creator: string }[] });
    const changed = structuredClone(records[0]!);
    const removed = changed.creators.pop()!.creator;
    const dump = async (name: string, rs: unknown[]) => {
      writeFileSync(join(work, `${name}.jsonl`), `${rs.map((x) => JSON.stringify(x)).join('\n')}\n`);
      const c = await bin(work, [
        'convert',
        join(work, `${name}.jsonl`),
        '--graph-per-record',
        '--base',
        base,
        '--quiet',
        '-o',
        join(work, `${name}.nq`),
      ]);
      expect(c.code, c.stderr).toBe(0);
      return join(work, `${name}.nq`);
    };
    const upsert = (file: string) =>
      bin(
        work,
        ['load', '--upsert', file, '--store', 'virtuoso', '--endpoint', v.baseUrl, '--base', base, '--json', '--quiet'],
        {},
      );
    const first = await upsert(await dump('full', records));
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout.trim())).toMatchObject({
      mode: 'upsert',
      graphs: 10,
      counted: true,
      statePath: expect.stringContaining(work),
    });
    const withAuthor = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${base}record/") && CONTAINS(STR(?o), ${JSON.stringify(removed)})) }`;
    const before = await sparqlNumber(v, withAuthor);
    expect(before).toBeGreaterThan(0);
    const delta = await upsert(await dump('delta', [changed]));
    expect(delta.code, delta.stderr).toBe(0);
    expect(JSON.parse(delta.stdout.trim())).toMatchObject({ mode: 'upsert', graphs: 1, batches: 1, counted: true });
    expect(await sparqlNumber(v, withAuthor)).toBeLessThan(before);
    const graphs = `SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${base}record/")) }`;
    expect(await sparqlNumber(v, graphs)).toBe(10);
  });
});
