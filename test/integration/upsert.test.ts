/**
 * `upsertDump` into a real Virtuoso 7 and a real Fuseki 5.6 (its TDB2 dataset) (issue 22, item 4, acceptance): a full state A of 30 records of the
 * sample catalogue converted with --graph-per-record and upserted into an empty store (the first load of
 * record graphs), then a state B where 3 records changed (an author removed, a title corrected, a record
 * added) and a delta of just those 3 records upserted: the store's record graphs then equal a fresh load
 * of B into another set of graphs, quad for quad (as Virtuoso gives them back). The same with the delta's
 * upsert interrupted (abort) after its first batch and resumed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upsertDump, type UpsertDumpOptions } from '../../src/tasks/upsertDump.js';
import { ROOT, storesToTest, runCli, type StoreTarget } from './helpers.js';

const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const work = mkdtempSync(join(tmpdir(), 'scholarly-upsert-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Json = Record<string, unknown> & { doi: string; title: string; creators: { creator: string }[] };
const all = readFileSync(CATALOGUE, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Json);

/** State A (30 records) and state B: record 0 loses its last author, record 1's title is corrected, record 30 is new. */
function states(): { a: Json[]; b: Json[]; changed: Json[] } {
  const a = all.slice(0, 30);
  const b = a.map((r) => structuredClone(r));
  b[0]!.creators = b[0]!.creators.slice(0, -1);
  b[1]!.title = `${b[1]!.title} (corrected)`;
  b.push(structuredClone(all[30]!));
  return { a, b, changed: [b[0]!, b[1]!, b[30]!] };
}

/** The records converted to N-Quads with a graph per record, under `base`. */
async function convert(name: string, records: Json[], base: string): Promise<string> {
  const input = join(work, `${name}.jsonl`);
  const output = join(work, `${name}.nq`);
  writeFileSync(input, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const r = await runCli(['convert', '--graph-per-record', '--base', base, '--quiet', '-o', output, input]);
  expect(r.exitCode, r.stderr).toBe(0);
  return output;
}

/** Every quad of the graphs under `<prefix>record/`, as sorted text, the graph's prefix written as `G:`. */
async function recordQuads(v: StoreTarget, prefix: string): Promise<string[]> {
  const query = `SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${prefix}record/")) }`;
  const res = await fetch(v.query, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query }),
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as {
    results: { bindings: Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>[] };
  };
  const term = (t: { type: string; value: string; datatype?: string; 'xml:lang'?: string }) =>
    `${t.type}|${t.value}|${t['xml:lang'] ?? ''}|${t.datatype ?? ''}`;
  return json.results.bindings
    .map((b) => `G:${b['g']!.value.slice(prefix.length)} ${term(b['s']!)} ${term(b['p']!)} ${term(b['o']!)}`)
    .sort();
}

/** A dump with its record graphs moved under `<base>fresh/` (the graph term only: the triples are the same). */
function freshCopy(file: string, base: string): string {
  const out = file.replace(/\.nq$/, '.fresh.nq');
  writeFileSync(out, readFileSync(file, 'utf8').replaceAll(` <${base}record/`, ` <${base}fresh/record/`));
  return out;
}

describe.each(storesToTest())('upsert of a delta dump into $name', ({ tool, target }) => {
  const options = (v: StoreTarget, files: string[], more: Partial<UpsertDumpOptions> = {}): UpsertDumpOptions => ({
    files,
    endpoint: v.endpoint,
    store: v.store,
    cwd: work,
    ...more,
  });

  async function scenario(interrupt: boolean, method: 'put' | 'update' = 'put'): Promise<void> {
    const v = target();
    const base = `http://it.example/upsert-${randomBytes(4).toString('hex')}/`;
    const { a, b, changed } = states();
    const full = await convert(`a-${tool}-${interrupt}-${method}`, a, base);
    const first = await upsertDump(options(v, [full], { base }));
    expect(first).toMatchObject({ graphs: 30, batchesSkipped: 0, counted: true });
    const delta = await convert(`delta-${tool}-${interrupt}-${method}`, changed, base);
    const before = await recordQuads(v, base);
    if (interrupt) {
      const controller = new AbortController();
      const stopped = await upsertDump(
        options(v, [delta], {
          base,
          batchGraphs: 1,
          signal: controller.signal,
          onBatch: (e) => e.batch === 1 && controller.abort(),
        }),
      ).catch((e: unknown) => e);
      expect(stopped).toMatchObject({ code: 'aborted' });
      const resumed = await upsertDump(options(v, [delta], { base, batchGraphs: 1, resume: true }));
      expect(resumed).toMatchObject({ graphs: 3, batches: 3, batchesSkipped: 1, graphsReplaced: 2, counted: true });
    } else {
      // Virtuoso refuses an INSERT DATA of more than a few record graphs ("generated SQL text has exceeded 10000 lines").
      const summary = await upsertDump(
        options(v, [delta], { base, method, batchGraphs: method === 'update' ? 2 : 200 }),
      );
      expect(summary).toMatchObject(
        method === 'put'
          ? { graphs: 3, batches: 1, requests: 3, countRequests: 1 }
          : { graphs: 3, batches: 2, requests: 2, countRequests: 2 },
      );
    }
    // A fresh load of the whole of B, into graphs of another name.
    await upsertDump(
      options(v, [freshCopy(await convert(`b-${tool}-${interrupt}-${method}`, b, base), base)], {
        base: `${base}fresh/`,
      }),
    );
    const after = await recordQuads(v, base);
    const fresh = await recordQuads(v, `${base}fresh/`);
    expect(after.length).toBe(fresh.length);
    expect(after).toEqual(fresh);
    // The changes are there: the removed author, the corrected title, the new record; the others unchanged.
    const removed = a[0]!.creators.at(-1)!.creator;
    expect(before.some((q) => q.includes(removed))).toBe(true);
    expect(after.some((q) => q.includes(removed))).toBe(false);
    expect(after.some((q) => q.includes(`${b[1]!.title}`))).toBe(true);
    expect(after.some((q) => q.startsWith(`G:record/${b[30]!.doi} `))).toBe(true);
    const untouched = (quads: string[]) => quads.filter((q) => q.startsWith(`G:record/${a[5]!.doi} `));
    expect(untouched(after)).toEqual(untouched(before));
    expect(untouched(after).length).toBeGreaterThan(10);
  }

  it('makes the store equal a fresh load of the new state', async () => {
    await scenario(false);
  });

  it('makes the store equal a fresh load of the new state by SPARQL Update (DROP SILENT GRAPH + INSERT DATA)', async () => {
    await scenario(false, 'update');
  });

  it('resumed after an interruption, ends with the same store', async () => {
    await scenario(true);
  });
});
