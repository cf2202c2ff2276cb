/**
 * `load --bulk` (Virtuoso's bulk loader, here a fake isql) and `load --upsert` (record graphs replaced,
 * here in the loopback Graph Store of the loader's tests): flags, usage errors, summaries, exit codes.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { GspTestServer } from '../store/GspTestServer.js';
import { FAKE_PASSWORD, fakeIsql } from '../store/virtuosoBulkFake.js';

const dir = mkdtempSync(join(tmpdir(), 'load-modes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (argv: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(['load', ...argv], { cwd: dir, env });
const lastJson = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').pop()!) as Record<string, unknown>;

describe('load: the flags of --bulk and --upsert', () => {
  it('--help lists every flag of both modes', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--bulk',
      '--manifest <file>',
      '--isql-host <host>',
      '--isql-port <n>',
      '--jobs <n>',
      '--server-dir <dir>',
      '--isql <path>',
      '--loc <dir>',
      '--tdbloader <path>',
      '--upsert',
      '--upsert-method <method>',
      '--batch-graphs <n>',
      '--batch-triples <n>',
      '--base <iri>',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('docs/bulk-loading.md');
    expect(r.stdout).toContain('docs/incremental.md');
  });

  it.each([
    [
      ['--bulk', 'a.nt', '--store', 'rdf4j', '--graph', 'urn:x:g'],
      "--bulk needs --store virtuoso (Virtuoso's bulk loader) or --store fuseki (Jena's tdb2.tdbloader), not --store rdf4j",
    ],
    [['--bulk', 'a.nt', '--graph', 'urn:x:g'], '--bulk --store fuseki needs --loc DIR'],
    [
      ['--bulk', 'a.nt', '--graph', 'urn:x:g', '--loc', 'db', '--jobs', '2'],
      "--jobs: flags of Virtuoso's bulk loader (--store virtuoso), not of --store fuseki",
    ],
    [
      ['--bulk', 'a.nt', '--graph', 'urn:x:g', '--loc', 'db', '--chunk-triples', '5'],
      "--chunk-triples: do not go with --bulk (Jena's tdb2.tdbloader builds the TDB2 database from the files)",
    ],
    [['a.nt', '--endpoint', 'http://store.test/ds', '--tdbloader', 'x'], '--tdbloader: need --bulk or --upsert'],
    [['--bulk', 'a.nt', '--store', 'virtuoso'], '--bulk needs --graph IRI'],
    [
      ['--bulk', 'a.nt', '--store', 'virtuoso', '--graph', 'urn:x:g'],
      '--bulk needs the password of the Virtuoso SQL user',
    ],
    [
      ['--bulk', 'a.nt', '--store', 'virtuoso', '--graph', 'urn:x:g', '--upsert', '--chunk-triples', '5', '--resume'],
      '--upsert, --chunk-triples, --resume: do not go with --bulk',
    ],
    [
      ['--upsert', 'a.nq', '--endpoint', 'http://store.test/ds', '--graph', 'urn:x:g'],
      '--graph does not go with --upsert: each record graph of the dumps is replaced',
    ],
    [
      ['--upsert', 'a.nq', '--endpoint', 'http://store.test/ds', '--graph', 'urn:x:g', '--replace'],
      '--graph, --replace do not go with --upsert',
    ],
    [['--upsert', 'a.nq', '--endpoint', 'http://store.test/ds', '--jobs', '2'], '--jobs: do not go with --upsert'],
    [
      ['a.nt', '--endpoint', 'http://store.test/ds', '--manifest', 'm.json', '--batch-graphs', '3'],
      '--manifest, --batch-graphs: need --bulk or --upsert',
    ],
    [['a.nt'], '--endpoint URL is needed'],
  ])('usage error (exit 2): load %j', async (argv, message) => {
    const r = await cli(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error [usage]: ${message}`);
  });
});

describe('load --bulk (against a fake isql)', () => {
  const GRAPH = 'https://ex.org/graph/bulk';
  /** Two shards of distinct triples and their manifest; `broken` puts a syntax error into the second. */
  function shards(broken = false): { files: string[]; manifest: string } {
    const sub = mkdtempSync(join(dir, 'shards-'));
    const texts = [
      [1, 2, 3],
      [4, 5],
    ].map(
      (ids, i) =>
        ids
          .map((n) => `<https://ex.org/s${n}> <https://ex.org/p> "${n}" .`)
          .concat(broken && i === 1 ? ['<https://ex.org/x> BROKEN .'] : [])
          .join('\n') + '\n',
    );
    const files = texts.map((text, i) => {
      writeFileSync(join(sub, `d.0000${i + 1}.nt`), text);
      return join(sub, `d.0000${i + 1}.nt`);
    });
    const manifest = join(sub, 'd.manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        shards: texts.map((t, i) => ({
          file: `d.0000${i + 1}.nt`,
          triples: i === 0 ? 3 : 2,
          bytes: Buffer.byteLength(t),
        })),
      }),
    );
    return { files, manifest };
  }
  const bulk = (fake: { command: string }, more: string[]) =>
    cli(['--bulk', '--store', 'virtuoso', '--graph', GRAPH, '--isql', fake.command, '--isql-port', '1112', ...more], {
      SCHOLARLY_STORE_PASSWORD: FAKE_PASSWORD,
    });

  it('loads the shards of a manifest (no file arguments), checks the count, prints and --json the summary; the password nowhere', async () => {
    const fake = fakeIsql();
    const { manifest } = shards();
    const r = await bulk(fake, [
      '--manifest',
      manifest,
      '--jobs',
      '3',
      '--endpoint',
      'http://virt.example:8890/',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/files: +2 of 2 loaded/);
    expect(r.stderr).toMatch(
      /count: +5 triples in the graph, 5 expected for the 5 distinct triples of the files \(ok\)/,
    );
    expect(lastJson(r.stdout)).toMatchObject({
      command: 'load',
      exitCode: 0,
      mode: 'bulk',
      graph: GRAPH,
      loadedFiles: 2,
      failedFiles: 0,
      count: 5,
      countOk: true,
      jobs: 3,
    });
    expect(fake.statements().filter((s) => s === 'rdf_loader_run();')).toHaveLength(3);
    expect(r.stdout + r.stderr).not.toContain(FAKE_PASSWORD);
  });

  it('isql is started on the --endpoint host and --isql-port, as the --user given; --isql-host overrides the host', async () => {
    const fake = fakeIsql();
    // A wrapper that notes the client's first two arguments (HOST:PORT USER), then runs the fake.
    const wrapper = join(fake.dir, 'isql-noting');
    writeFileSync(wrapper, `#!/bin/sh\necho "$1 $2" >> '${join(fake.dir, 'argv')}'\nexec '${fake.command}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const { files } = shards();
    const viaEndpoint = await bulk({ command: wrapper }, [
      files[0]!,
      '--endpoint',
      'http://localhost:8890',
      '--user',
      'loader',
      '--quiet',
    ]);
    expect(viaEndpoint.code, viaEndpoint.stderr).toBe(0);
    const viaFlag = await bulk({ command: wrapper }, [
      files[0]!,
      '--endpoint',
      'http://localhost:8890',
      '--isql-host',
      '10.0.0.7',
      '--quiet',
    ]);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    const seen = [...new Set(readFileSync(join(fake.dir, 'argv'), 'utf8').trim().split('\n'))];
    expect(seen).toEqual(['localhost:1112 loader', '10.0.0.7:1112 dba']);
  });

  it("a count short of the files' distinct triples (a file the store lost): exit 1 (count-mismatch), the summary (MISMATCH) and --json still given", async () => {
    const fake = fakeIsql();
    const { files } = shards();
    // The fake keeps none of a file named *.lost.* although it reports it loaded.
    const lost = files[1]!.replace(/\.nt$/, '.lost.nt');
    writeFileSync(lost, '<https://ex.org/s9> <https://ex.org/p> "9" .\n');
    const r = await bulk(fake, [...files, lost, '--json', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /count: +5 triples in the graph, 6 expected for the 6 distinct triples of the files \(MISMATCH\)/,
    );
    expect(lastJson(r.stdout)).toMatchObject({
      command: 'load',
      exitCode: 1,
      mode: 'bulk',
      count: 5,
      countOk: false,
      error: { code: 'count-mismatch' },
    });
  });

  it('refuses stdin (the server reads the files itself)', async () => {
    const r = await bulk(fakeIsql(), ['-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error [usage]: --bulk loads files the server reads: not stdin (-)');
  });

  it('a shard with a syntax error: each failed file named on stderr, exit 4 (parse), the others loaded', async () => {
    const fake = fakeIsql();
    const { files } = shards(true);
    const r = await bulk(fake, [...files, '--quiet']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `not loaded: ${files[1]}: 37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line 3: syntax error`,
    );
    expect(r.stderr).toMatch(/files: +1 of 2 loaded, 1 NOT loaded/);
    expect(r.stderr).toContain('error [parse]: 1 of 2 files were not loaded');
  });
});

describe('load --upsert (against the loopback Graph Store)', () => {
  const B = 'https://w3id.org/scholarly-rdf/';
  const g = (doi: string) => `${B}record/${doi}`;
  const t = (doi: string, p: string, o: string) => `<https://doi.org/${doi}> <http://schema.org/${p}> "${o}" .`;
  const nq = (doi: string, p: string, o: string) => `${t(doi, p, o).slice(0, -2)} <${g(doi)}> .`;
  let store: GspTestServer;
  let front: Server;
  let endpoint: string;
  beforeEach(async () => {
    store = await new GspTestServer().start();
    store.graphs.set(g('10.1/a'), new Set([t('10.1/a', 'name', 'Old title')]));
    store.graphs.set(g('10.1/b'), new Set([t('10.1/b', 'author', 'X'), t('10.1/b', 'author', 'Y')]));
    store.graphs.set(g('10.1/c'), new Set([t('10.1/c', 'name', 'C')]));
    front = await countingFront(store);
    endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}/ds`;
  });
  afterEach(async () => {
    await new Promise((r) => front.close(r));
    await store.stop();
  });
  const delta = (name: string) => {
    writeFileSync(
      join(dir, name),
      [nq('10.1/a', 'name', 'New title'), nq('10.1/b', 'author', 'X'), nq('10.1/d', 'name', 'D'), ''].join('\n'),
    );
    return name;
  };
  const state = () =>
    Object.fromEntries(
      [g('10.1/a'), g('10.1/b'), g('10.1/c'), g('10.1/d')].map((x) => [x, [...(store.graphs.get(x) ?? [])].sort()]),
    );
  const NEW_STATE = {
    [g('10.1/a')]: [t('10.1/a', 'name', 'New title')],
    [g('10.1/b')]: [t('10.1/b', 'author', 'X')],
    [g('10.1/c')]: [t('10.1/c', 'name', 'C')],
    [g('10.1/d')]: [t('10.1/d', 'name', 'D')],
  };

  it('replaces each record graph of the delta, counts each batch, prints the summary and --json', async () => {
    const r = await cli([delta('d1.nq'), '--upsert', '--endpoint', endpoint, '--batch-graphs', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(state()).toEqual(NEW_STATE);
    expect(r.stderr).toMatch(
      /upserted: +3 record graphs, 3 triples at http:\/\/127\.0\.0\.1:\d+\/ds\/data\?graph=.* \(method put\)/,
    );
    expect(r.stderr).toMatch(/batches: +2, 3 requests \+ 2 counts, [\d.]+ s/);
    expect(r.stderr).toMatch(/count: +2 batches counted/);
    expect(r.stderr).toMatch(/load log: +.*d1\.nq\.[0-9a-f]{8}\.load-state\.json/);
    expect(lastJson(r.stdout)).toMatchObject({
      command: 'load',
      exitCode: 0,
      mode: 'upsert',
      method: 'put',
      graphs: 3,
      triples: 3,
      batches: 2,
      batchesSkipped: 0,
      counted: true,
    });
  });

  it('a batch that fails after others were done: the advice to resume; --resume finishes it (progress lines name upsert)', async () => {
    const name = delta('d2.nq');
    store.faultFor = (write) => (write === 2 ? { status: 400, body: 'no' } : undefined);
    const failed = await cli([
      name,
      '--upsert',
      '--endpoint',
      endpoint,
      '--batch-graphs',
      '1',
      '--no-check',
      '--retries',
      '0',
    ]);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/load log: {2}.*d2\.nq\.[0-9a-f]{8}\.load-state\.json\n/);
    expect(failed.stderr).toContain('the batches done are in the load log: run again with --resume to continue');
    expect(failed.stderr).not.toContain('as it was');
    store.faultFor = undefined;
    const resumed = await cli([
      name,
      '--upsert',
      '--endpoint',
      endpoint,
      '--batch-graphs',
      '1',
      '--resume',
      '--upsert-method',
      'put',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/batches: +3 \(resumed: 1 done before\), 2 requests/);
    expect(state()).toEqual(NEW_STATE);
  });
});

/**
 * A front of the loopback store that answers the upsert's per-graph count (a form POST of
 * `SELECT ?g (COUNT(*) AS ?n) … VALUES ?g { … } … GROUP BY ?g`, which the store does not know) from the
 * store's graphs, and passes every other request on to it.
 */
async function countingFront(store: GspTestServer): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url?.startsWith('/ds/query')) {
        const query = new URLSearchParams(body.toString('utf8')).get('query') ?? '';
        const graphs = [...(/VALUES \?g \{([^}]*)\}/.exec(query)?.[1] ?? '').matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
        const bindings = graphs
          .filter((x) => store.graphSize(x) > 0)
          .map((x) => ({ g: { type: 'uri', value: x }, n: { type: 'literal', value: String(store.graphSize(x)) } }));
        res
          .writeHead(200, { 'content-type': 'application/sparql-results+json' })
          .end(JSON.stringify({ head: { vars: ['g', 'n'] }, results: { bindings } }));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length') as [string, string][],
      );
      fetch(`${store.baseUrl}${req.url}`, { method: req.method!, headers, ...(body.length > 0 ? { body } : {}) })
        .then(async (answer) =>
          res
            .writeHead(
              answer.status,
              Object.fromEntries(
                [...answer.headers].filter(
                  ([k]) => !['transfer-encoding', 'content-length', 'connection', 'keep-alive'].includes(k),
                ),
              ),
            )
            .end(Buffer.from(await answer.arrayBuffer())),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}
