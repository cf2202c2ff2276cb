import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLogPath } from '../../src/tasks/loadDump.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { GspTestServer } from './GspTestServer.js';

const G = 'https://w3id.org/scholarly-rdf/graph/cli';
const dir = mkdtempSync(join(tmpdir(), 'load-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: GspTestServer;
beforeEach(async () => {
  server = await new GspTestServer().start();
});
afterEach(async () => server.stop());

async function cli(argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(argv, { env, cwd: dir });
}

const TTL = `@prefix schema: <http://schema.org/> .
<https://doi.org/10.1007/s1> a schema:ScholarlyArticle ; schema:name "A"@en ; schema:pageStart "1" ; schema:pageEnd "16" .
<https://doi.org/10.1007/s2> a schema:ScholarlyArticle ; schema:name "B" .
`;
const NT =
  '<https://doi.org/10.1007/s3> <http://schema.org/name> "C" .\n<https://doi.org/10.1007/s3> <http://schema.org/pageStart> "e1234" .\n';
const JSONLD = JSON.stringify({ '@id': 'https://doi.org/10.1007/s4', 'http://schema.org/name': 'D' });

describe('scholarly-rdf load', () => {
  it('loads several files of different formats (gzip too) into one graph and prints a summary', async () => {
    writeFileSync(join(dir, 'a.ttl'), TTL);
    writeFileSync(join(dir, 'b.nt.gz'), gzipSync(NT));
    writeFileSync(join(dir, 'c.jsonld'), JSONLD);
    const r = await cli([
      'load',
      'a.ttl',
      'b.nt.gz',
      'c.jsonld',
      '--endpoint',
      server.dataset,
      '--graph',
      G,
      '--replace',
      '--chunk-triples',
      '3',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.graphSize(G)).toBe(9);
    expect(server.writes.map((w) => w.triples)).toEqual([3, 3, 3]);
    expect(r.stderr).toMatch(/loaded: +9 triples in 3 chunks, [\d.]+ s, \d+ triples\/s/);
    expect(r.stderr).toMatch(/count: +9 triples in the graph, 9 expected \(ok\)/);
    // The load log is keyed by the files and the graph.
    expect(existsSync(loadLogPath(['a.ttl', 'b.nt.gz', 'c.jsonld'], undefined, dir, G)!)).toBe(true);
    expect(loadLogPath(['a.ttl', 'b.nt.gz', 'c.jsonld'], undefined, dir, G)).toMatch(
      /a\.ttl\.[0-9a-f]{8}\.load-state\.json$/,
    );
  });

  it('writes the load log beside the dump, not in the working folder', async () => {
    mkdirSync(join(dir, 'dumps'), { recursive: true });
    writeFileSync(join(dir, 'dumps', 'beside.nt'), NT);
    const r = await cli(['load', 'dumps/beside.nt', '--endpoint', server.dataset, '--graph', G]);
    expect(r.code, r.stderr).toBe(0);
    const log = loadLogPath(['dumps/beside.nt'], undefined, dir, G)!;
    expect(log.startsWith(join(dir, 'dumps', 'beside.nt.'))).toBe(true);
    expect(existsSync(log)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.load-state.json') && f.startsWith('beside'))).toEqual([]);
  });

  it('derives the graph from the file name when the dump names no dataset', async () => {
    writeFileSync(join(dir, 'Springer 2015.nt'), NT);
    const r = await cli([
      'load',
      'Springer 2015.nt',
      '--endpoint',
      `${server.dataset}/data`,
      '--store',
      'fuseki',
      '--state',
      'x.json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.graphSize('https://w3id.org/scholarly-rdf/graph/springer-2015')).toBe(2);
  });

  it('takes credentials from the environment and never prints them', async () => {
    server.auth = { scheme: 'digest', user: 'loader', password: 'env-secret-99' };
    writeFileSync(join(dir, 'd.nt'), NT);
    const ok = await cli(['load', 'd.nt', '--endpoint', server.dataset, '--graph', G], {
      SCHOLARLY_STORE_USER: 'loader',
      SCHOLARLY_STORE_PASSWORD: 'env-secret-99',
    });
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await cli([
      'load',
      'd.nt',
      '--endpoint',
      server.dataset,
      '--graph',
      G,
      '--user',
      'loader',
      '--password',
      'flag-secret-77',
    ]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/error \[auth\]/);
    for (const text of [
      ok.stderr,
      ok.stdout,
      bad.stderr,
      bad.stdout,
      readFileSync(loadLogPath(['d.nt'], undefined, dir, G)!, 'utf8'),
    ]) {
      expect(text).not.toContain('env-secret-99');
      expect(text).not.toContain('flag-secret-77');
    }
  });

  it('takes a user and password from the endpoint URL, a % that is no escape as written', async () => {
    server.auth = { scheme: 'basic', user: 'loader', password: 's3cret%PW' };
    writeFileSync(join(dir, 'u.nt'), NT);
    const url = new URL(server.dataset);
    const r = await cli([
      'load',
      'u.nt',
      '--endpoint',
      `${url.protocol}//loader:s3cret%PW@${url.host}${url.pathname}`,
      '--graph',
      G,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('takes credentials out of --query-endpoint too, and never shows a password of a URL it cannot parse', async () => {
    server.auth = { scheme: 'basic', user: 'loader', password: 'q-secret-42' };
    writeFileSync(join(dir, 'q.nt'), NT);
    const url = new URL(server.dataset);
    const query = `${url.protocol}//loader:q-secret-42@${url.host}${url.pathname}/query`;
    const r = await cli(['load', 'q.nt', '--endpoint', server.dataset, '--graph', G, '--query-endpoint', query]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.some((q) => q.path === '/ds/query' && q.status === 200)).toBe(true);
    const bad = await cli(['load', 'q.nt', '--endpoint', 'http://loader:pa ss-secret@ho st/ds', '--graph', G]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--endpoint is not a URL');
    for (const text of [r.stderr, bad.stderr]) {
      expect(text).not.toContain('q-secret-42');
      expect(text).not.toContain('ss-secret');
    }
  });

  it('keeps a query string of the endpoint (a proxy key) on every request, and never shows the key', async () => {
    writeFileSync(join(dir, 'k.nt'), NT);
    const r = await cli([
      'load',
      'k.nt',
      '--endpoint',
      `${server.dataset}/data?default&apikey=proxy-key-31`,
      '--graph',
      G,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.graphSize(G)).toBe(2);
    expect(server.requests.length).toBeGreaterThan(1);
    for (const q of server.requests) expect(q.extraParams, `${q.method} ${q.path}`).toEqual({ apikey: 'proxy-key-31' });
    expect(r.stderr).toContain('apikey=***');
    expect(r.stderr).not.toContain('proxy-key-31');
  });

  it('--verbose says each request to the store (method, URL, status, bytes, time), credentials never in it', async () => {
    server.auth = { scheme: 'digest', user: 'loader', password: 'pw-secret-61' };
    writeFileSync(join(dir, 'v.nt'), NT + NT.replaceAll('s3', 's6'));
    const url = new URL(server.dataset);
    const endpoint = `${url.protocol}//loader:pw-secret-61@${url.host}${url.pathname}?apikey=proxy-key-62`;
    const args = ['load', 'v.nt', '--endpoint', endpoint, '--graph', G, '--replace', '--chunk-triples', '2'];
    server.faultFor = (n) => (n === 2 ? { status: 503, headers: { 'retry-after': '0' } } : undefined);
    const r = await cli([...args, '--verbose']);
    server.faultFor = undefined;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('request: '));
    // one line per request the store saw: the challenges (401), the drop, the chunks (the 503 and its retry), the count
    expect(lines).toHaveLength(server.requests.length);
    // the user and password are taken out of the URL before any request (they go in a header)
    const base = `http://127\\.0\\.0\\.1:\\d+/ds`;
    expect(
      lines.some((l) =>
        new RegExp(
          `^request: POST ${base}/update\\?apikey=\\*\\*\\* \\(\\d+ bytes\\) -> 401, \\d+ bytes \\(\\d+ ms\\)$`,
        ).test(l),
      ),
    ).toBe(true);
    const posts = lines.filter((l) =>
      new RegExp(
        `^request: POST ${base}/data\\?apikey=\\*\\*\\*&graph=\\S+ \\(\\d+ bytes\\) -> 20\\d, \\d+ bytes \\(\\d+ ms(, try 2)?\\)$`,
      ).test(l),
    );
    expect(posts).toHaveLength(2);
    expect(lines.filter((l) => / -> 503, \d+ bytes \(\d+ ms\)$/.test(l))).toHaveLength(1);
    expect(lines.some((l) => /, try 2\)$/.test(l))).toBe(true);
    for (const text of [r.stderr, r.stdout]) {
      expect(text).not.toContain('pw-secret-61');
      expect(text).not.toContain('proxy-key-62');
      expect(text).not.toMatch(/Digest|username=/);
    }
    // without --verbose: no request lines
    expect((await cli(args)).stderr).not.toContain('request: ');
    // --bulk has no requests of its own to say
    const bulk = await cli([
      'load',
      'v.nt',
      '--bulk',
      '--store',
      'virtuoso',
      '--graph',
      G,
      '--password',
      'x',
      '--verbose',
    ]);
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toContain('--verbose');
  });

  it('refuses --replace on resuming a load that did not replace (it would drop the chunks it skips)', async () => {
    writeFileSync(join(dir, 'r.nt'), NT + NT.replaceAll('s3', 's5'));
    const args = ['load', 'r.nt', '--endpoint', server.dataset, '--graph', G, '--chunk-triples', '2'];
    server.faultFor = (n) => (n >= 2 ? { status: 503, headers: { 'retry-after': '0' } } : undefined);
    expect((await cli(args)).code).toBe(3);
    server.faultFor = undefined;
    const refused = await cli([...args, '--resume', '--replace']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('resume without --replace');
    expect(server.requests.some((q) => q.sparql?.includes('DROP'))).toBe(false);
    expect(server.graphSize(G)).toBe(2);
    expect((await cli([...args, '--resume'])).code).toBe(0);
    expect(server.graphSize(G)).toBe(4);
  });

  it('says why the count was not checked', async () => {
    writeFileSync(join(dir, 'n.nt'), NT);
    const r = await cli(['load', 'n.nt', '--endpoint', server.dataset, '--graph', G, '--no-check']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('count:     not checked (--no-check)');
  });

  it('exits 1 with the summary on a count mismatch', async () => {
    server.loseTriples = 1;
    writeFileSync(join(dir, 'e.nt'), NT);
    const r = await cli(['load', 'e.nt', '--endpoint', server.dataset, '--graph', G, '--replace']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/count: +1 triples in the graph, 2 expected \(MISMATCH\)/);
    expect(r.stderr).toMatch(/error \[count-mismatch\]/);
  });

  it('resumes after an interruption and says how', async () => {
    writeFileSync(join(dir, 'f.nt'), NT + NT.replaceAll('s3', 's5') + NT.replaceAll('s3', 's6'));
    const args = ['load', 'f.nt', '--endpoint', server.dataset, '--graph', G, '--chunk-triples', '2', '--replace'];
    // Chunk 2 of 3 answered 503 through every retry (Retry-After: 0): the run stops with chunk 1 acknowledged.
    server.faultFor = (n) => (n >= 2 ? { status: 503, headers: { 'retry-after': '0' } } : undefined);
    const first = await cli(args);
    server.faultFor = undefined;
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/run again with --resume/);
    const second = await cli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resumed: 1 chunks acknowledged before, 6 triples in all/);
    const accepted = server.writes.filter((w) => w.status === 201 || w.status === 204);
    expect(accepted.map((w) => w.firstTriple)).toHaveLength(3);
    expect(new Set(accepted.map((w) => w.firstTriple)).size).toBe(3);
    expect(server.graphSize(G)).toBe(6);
  });

  it('does not point to a load log that a run stopped before writing, and says when --resume finds none', async () => {
    writeFileSync(join(dir, 'down.nt'), NT);
    // The count before the first chunk answered 503 through every retry (Retry-After: 0).
    server.queryFault = { status: 503, headers: { 'retry-after': '0' } };
    const down = await cli(['load', 'down.nt', '--endpoint', server.dataset, '--graph', G, '--state', 'down.json']);
    server.queryFault = undefined;
    expect(down.code).toBe(3);
    // One piece of advice: run it again as it was (not also --resume).
    expect(down.stderr).toContain('nothing was loaded: run it again as it was');
    expect(down.stderr).not.toMatch(/resume/);
    expect(down.stderr).not.toContain('load log:');
    // Nor to an old log of another load left in place.
    writeFileSync(join(dir, 'old.json'), '{}');
    server.queryFault = { status: 503, headers: { 'retry-after': '0' } };
    const again = await cli(['load', 'down.nt', '--endpoint', server.dataset, '--graph', G, '--state', 'old.json']);
    server.queryFault = undefined;
    expect(again.stderr).toContain('nothing was loaded: run it again as it was');
    const resumed = await cli([
      'load',
      'down.nt',
      '--endpoint',
      server.dataset,
      '--graph',
      G,
      '--state',
      'down.json',
      '--resume',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('no load log at');
  });

  it('rejects bad options with usage (exit 2)', async () => {
    writeFileSync(join(dir, 'g.nt'), NT);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--chunk-triples', '0'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--timeout', '0'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--request-timeout', '0'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--count-timeout', 'soon'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--user', 'only-user'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', 'ftp://x/ds'])).code).toBe(2);
    expect((await cli(['load', 'g.nt', '--endpoint', server.dataset, '--query-endpoint', 'x'])).code).toBe(2);
    // A port fetch will not use: one try, a usage error, not five retries of a "network" failure.
    const blocked = await cli(['load', 'g.nt', '--endpoint', 'http://127.0.0.1:1/ds']);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('fetch refuses this port');
    expect(blocked.stderr).not.toContain('retry');
    expect((await cli(['load', 'missing.nt', '--endpoint', server.dataset])).code).toBe(4);
  });
});
