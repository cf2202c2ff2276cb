/**
 * `load` into a real Virtuoso 7 and a real Fuseki 5.6 (its TDB2 dataset), both started by globalSetup.ts,
 * loopback only:
 * the bundled sample catalogue converted by `convert` and loaded into a named
 * graph over the Graph Store Protocol; the count; a SPARQL query finding a
 * known record by DOI with its pages; replacing the graph; JSON-LD input;
 * authentication (Virtuoso's Digest on its -auth endpoints, Fuseki's Basic on a dataset that allows one
 * user); an interrupted load resumed without resending.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type * as RDF from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { openRdfFile } from '../../src/parse/openRdfFile.js';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { GraphStoreLoader } from '../../src/store/GraphStoreLoader.js';
import { ROOT, freePort, needTools, storesToTest, runCli, sparqlSelect, type StoreTarget } from './helpers.js';

const exec = promisify(execFile);
const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const G = 'https://w3id.org/scholarly-rdf/graph/it-sample';
const work = mkdtempSync(join(tmpdir(), 'scholarly-load-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface SampleRecord {
  doi: string;
  startingPage?: string;
  endingPage?: string;
}

/** Runs a SELECT over the SPARQL protocol (GET) and returns the bindings' values. */
function select(v: StoreTarget, query: string): Promise<Record<string, string>[]> {
  return sparqlSelect(v.query, query);
}

async function count(v: StoreTarget, graph: string): Promise<number> {
  const [row] = await select(v, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
  return Number(row!['n']);
}

/**
 * The statements of an N-Triples file (its lines) and its triples (distinct lines: our dumps have no blank
 * nodes). A dump repeats the triples of shared entities (a journal, a publisher) in every record that names
 * them, and a graph holds each once.
 */
function dumpCounts(file: string): { statements: number; triples: number } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { statements: lines.length, triples: new Set(lines).size };
}

async function* quadsOf(file: string): AsyncGenerator<RDF.Quad> {
  const f = await openRdfFile(file);
  yield* parseRdf(f.input, { format: f.format, source: file });
}

describe.each(storesToTest())('load into $name over the Graph Store Protocol', ({ target }) => {
  let v: StoreTarget;
  let sampleNt: string;
  let triples: number;
  let statements: number;
  let known: SampleRecord;

  beforeAll(async () => {
    v = target();
    sampleNt = join(work, 'sample.nt');
    const converted = await runCli(['convert', CATALOGUE, '-f', 'ntriples', '-o', sampleNt]);
    expect(converted.exitCode, converted.stderr).toBe(0);
    ({ triples, statements } = dumpCounts(sampleNt));
    expect(triples).toBeGreaterThan(1000);
    expect(statements, 'the sample names journals and publishers in many records').toBeGreaterThan(triples);
    const records = readFileSync(CATALOGUE, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SampleRecord);
    known = records.find(
      (r) =>
        /^[0-9a-z./-]+$/i.test(r.doi) &&
        /^[1-9]\d*$/.test(r.startingPage ?? '') &&
        /^\d+$/.test(r.endingPage ?? '') &&
        r.startingPage !== r.endingPage,
    )!;
    expect(known).toBeDefined();
  });

  it('loads the sample dump into a named graph and the count matches', async () => {
    const r = await runCli(
      [
        'load',
        sampleNt,
        '--endpoint',
        v.endpoint,
        '--store',
        v.store,
        '--graph',
        G,
        '--replace',
        '--chunk-triples',
        '2000',
        '--state',
        join(work, 'sample.state.json'),
      ],
      { cwd: work },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    // Exact: the distinct triples sent (a shared entity's triples once), as the store counts them.
    expect(r.stderr).toContain(
      `count:     ${triples} triples in the graph, ${triples} expected (ok): ${triples} distinct triples sent (${statements} statements; shared entities repeat per record)`,
    );
    expect(r.stderr).toMatch(new RegExp(`loaded: +${statements} triples in ${Math.ceil(statements / 2000)} chunks`));
    expect(await count(v, G)).toBe(triples);
  });

  it('finds a known record by its DOI, with its pages', async () => {
    const rows = await select(
      v,
      `PREFIX schema: <http://schema.org/> PREFIX bibo: <http://purl.org/ontology/bibo/>
       SELECT ?work ?start ?end ?bstart ?bend WHERE { GRAPH <${G}> {
         ?work bibo:doi ?doi ; schema:pageStart ?start ; schema:pageEnd ?end ; bibo:pageStart ?bstart ; bibo:pageEnd ?bend .
         FILTER (STR(?doi) = "${known.doi}")
       } }`,
    );
    expect(rows).toEqual([
      {
        work: `https://doi.org/${known.doi}`,
        start: known.startingPage,
        end: known.endingPage,
        bstart: known.startingPage,
        bend: known.endingPage,
      },
    ]);
  });

  it('replaces the graph with --replace (a smaller dump, Turtle input)', async () => {
    const subset = join(work, 'subset.jsonl');
    const lines = readFileSync(CATALOGUE, 'utf8').trim().split('\n');
    writeFileSync(
      subset,
      `${lines
        .filter((l) => !l.includes(`"doi":"${known.doi}"`))
        .slice(0, 20)
        .join('\n')}\n`,
    );
    const subsetTtl = join(work, 'subset.ttl');
    const converted = await runCli(['convert', subset, '-f', 'turtle', '-o', subsetTtl]);
    expect(converted.exitCode, converted.stderr).toBe(0);
    const subsetNt = join(work, 'subset.nt');
    expect((await runCli(['convert', subset, '-f', 'ntriples', '-o', subsetNt])).exitCode).toBe(0);
    const expected = dumpCounts(subsetNt).triples;

    const r = await runCli(
      ['load', subsetTtl, '--endpoint', v.endpoint, '--store', v.store, '--graph', G, '--replace'],
      { cwd: work },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await count(v, G)).toBe(expected);
    const gone = await select(v, `SELECT ?p WHERE { GRAPH <${G}> { <https://doi.org/${known.doi}> ?p ?o } } LIMIT 1`);
    expect(gone).toEqual([]);
  });

  it("loads JSON-LD input (sent as N-Triples: Virtuoso's Graph Store cannot read JSON-LD)", async () => {
    const jsonld = join(work, 'sample.jsonld');
    expect((await runCli(['convert', CATALOGUE, '-f', 'jsonld', '-o', jsonld])).exitCode).toBe(0);
    const graph = `${G}-jsonld`;
    const r = await runCli(
      ['load', jsonld, '--endpoint', v.endpoint, '--store', v.store, '--graph', graph, '--replace'],
      { cwd: work },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await count(v, graph)).toBe(triples);
  });

  it('authenticates as the store asks (Virtuoso: Digest on the -auth endpoints; Fuseki: Basic), and refuses a wrong password', async () => {
    const graph = `${G}-auth`;
    const { auth } = v;
    const ok = await runCli(
      [
        'load',
        sampleNt,
        '--endpoint',
        auth.endpoint,
        '--store',
        v.store,
        '--graph',
        graph,
        '--replace',
        '--state',
        join(work, 'auth.json'),
      ],
      {
        cwd: work,
        env: { SCHOLARLY_STORE_USER: auth.user, SCHOLARLY_STORE_PASSWORD: auth.password },
      },
    );
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(auth.graphStorePath);
    expect(ok.stderr).toMatch(new RegExp(`count: +${triples} triples in the graph`));
    if (auth.endpoint === v.endpoint) expect(await count(v, graph)).toBe(triples);
    const bad = await runCli(
      [
        'load',
        sampleNt,
        '--endpoint',
        auth.endpoint,
        '--store',
        v.store,
        '--graph',
        graph,
        '--user',
        auth.user,
        '--password',
        'not-the-password',
        '--state',
        join(work, 'auth2.json'),
      ],
      { cwd: work },
    );
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toMatch(/\[auth\]/);
    expect(bad.stderr).not.toContain('not-the-password');
  });

  it('resumes an interrupted load after the last acknowledged chunk, sending none twice', async () => {
    const graph = `${G}-resume`;
    const state = join(work, 'resume.json');
    const chunkTriples = 1000;
    const chunks = Math.ceil(statements / chunkTriples);
    const inputs = [{ path: sampleNt, size: 1, mtimeMs: 1 }];
    const controller = new AbortController();
    const first = new GraphStoreLoader({
      endpoint: v.endpoint,
      store: v.store,
      graph,
      replace: true,
      chunkTriples,
      statePath: state,
      inputs,
      signal: controller.signal,
      onChunk: (e) => {
        if (e.chunk === 2) controller.abort(new ToolkitError('interrupted', 'aborted'));
      },
    });
    await expect(first.load(quadsOf(sampleNt))).rejects.toMatchObject({ code: 'aborted' });
    const logged = JSON.parse(readFileSync(state, 'utf8'));
    expect(logged).toMatchObject({ chunksAcked: 2, triplesAcked: 2 * chunkTriples, complete: false, replaced: true });
    expect(await count(v, graph)).toBeLessThan(triples);

    const sent: number[] = [];
    const resumed = await new GraphStoreLoader({
      endpoint: v.endpoint,
      store: v.store,
      graph,
      replace: true,
      chunkTriples,
      statePath: state,
      resume: true,
      inputs,
      onChunk: (e) => sent.push(e.chunk),
    }).load(quadsOf(sampleNt));
    expect(sent).toEqual(Array.from({ length: chunks - 2 }, (_, i) => i + 3)); // chunks 3..n, none of 1-2 again
    expect(resumed).toMatchObject({
      chunksSkipped: 2,
      chunks: chunks - 2,
      totalTriples: statements,
      triples: statements - 2 * chunkTriples,
      count: triples,
    });
    expect(await count(v, graph)).toBe(triples);
  });
});

describe.runIf(needTools('virtuoso'))('scripts/virtuoso.sh', () => {
  it('starts, reports and stops a second private instance by its PID', async () => {
    const dir = join(work, 'second');
    const [sqlPort, httpPort] = [await freePort(), await freePort()];
    const env = { ...process.env, VIRTUOSO_PORT: String(sqlPort), VIRTUOSO_HTTP_PORT: String(httpPort) };
    const script = resolve(ROOT, 'scripts/virtuoso.sh');
    await exec('bash', [script, 'start', dir], { env, timeout: 120_000 });
    const pid = Number(readFileSync(join(dir, 'virtuoso.pid'), 'utf8'));
    expect((await exec('bash', [script, 'status', dir])).stdout).toMatch(/running/);
    await exec('bash', [script, 'stop', dir], { timeout: 60_000 });
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(exec('bash', [script, 'status', dir])).rejects.toMatchObject({ code: 1 });
  });
});
