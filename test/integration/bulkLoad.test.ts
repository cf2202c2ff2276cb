/**
 * `bulkLoad` into the suite's real Virtuoso 7 (globalSetup.ts) through its own
 * bulk loader: shards of the converted sample catalogue (some gzipped) with a
 * manifest, loaded by `rdf_loader_run()` in two sessions, the count equal to
 * the manifest's sum; a shard with a syntax error reported by name while the
 * others are loaded; a cancelled load stopped by `rdf_load_stop()` and
 * loaded whole by the next run; files outside `DirsAllowed` refused naming
 * the setting.
 *
 * The server reads the files itself, so they are written inside the
 * instance's own folder, which scripts/virtuoso.sh lists in `DirsAllowed`
 * (`DirsAllowed = ., $dir`). Its SQL port is in `$dir/ports` (`SQL_PORT=`);
 * the dba password of the private instance is `dba`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { VirtuosoIsql } from '../../src/store/VirtuosoIsql.js';
import { loadListOf } from '../../src/store/virtuosoBulkSteps.js';
import { bulkLoad, type BulkLoadOptions } from '../../src/tasks/bulkLoad.js';
import { ROOT, needTools, runCli, withVirtuoso, type VirtuosoServer } from './helpers.js';

const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const GRAPH = 'https://w3id.org/scholarly-rdf/graph/it-bulk';

/** The SQL port of the suite's instance, from the `ports` file scripts/virtuoso.sh writes in its folder. */
function sqlPort(dir: string): number {
  const m = /^SQL_PORT=(\d+)$/m.exec(readFileSync(join(dir, 'ports'), 'utf8'));
  if (!m) throw new Error(`no SQL_PORT in ${dir}/ports`);
  return Number(m[1]);
}

/** The number a `SELECT (COUNT(*) AS ?n)` query answers over the SPARQL protocol. */
async function sparqlCount(v: VirtuosoServer, graph: string, pattern = '?s ?p ?o'): Promise<number> {
  const url = new URL(v.sparql);
  url.searchParams.set('query', `SELECT (COUNT(*) AS ?n) FROM <${graph}> WHERE { ${pattern} }`);
  const res = await fetch(url, { headers: { accept: 'application/sparql-results+json' } });
  const json = (await res.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(json.results.bindings[0]!.n.value);
}

/** A dump cut into shards: their files, lines, and a manifest of the shape `export --shard-records` writes. */
interface Shards {
  files: string[];
  lines: string[][];
  manifest: string;
}

/**
 * The converted sample catalogue cut into `n` shards by lines, every second
 * one gzipped, with a manifest. Its distinct triples only: a dump repeats the
 * triples of shared entities (a journal, a person) in every record naming
 * them, and a graph holds each once, so the count equals the sum of the
 * manifest's `triples` only for a dump without repeats.
 */
function makeShards(dir: string, dump: string, n: number, name: string): Shards {
  const lines = [
    ...new Set(
      readFileSync(dump, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    ),
  ];
  const size = Math.ceil(lines.length / n);
  const shards = Array.from({ length: n }, (_, i) => lines.slice(i * size, (i + 1) * size));
  const entries = shards.map((shard, i) => {
    const text = Buffer.from(`${shard.join('\n')}\n`);
    const gz = i % 2 === 1;
    const file = `${name}.${String(i + 1).padStart(5, '0')}.nt${gz ? '.gz' : ''}`;
    const bytes = gz ? gzipSync(text) : text;
    writeFileSync(join(dir, file), bytes);
    return { file, records: 0, triples: shard.length, bytes: bytes.length, sha256: '-' };
  });
  const manifest = join(dir, `${name}.manifest.json`);
  writeFileSync(manifest, JSON.stringify({ shards: entries, records: 0, triples: lines.length }));
  return { files: entries.map((e) => join(dir, e.file)), lines: shards, manifest };
}

describe.runIf(needTools('virtuoso'))('bulkLoad into the real Virtuoso (rdf_loader_run)', () => {
  let v: VirtuosoServer;
  let work: string;
  let dump: string;
  let base: Pick<BulkLoadOptions, 'port' | 'password' | 'jobs' | 'pollMs'>;

  beforeAll(async () => {
    v = withVirtuoso();
    if (!v.dir) throw new Error("the suite's Virtuoso has no folder");
    work = mkdtempSync(join(v.dir, 'bulk-it-'));
    dump = join(work, 'sample.nt');
    const r = await runCli(['convert', CATALOGUE, '-o', dump, '--quiet']);
    expect(r.exitCode, r.stderr).toBe(0);
    base = { port: sqlPort(v.dir), password: 'dba', jobs: 2, pollMs: 100 };
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("loads the shards (gzipped ones too) in two jobs; the count equals the manifest's sum", async () => {
    const shards = makeShards(work, dump, 4, 'ok');
    const progress: number[] = [];
    const summary = await bulkLoad({
      ...base,
      graph: GRAPH,
      manifest: shards.manifest,
      replace: true,
      onProgress: (p) => progress.push(p.filesLoaded),
    });
    const sum = shards.lines.reduce((n, s) => n + s.length, 0);
    expect(summary).toMatchObject({
      loadedFiles: 4,
      failedFiles: 0,
      countBefore: 0,
      count: sum,
      expected: { min: sum, max: sum },
    });
    expect(progress.at(-1)).toBe(4);
    // Seen over the SPARQL protocol too, after the checkpoint.
    expect(await sparqlCount(v, GRAPH)).toBe(sum);
  });

  it('loads the shards and manifest `convert --shard-records` writes: the count, repeats of shared entities counted once, is exactly the distinct triples of the files', async () => {
    const r = await runCli(['convert', CATALOGUE, '-o', join(work, 'real.nt.gz'), '--shard-records', '80', '--quiet']);
    expect(r.exitCode, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, 'real.manifest.json'), 'utf8')) as {
      totals: { triples: number; sharedTriples: number };
    };
    const distinct = new Set(
      readFileSync(dump, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    ).size;
    // The dump repeats triples of shared entities: a check of the sum alone would fail.
    expect(manifest.totals.triples).toBeGreaterThan(distinct);
    const graph = `${GRAPH}-real`;
    const summary = await bulkLoad({ ...base, graph, manifest: join(work, 'real.manifest.json'), replace: true });
    // The files read by the loader: their distinct triples, exactly (issue 32), not the manifest's range.
    expect(summary).toMatchObject({
      loadedFiles: 4,
      failedFiles: 0,
      count: distinct,
      distinctTriples: distinct,
      expected: { min: distinct, max: distinct, exact: true },
    });
  });

  it('a shard with a syntax error is reported by name; the other shards are loaded', async () => {
    const shards = makeShards(work, dump, 4, 'broken');
    const bad = shards.files[2]!;
    const badLines = [...shards.lines[2]!];
    badLines.splice(Math.floor(badLines.length / 2), 0, '<https://ex.org/broken> this is not N-Triples .');
    writeFileSync(bad, `${badLines.join('\n')}\n`);
    const graph = `${GRAPH}-broken`;
    const err = await bulkLoad({ ...base, graph, files: shards.files, replace: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolkitError);
    const e = err as ToolkitError;
    expect(e.code).toBe('parse');
    expect(e.message).toContain(`1 of 4 files were not loaded into <${graph}>`);
    expect(e.message).toMatch(new RegExp(`${basename(bad).replace(/\./g, '\\.')}: .*syntax error`));
    const summary = e.details['summary'] as { files: { file: string; state: string }[]; count: number };
    expect(summary.files.map((f) => f.state)).toEqual(['loaded', 'loaded', 'failed', 'loaded']);
    // Every triple of the other shards is there (Virtuoso may keep the broken shard's triples before its error).
    const others = [0, 1, 3].reduce((n, i) => n + shards.lines[i]!.length, 0);
    expect(summary.count).toBeGreaterThanOrEqual(others);
    expect(summary.count).toBeLessThan(others + shards.lines[2]!.length);
    for (const i of [0, 1, 3]) {
      for (const line of [shards.lines[i]![0]!, shards.lines[i]!.at(-1)!])
        expect(await sparqlCount(v, graph, line.replace(/\s*\.\s*$/, ''))).toBe(1);
    }
  });

  it('a cancelled load stops its loaders and leaves none of its files waiting; the next load loads them all', async () => {
    const shards = makeShards(work, dump, 12, 'cancel');
    const graph = `${GRAPH}-cancel`;
    const controller = new AbortController();
    const err = await bulkLoad({
      ...base,
      jobs: 1,
      pollMs: 20,
      graph,
      files: shards.files,
      replace: true,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'aborted' });
    const isql = await VirtuosoIsql.open({ port: base.port!, password: 'dba' });
    try {
      const rows = (await loadListOf(isql, graph)).filter((r) => shards.files.includes(r.file));
      expect(rows.filter((r) => r.state !== 2)).toEqual([]);
    } finally {
      await isql.close();
    }
    const summary = await bulkLoad({ ...base, graph, files: shards.files });
    expect(summary.loadedFiles).toBe(12);
    expect(summary.count).toBe(shards.lines.reduce((n, s) => n + s.length, 0));
  });

  it('files the server may not read: io naming DirsAllowed and the folder', async () => {
    const shards = makeShards(work, dump, 1, 'denied');
    const err = await bulkLoad({
      ...base,
      graph: `${GRAPH}-denied`,
      files: shards.files,
      serverDir: '/etc/scholarly-rdf-dumps',
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'io',
      message: expect.stringContaining(
        'Virtuoso may not read the files in /etc/scholarly-rdf-dumps: add that folder to DirsAllowed',
      ),
    });
    expect((err as ToolkitError).message).toContain(v.dir!);
  });
});
