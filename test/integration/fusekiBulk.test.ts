/**
 * `load --store fuseki --bulk` through the built binary with Jena 5.6's own `tdb2.tdbloader` (the jars of
 * `$SCHOLARLY_JENA_LIB`, and the same run through scripts named as a Jena distribution's bin/ has them):
 * the sharded sample catalogue and its manifest built into a named graph of a TDB2 database, the count
 * exact (the dump's distinct triples) and in the manifest's range; the database then served by a private
 * Fuseki, which counts the same; a shard Jena cannot read named with Jena's message, nothing committed;
 * the database of a running Fuseki refused with Jena's lock message.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JENA_LIB, ROOT, ensureBuilt, freePort, needTools, runBin, sparqlSelect } from './helpers.js';

const exec = promisify(execFile);
const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const SCRIPT = resolve(ROOT, 'scripts/fuseki.sh');
const GRAPH = 'https://w3id.org/scholarly-rdf/graph/it-tdb-bulk';
const work = mkdtempSync(join(tmpdir(), 'scholarly-tdb-bulk-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the built binary in `work`. */
const bin = (args: readonly string[], env: Record<string, string> = {}) => runBin(work, args, env);

/** The shards of a manifest, their lines. */
function shardLines(manifest: string): string[][] {
  const m = JSON.parse(readFileSync(manifest, 'utf8')) as { shards: { file: string }[] };
  return m.shards.map((s) =>
    gunzipSync(readFileSync(join(work, s.file)))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== ''),
  );
}

describe.runIf(needTools('jena5'))("load --store fuseki --bulk: a TDB2 database built by Jena's tdb2.tdbloader", () => {
  let manifest: string;
  let distinct: number;
  let statements: number;

  beforeAll(async () => {
    ensureBuilt();
    const r = await bin(['convert', CATALOGUE, '-o', join(work, 'dump.nt.gz'), '--shard-records', '100', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    manifest = join(work, 'dump.manifest.json');
    const lines = shardLines(manifest).flat();
    statements = lines.length;
    distinct = new Set(lines).size;
    expect(statements).toBeGreaterThan(distinct);
  });

  it("builds the graph from the manifest's shards (the jars of --tdbloader DIR): the count exact, in the manifest's range; a Fuseki serving the database counts the same", async () => {
    const loc = join(work, 'db');
    const r = await bin([
      'load',
      '--bulk',
      '--store',
      'fuseki',
      '--loc',
      loc,
      '--graph',
      GRAPH,
      '--manifest',
      manifest,
      '--tdbloader',
      JENA_LIB!,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      mode: 'bulk',
      store: 'fuseki',
      files: 3,
      tuples: statements,
      countBefore: 0,
      count: distinct,
      countOk: true,
      expected: { max: statements, exact: false },
    });
    expect(r.stderr).toMatch(
      new RegExp(`count: +${distinct} triples in the graph, \\d+ to ${statements} expected by the manifest \\(ok\\)`),
    );
    // Served by Fuseki (the database is opened by one process at a time: after the load).
    const dir = join(work, 'serve');
    const port = await freePort();
    await exec('bash', [SCRIPT, 'start', dir], {
      env: { ...process.env, FUSEKI_PORT: String(port), FUSEKI_TDB2_LOC: loc, FUSEKI_HEAP: '512m' },
      timeout: 180_000,
    });
    try {
      const [row] = await sparqlSelect(
        `http://127.0.0.1:${port}/tdb/query`,
        `SELECT (COUNT(*) AS ?n) FROM <${GRAPH}> WHERE { ?s ?p ?o }`,
      );
      expect(Number(row!['n'])).toBe(distinct);
      // While Fuseki holds it, another load is refused with Jena's lock message.
      const locked = await bin([
        'load',
        '--bulk',
        '--loc',
        loc,
        '--graph',
        `${GRAPH}-2`,
        '--manifest',
        manifest,
        '--tdbloader',
        JENA_LIB!,
        '--quiet',
      ]);
      expect(locked.code).toBe(4);
      expect(locked.stderr).toMatch(/\[io\].*tdb2\.(tdbquery|tdbloader) failed.*stop it first/s);
    } finally {
      await exec('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 });
    }
  });

  it("with --replace into a database that has the graph: the graph emptied first (tdb2.tdbupdate), the count again exact (scripts named as Jena's bin/ has them)", async () => {
    // A Jena distribution's bin/: tdb2.tdbloader and its neighbours (here each runs the same jars).
    const binDir = join(work, 'apache-jena', 'bin');
    mkdirSync(binDir, { recursive: true });
    for (const tool of ['tdb2.tdbloader', 'tdb2.tdbquery', 'tdb2.tdbupdate']) {
      writeFileSync(join(binDir, tool), `#!/bin/sh\nexec java $JVM_ARGS -cp '${JENA_LIB}/*' ${tool} "$@"\n`);
      chmodSync(join(binDir, tool), 0o755);
    }
    // The database of the first test holds the whole dump in GRAPH; the first shard alone replaces it.
    const loc = join(work, 'db');
    const first = JSON.parse(readFileSync(manifest, 'utf8')).shards[0].file as string;
    const r = await bin([
      'load',
      '--bulk',
      join(work, first),
      '--loc',
      loc,
      '--graph',
      GRAPH,
      '--tdbloader',
      join(binDir, 'tdb2.tdbloader'),
      '--replace',
      '--json',
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const firstDistinct = new Set(shardLines(manifest)[0]).size;
    expect(firstDistinct).toBeLessThan(distinct);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ countBefore: 0, count: firstDistinct });
  });

  it("a shard Jena cannot read: exit 4 naming the shard with Jena's message; nothing of the load committed", async () => {
    const files = ['a.nt', 'b.nt', 'c.nt'].map((f) => join(work, f));
    const lines = shardLines(manifest)[0]!;
    writeFileSync(files[0]!, `${lines.slice(0, 100).join('\n')}\n`);
    writeFileSync(
      files[1]!,
      `${lines.slice(100, 200).join('\n')}\n<https://doi.org/10.1007/x> <http://schema.org/name> "unterminated .\n`,
    );
    writeFileSync(files[2]!, `${lines.slice(200, 300).join('\n')}\n`);
    const loc = join(work, 'db-bad');
    const r = await bin([
      'load',
      '--bulk',
      ...files,
      '--loc',
      loc,
      '--graph',
      GRAPH,
      '--tdbloader',
      JENA_LIB!,
      '--quiet',
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      new RegExp(
        `\\[parse\\]: ${files[1]!.replace(/[.]/g, '\\.')}: Jena's loader could not read it: \\[line: \\d+, col: \\d+ \\].*nothing of this load was committed`,
      ),
    );
    // The graph is empty: the next load of the good file counts nothing before it.
    const count = await bin([
      'load',
      '--bulk',
      files[0]!,
      '--loc',
      loc,
      '--graph',
      GRAPH,
      '--tdbloader',
      JENA_LIB!,
      '--json',
      '--quiet',
    ]);
    expect(count.code, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout.trim())).toMatchObject({ countBefore: 0, count: new Set(lines.slice(0, 100)).size });
  });

  it("refuses what cannot work, naming it: no --loc, --endpoint, flags of Virtuoso's loader, a folder without Jena's jars", async () => {
    const base = ['load', '--bulk', '--graph', GRAPH, '--manifest', manifest];
    expect((await bin(base)).stderr).toContain('--bulk --store fuseki needs --loc DIR');
    expect((await bin([...base, '--loc', 'x', '--endpoint', 'http://127.0.0.1:3030/ds'])).stderr).toContain(
      'leave out --endpoint',
    );
    expect((await bin([...base, '--loc', 'x', '--isql-port', '1111'])).stderr).toContain(
      "--isql-port: flags of Virtuoso's bulk loader",
    );
    expect(
      (await bin([...base, '--store', 'virtuoso', '--tdbloader', 'x', '--endpoint', 'http://127.0.0.1:8890'])).stderr,
    ).toContain("--tdbloader: flags of Jena's tdb2.tdbloader");
    const r = await bin([...base, '--loc', join(work, 'db-none'), '--tdbloader', work]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the folder ${work} holds no jena-cmds-*.jar`);
  });
});
