/**
 * The proxy variables on the command line (in-process, the run's own
 * environment): a loopback proxy sees the requests of `search`, `term` and
 * `load` when HTTP_PROXY (or http_proxy) is set, and none when NO_PROXY
 * covers the host; through a proxy that fails, no message carries the API
 * key, the store's password or the proxy's password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRecords, startFakeService, type FakeService } from '../client/fakeService.js';
import { GspTestServer } from '../store/GspTestServer.js';
import { startVocabServer, type VocabServer } from '../vocabulary/vocabServer.js';
import { type LoopbackProxy, startLoopbackProxy } from './loopbackProxy.js';

const KEY = 'proxy-SECRET-key-42';
const PASSWORD = 'St0re-Pa55word';
const G = 'https://w3id.org/scholarly-rdf/graph/proxy';
const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
let proxy: LoopbackProxy;
let service: FakeService;
let vocab: VocabServer;
let store: GspTestServer;

beforeAll(async () => {
  proxy = await startLoopbackProxy();
  service = await startFakeService({ records: makeRecords(5), apiKey: KEY });
  vocab = await startVocabServer();
  store = await new GspTestServer().start();
  writeFileSync(
    join(dir, 'd.nt'),
    '<https://doi.org/10.1/a> <http://schema.org/name> "A" .\n<https://doi.org/10.1/b> <http://schema.org/name> "B" .\n',
  );
});
afterAll(async () => {
  await Promise.all([proxy.close(), service.close(), vocab.close(), store.stop()]);
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  proxy.seen.length = 0;
  proxy.answer = undefined;
  store.auth = undefined;
});

const cli = (argv: string[], env: Record<string, string>) =>
  runCli(argv, { env: { SCHOLARLY_API_KEY: KEY, ...env }, cwd: dir });
const search = (env: Record<string, string>) =>
  cli(['search', '-q', 'type:Journal', '--base-url', service.url, '--retries', '0'], env);
const term = (env: Record<string, string>) =>
  cli(['term', '--vocab-url', `${vocab.url}/vocab`, '--accept', 'text/turtle', '--no-fallback'], env);
const load = (env: Record<string, string>, extra: string[] = []) =>
  cli(
    ['load', 'd.nt', '--endpoint', store.dataset, '--graph', G, '--replace', '--state', 'd.load.json', ...extra],
    env,
  );

/** The hosts and paths the proxy was asked for, without the query strings. */
const seenPaths = () => proxy.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`);

describe('HTTP_PROXY set: the proxy sees every request', () => {
  it('search', async () => {
    const r = await search({ HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('records 1-5 of 5');
    expect(seenPaths()).toEqual([`GET ${service.url}/meta/v2/json`]);
  });

  it('term (lower-case http_proxy)', async () => {
    const r = await term({ http_proxy: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('pagination');
    expect(seenPaths()).toEqual([`GET ${vocab.url}/vocab/pagination`]);
  });

  it('export (through the connection flags, like search)', async () => {
    const r = await cli(['export', '-q', 'type:Journal', '--base-url', service.url, '-o', 'e.nt', '--quiet'], {
      HTTP_PROXY: proxy.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(seenPaths()).toEqual([`GET ${service.url}/meta/v2/json`]);
  });

  it('load: the chunks, the DROP and the count', async () => {
    const r = await load({ HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(store.graphSize(G)).toBe(2);
    expect(seenPaths()).toContain(`POST ${store.dataset}/data`);
    expect(proxy.seen.length).toBe(store.requests.length);
    expect(proxy.seen.length).toBeGreaterThanOrEqual(3);
  });
});

describe('NO_PROXY covering the host: the proxy sees none, the commands work', () => {
  for (const [name, run] of [
    ['search', search],
    ['term', term],
    ['load', load],
  ] as const) {
    it(name, async () => {
      const r = await run({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.seen).toEqual([]);
    });
  }

  it('--sample never goes through the proxy (the service is in-process, on loopback)', async () => {
    const r = await runCli(['search', '--sample', '-q', 'type:Journal'], {
      env: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);
  });
});

describe('a proxy that fails: no secret in any message', () => {
  const secrets = [KEY, PASSWORD, 'Pr0xy-Pa55'];
  const clean = (text: string) => secrets.every((s) => !text.includes(s) && !text.includes(encodeURIComponent(s)));

  it('a proxy that answers 502 or 407', async () => {
    for (const status of [502, 407]) {
      proxy.answer = status;
      const s = await search({ HTTP_PROXY: proxy.url });
      expect(s.code).toBe(3);
      expect(s.stderr).toContain(status === 407 ? 'Proxy Authentication Required (407)' : 'failed with 502');
      expect(proxy.seen.at(-1)?.url).toContain(`api_key=${KEY}`); // through a plain-HTTP proxy the query string is the proxy's to see
      expect(clean(s.stderr + s.stdout), s.stderr).toBe(true);
      const t = await cli(['term', '--vocab-url', `${vocab.url}/vocab?api_key=${KEY}`, '--no-fallback'], {
        HTTP_PROXY: proxy.url,
      });
      expect(t.code).toBe(3);
      expect(clean(t.stderr + t.stdout), t.stderr).toBe(true);
    }
  });

  it('load through a proxy that answers 502 (retried, then stopped)', async () => {
    proxy.answer = 502;
    const l = await load({ HTTP_PROXY: proxy.url, SCHOLARLY_STORE_USER: 'dba', SCHOLARLY_STORE_PASSWORD: PASSWORD }, [
      '--no-check',
      '--retries',
      '1',
    ]);
    expect(l.code).toBe(3);
    expect(proxy.seen.length).toBeGreaterThan(1);
    expect(clean(l.stderr + l.stdout), l.stderr).toBe(true);
  }, 60_000);

  it('a proxy that cannot be reached, its password in the variable', async () => {
    const gone = `http://me:Pr0xy-Pa55@127.0.0.1:9`; // the discard port: nothing listens
    const s = await search({ HTTP_PROXY: gone });
    expect(s.code).toBe(3);
    expect(s.stderr).toMatch(/ECONNREFUSED/);
    expect(clean(s.stderr), s.stderr).toBe(true);
    const l = await load({ HTTP_PROXY: gone, SCHOLARLY_STORE_USER: 'dba', SCHOLARLY_STORE_PASSWORD: PASSWORD }, [
      '--no-check',
      '--timeout',
      '5',
      '--retries',
      '1',
    ]);
    expect(l.code).not.toBe(0);
    expect(clean(l.stderr), l.stderr).toBe(true);
  }, 60_000);

  it('a proxy variable that is no URL is a usage error, its password hidden', async () => {
    const r = await search({ HTTPS_PROXY: 'http://me:Pr0xy-Pa55@[::1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the proxy in HTTPS_PROXY is not a URL');
    expect(clean(r.stderr), r.stderr).toBe(true);
  });
});
