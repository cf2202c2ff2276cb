/**
 * The store paths against a real Apache Jena Fuseki 5.6 (scripts/fuseki.sh; the suite's instance from
 * globalSetup.ts, and private ones this file starts, kills and restarts), through the built binary as its
 * users run it: `export --load`; the loader killed (SIGKILL) mid-load and resumed; Fuseki killed (SIGKILL)
 * mid-load and restarted on its TDB2 database, the load retrying through it, and a load that gave up
 * resumed; the Basic-auth dataset (401 without credentials, the password in no output, load log or Fuseki
 * log); a bad line named by file and line, the chunks before it acknowledged; and where Fuseki answers
 * otherwise than Virtuoso (a Graph Store GET of a graph that does not exist is 404, `DROP SILENT` of it is
 * fine, the count of it is 0). Counts exact: the graph's distinct triples (our dumps have no blank nodes).
 *
 * Loads that must stop at a chosen point read stdin (`load -`): the test writes some chunks, waits for the
 * load log to acknowledge them, then kills, and writes the rest; nothing depends on the clock.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  ROOT,
  ensureBuilt,
  freePort,
  needTools,
  runBin,
  sparqlSelect,
  withFuseki,
  type FusekiServer,
} from './helpers.js';

const exec = promisify(execFile);
const CATALOGUE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const SCRIPT = resolve(ROOT, 'scripts/fuseki.sh');
const work = mkdtempSync(join(tmpdir(), 'scholarly-fuseki-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the built binary in `work`. */
const bin = (args: readonly string[], env: Record<string, string> = {}) => runBin(work, args, env);

/** The triples of a graph of a dataset (`…/ds`), counted by Fuseki. */
async function count(dataset: string, graph: string, headers: Record<string, string> = {}): Promise<number> {
  const [row] = await sparqlSelect(
    `${dataset}/query`,
    `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`,
    headers,
  );
  return Number(row!['n']);
}

/** The lines of an N-Triples file and its distinct triples (our dumps have no blank nodes). */
function linesOf(file: string): { lines: string[]; triples: number } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { lines, triples: new Set(lines).size };
}

/** Resolves once `check` holds, polling (no deadline of its own: the test's timeout is the limit). */
async function until(check: () => boolean | Promise<boolean>, what: string, ended?: () => boolean): Promise<void> {
  while (!(await check())) {
    if (ended?.()) throw new Error(`the process ended before ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The chunks the load log at `path` records as acknowledged (0 before it exists). */
function chunksAcked(path: string): number {
  if (!existsSync(path)) return 0;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { chunksAcked: number }).chunksAcked;
  } catch {
    return 0; // written at this moment
  }
}

/** The built binary loading stdin, to be fed and killed by the test; its exit code (null when killed) and stderr. */
function stdinLoad(args: readonly string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stderr: string }>;
  ended: () => boolean;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [BIN, 'load', '-', ...args], { cwd: work, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  let over = false;
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin!.on('error', () => undefined); // EPIPE after a kill
  const done = new Promise<{ code: number | null; stderr: string }>((r) =>
    child.on('exit', (code) => {
      over = true;
      r({ code, stderr });
    }),
  );
  return { child, done, ended: () => over, stderr: () => stderr };
}

describe.runIf(needTools('fuseki'))('the store paths against Fuseki 5.6', () => {
  let f: FusekiServer;
  let dump: string;
  let lines: string[];
  let triples: number;

  beforeAll(async () => {
    ensureBuilt();
    f = withFuseki();
    dump = join(work, 'sample.nt');
    const r = await bin(['convert', CATALOGUE, '-o', dump, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    ({ lines, triples } = linesOf(dump));
    expect(lines.length, 'the sample repeats the triples of shared entities').toBeGreaterThan(triples);
  });

  it('answers a Graph Store GET of a missing graph with 404 where its count is 0, and DROP SILENT of it is fine (load --replace of a new graph)', async () => {
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-new';
    for (const ds of [f.mem, f.tdb]) {
      const res = await fetch(`${ds}/data?graph=${encodeURIComponent(graph)}`, {
        headers: { accept: 'application/n-triples' },
      });
      expect(res.status).toBe(404);
      expect(await count(ds, graph)).toBe(0);
    }
    const r = await bin(['load', dump, '--endpoint', f.mem, '--graph', graph, '--replace', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`count: +${triples} triples in the graph`));
    expect(await count(f.mem, graph)).toBe(triples);
  });

  it("export --load: the harvest's dump loaded into the TDB2 dataset, the count exact", async () => {
    const out = join(work, 'journals.nt');
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-export';
    const r = await bin([
      'export',
      '--sample',
      '-q',
      'type:Journal',
      '-o',
      out,
      '--quiet',
      '--load',
      f.tdb,
      '--load-graph',
      graph,
      '--replace',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const dumped = linesOf(out).triples;
    expect(dumped).toBeGreaterThan(100);
    expect(r.stderr).toMatch(new RegExp(`count: +${dumped} triples in the graph`));
    expect(await count(f.tdb, graph)).toBe(dumped);
  });

  it('Basic auth: 401 without credentials (exit 3), loads with them; the password in no output, load log or Fuseki log', async () => {
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-auth';
    const res = await fetch(`${f.auth}/data?graph=${encodeURIComponent(graph)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/n-triples' },
      body: lines[0]!,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    const anonymous = await bin([
      'load',
      dump,
      '--endpoint',
      f.auth,
      '--graph',
      graph,
      '--replace',
      '--quiet',
      '--state',
      join(work, 'auth0.json'),
    ]);
    expect(anonymous.code).toBe(3);
    expect(anonymous.stderr).toMatch(/\[auth\].*401/);
    const state = join(work, 'auth.json');
    const ok = await bin(
      ['load', dump, '--endpoint', f.auth, '--graph', graph, '--replace', '--json', '--state', state],
      { SCHOLARLY_STORE_USER: f.user, SCHOLARLY_STORE_PASSWORD: f.password },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split('\n').pop()!)).toMatchObject({ count: triples, countOk: true });
    const basic = { authorization: `Basic ${Buffer.from(`${f.user}:${f.password}`).toString('base64')}` };
    expect(await count(f.auth, graph, basic)).toBe(triples);
    const wrong = await bin(
      [
        'load',
        dump,
        '--endpoint',
        f.auth,
        '--graph',
        graph,
        '--quiet',
        '--state',
        join(work, 'auth2.json'),
        '--user',
        f.user,
      ],
      { SCHOLARLY_STORE_PASSWORD: 'wrong-Pa55' },
    );
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/\[auth\]/);
    // The password in a URL is taken out of it and hidden in every message.
    const inUrl = await bin([
      'load',
      dump,
      '--endpoint',
      f.auth.replace('http://', `http://${f.user}:${f.password}@`),
      '--graph',
      graph,
      '--replace',
      '--quiet',
      '--state',
      join(work, 'auth3.json'),
    ]);
    expect(inUrl.code, inUrl.stderr).toBe(0);
    const forms = [
      f.password,
      encodeURIComponent(f.password),
      Buffer.from(`${f.user}:${f.password}`).toString('base64'),
    ];
    const texts = { anonymous, ok, wrong, inUrl };
    for (const [what, r] of Object.entries(texts))
      for (const form of forms)
        expect(`${r.stdout}${r.stderr}`.includes(form), `${what} prints the password`).toBe(false);
    for (const file of [state, join(work, 'auth3.json'), join(f.dir, 'fuseki.log')]) {
      for (const form of forms)
        expect(readFileSync(file, 'utf8').includes(form), `${file} holds the password`).toBe(false);
    }
  });

  it('a bad line: exit 4 naming the file and the line; the chunks before it are acknowledged in the load log', async () => {
    const bad = join(work, 'bad.nt');
    const at = 2500;
    const text = [
      ...lines.slice(0, at - 1),
      '<https://doi.org/10.1007/x> <http://schema.org/name> "unterminated .',
      ...lines.slice(at - 1),
    ];
    writeFileSync(bad, `${text.join('\n')}\n`);
    const state = join(work, 'bad.json');
    const r = await bin([
      'load',
      bad,
      '--endpoint',
      f.mem,
      '--graph',
      'https://w3id.org/scholarly-rdf/graph/it-fuseki-bad',
      '--replace',
      '--chunk-triples',
      '1000',
      '--quiet',
      '--state',
      state,
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`${bad}:${at}`);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({
      chunksAcked: 2,
      triplesAcked: 2000,
      complete: false,
    });
  });

  it('the loader killed mid-load (SIGKILL): --resume sends the rest, the count exact', async () => {
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-killed-loader';
    const state = join(work, 'killed.json');
    const args = [
      '--endpoint',
      f.tdb,
      '--graph',
      graph,
      '--replace',
      '--chunk-triples',
      '1000',
      '--state',
      state,
      '--quiet',
    ];
    const load = stdinLoad(args);
    load.child.stdin!.write(`${lines.slice(0, 3500).join('\n')}\n`);
    await until(() => chunksAcked(state) >= 2, 'two chunks were acknowledged', load.ended);
    load.child.kill('SIGKILL');
    expect((await load.done).code).toBeNull();
    const acked = chunksAcked(state);
    expect(acked).toBeGreaterThanOrEqual(2);
    const resumed = spawn(process.execPath, [BIN, 'load', '-', ...args, '--resume', '--json'], {
      cwd: work,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    resumed.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    resumed.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    resumed.stdin.end(readFileSync(dump));
    const code = await new Promise<number | null>((r) => resumed.on('exit', r));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({
      chunksSkipped: acked,
      totalTriples: lines.length,
      count: triples,
      countOk: true,
    });
    expect(await count(f.tdb, graph)).toBe(triples);
  });
});

describe.runIf(needTools('fuseki'))('a Fuseki killed (SIGKILL) and restarted mid-load, on its TDB2 database', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let dataset: string;
  let lines: string[];
  let triples: number;

  beforeAll(async () => {
    ensureBuilt();
    dir = join(work, 'private-fuseki');
    const port = await freePort();
    env = { ...process.env, FUSEKI_PORT: String(port), FUSEKI_HEAP: '512m' };
    await exec('bash', [SCRIPT, 'start', dir], { env, timeout: 180_000 });
    dataset = `http://127.0.0.1:${port}/tdb`;
    // A part of the sample: 8 chunks of 1000 statements are enough to kill in the middle.
    const dump = join(work, 'restart.nt');
    const r = await bin(['convert', CATALOGUE, '-o', dump, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    lines = linesOf(dump).lines.slice(0, 8000);
    triples = new Set(lines).size;
  });
  afterAll(async () => {
    if (dir) await exec('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 }).catch(() => undefined);
  });

  /** Kills the private Fuseki with SIGKILL (no shutdown of its own) and waits until it is gone. */
  async function killFuseki(): Promise<void> {
    const pid = Number(readFileSync(join(dir, 'fuseki.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    await until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'Fuseki died');
  }

  it('the load retries through the restart and ends with the exact count; what was acknowledged before survived the kill', async () => {
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-restart';
    const state = join(work, 'restart.json');
    const load = stdinLoad([
      '--endpoint',
      dataset,
      '--graph',
      graph,
      '--replace',
      '--chunk-triples',
      '1000',
      '--state',
      state,
      '--retries',
      '12',
    ]);
    load.child.stdin!.write(`${lines.slice(0, 3500).join('\n')}\n`);
    await until(() => chunksAcked(state) >= 2, 'two chunks were acknowledged', load.ended);
    await killFuseki();
    load.child.stdin!.end(`${lines.slice(3500).join('\n')}\n`);
    // The next request fails; the loader waits and tries again. Restart Fuseki once it says so.
    await until(() => /retry 1 in/.test(load.stderr()), 'the loader retried', load.ended);
    await exec('bash', [SCRIPT, 'start', dir], { env, timeout: 180_000 });
    const { code, stderr } = await load.done;
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/retry \d+ in [\d.]+ s: POST of chunk \d+/);
    expect(stderr).toMatch(new RegExp(`count: +${triples} triples in the graph`));
    expect(await count(dataset, graph)).toBe(triples);
  });

  it('a load that gave up (--retries 0, exit 3) resumes once Fuseki is back, the count exact', async () => {
    const graph = 'https://w3id.org/scholarly-rdf/graph/it-fuseki-restart-resume';
    const state = join(work, 'restart-resume.json');
    const args = ['--endpoint', dataset, '--graph', graph, '--replace', '--chunk-triples', '1000', '--state', state];
    const load = stdinLoad([...args, '--retries', '0']);
    load.child.stdin!.write(`${lines.slice(0, 3500).join('\n')}\n`);
    await until(() => chunksAcked(state) >= 2, 'two chunks were acknowledged', load.ended);
    await killFuseki();
    load.child.stdin!.end(`${lines.slice(3500).join('\n')}\n`);
    const stopped = await load.done;
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toMatch(/\[network\]/);
    expect(stopped.stderr).toContain('run again with --resume');
    const acked = chunksAcked(state);
    await exec('bash', [SCRIPT, 'start', dir], { env, timeout: 180_000 });
    // TDB2 kept every chunk Fuseki acknowledged before it was killed.
    expect(await count(dataset, graph)).toBeGreaterThanOrEqual(
      Math.min(acked * 1000, new Set(lines.slice(0, acked * 1000)).size),
    );
    const resumed = spawn(process.execPath, [BIN, 'load', '-', ...args, '--resume', '--json', '--quiet'], {
      cwd: work,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    resumed.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    resumed.stdin.end(`${lines.join('\n')}\n`);
    expect(await new Promise<number | null>((r) => resumed.on('exit', r))).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({ chunksSkipped: acked, count: triples, countOk: true });
  });

  it('scripts/fuseki.sh reports the instance and stops it by its PID', async () => {
    const pid = Number(readFileSync(join(dir, 'fuseki.pid'), 'utf8'));
    expect((await exec('bash', [SCRIPT, 'status', dir])).stdout).toMatch(/running/);
    await exec('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 });
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(exec('bash', [SCRIPT, 'status', dir])).rejects.toMatchObject({ code: 1 });
  });
});
