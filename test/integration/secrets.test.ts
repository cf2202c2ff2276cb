/**
 * No secret in anything the toolkit writes or prints: the commands, in-process
 * and as the built binary, under success, retries, errors, a kill and a
 * resume, and debug settings (NODE_DEBUG=fetch, undici, `*`), against a fake
 * service and a fake store that echoes the request's headers in its error
 * bodies. Every byte printed and every file written is searched for the API
 * key, the store's key (in its endpoint's query) and the store's password,
 * each raw, URL-encoded (either case), form-encoded and in base64 (alone and,
 * as a Basic header holds them, `user:password`).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecords, randomFaults, startFakeService, type FakeService } from '../client/fakeService.js';
import { GspTestServer } from '../store/GspTestServer.js';
import { ROOT, runCli } from './helpers.js';

const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');
const KEY = 'Sup3r-Secret+Key/=42xyz';
const STORE_KEY = 'st0re-Pr0xy-K3y';
const USER = 'loader-user';
const PASSWORD = 'St0re Pa55/word!';
const PROXY_USER = 'puser';
const PROXY_PASSWORD = 'PROXYPW-4711-Geheim/x';
const dir = mkdtempSync(join(tmpdir(), 'scholarly-secrets-'));

let service: FakeService;
let flaky: FakeService;
let store: GspTestServer;
/** A proxy stand-in that refuses every request, echoing its Proxy-Authorization (base64, decoded, and cut at 200 characters inside it). */
let proxy: Server;
let proxyUrl: string;
/** Every byte printed by every run. */
const printed: { what: string; text: string }[] = [];

beforeAll(async () => {
  service = await startFakeService({ records: makeRecords(40), apiKey: KEY });
  flaky = await startFakeService({
    records: makeRecords(40),
    apiKey: KEY,
    fault: randomFaults(7, { error5xx: 0.2, tooMany: 0.05, truncated: 0.05 }),
  });
  store = await new GspTestServer().start();
  store.auth = { scheme: 'basic', user: USER, password: PASSWORD };
  proxy = createServer((req, res) => {
    const header = req.headers['proxy-authorization'] ?? '';
    const decoded = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(
      `<html><body>${'Bad gateway. '.repeat(14)} you are ${decoded} (Proxy-Authorization: ${header}); user ${decoded.slice(0, 12)} is not allowed</body></html>`,
    );
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await service.close();
  await flaky.close();
  await store.stop();
  await new Promise((done) => proxy.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** The forms a secret takes in text. */
function formsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const b64 = Buffer.from(secret).toString('base64');
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    new URLSearchParams([['k', secret]]).toString().slice(2),
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
  ];
}

const FORBIDDEN = [
  ...formsOf(KEY),
  ...formsOf(STORE_KEY),
  ...formsOf(PASSWORD),
  ...formsOf(`${USER}:${PASSWORD}`),
  ...formsOf(PROXY_PASSWORD),
  ...formsOf(`${PROXY_USER}:${PROXY_PASSWORD}`),
  // No part of the proxy's password either: every run of 6 of its characters, and what a cut leaves (`puser:PROX`).
  ...Array.from({ length: PROXY_PASSWORD.length - 5 }, (_, i) => PROXY_PASSWORD.slice(i, i + 6)),
  `${PROXY_USER}:${PROXY_PASSWORD.slice(0, 4)}`,
];

function expectNoSecret(what: string, text: string): void {
  for (const form of FORBIDDEN) expect(text.includes(form), `${what} holds ${form}`).toBe(false);
}

/** Runs the built binary in `dir` (asynchronously: the fake servers answer it from this process). */
function bin(
  args: string[],
  env: Record<string, string> = {},
  killWhen?: () => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Killed once `killWhen` holds (polled; never after a fixed time, which a busy machine may not reach).
    const watch = killWhen && setInterval(() => killWhen() && child.kill('SIGKILL'), 50);
    child.on('close', (code) => {
      if (watch) clearInterval(watch);
      printed.push({ what: `scholarly-rdf ${args.join(' ')} (${JSON.stringify(env)})`, text: stdout + stderr });
      done({ code, stdout, stderr });
    });
  });
}

async function inProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await runCli(args, { env, cwd: dir });
  printed.push({ what: `in-process ${args.join(' ')}`, text: r.stdout + r.stderr });
  return r;
}

const withKey = { SCHOLARLY_API_KEY: KEY };
const withStore = { SCHOLARLY_STORE_USER: USER, SCHOLARLY_STORE_PASSWORD: PASSWORD };

describe('secrets', () => {
  it('export, search and get: success, retries, errors, a kill and a resume, in-process and the binary', async () => {
    const codes = [
      (
        await bin(
          [
            'export',
            '-q',
            'x',
            '-o',
            'a.nq',
            '--meta',
            'a.meta.ttl',
            '--rejects',
            'a.rej.jsonl',
            '--base-url',
            service.url,
            '--page-size',
            '10',
            '--json',
          ],
          withKey,
        )
      ).code,
      (
        await bin(
          ['export', '-q', 'x', '-o', 'b.ttl', '--base-url', flaky.url, '--page-size', '5', '--retries', '20'],
          withKey,
        )
      ).code,
      (
        await inProcess(
          [
            'export',
            '-q',
            'x',
            '-o',
            'c.jsonld',
            '--base-url',
            flaky.url,
            '--page-size',
            '5',
            '--retries',
            '20',
            '--json',
          ],
          withKey,
        )
      ).exitCode,
      (
        await bin(
          ['export', '-q', 'x', '-o', 'd.ttl', '--base-url', `${service.url}/missing`, '--retries', '1'],
          withKey,
        )
      ).code,
      (
        await bin(
          ['export', '-q', 'x', '-o', 'e.ttl', '--base-url', service.url, '--api-key', 'Wr0ng-key-but-secret'],
          {},
        )
      ).code,
      (
        await bin(
          ['export', '-q', 'x', '-o', 'f.ttl', '--base-url', `${service.url}/?api_key=${encodeURIComponent(KEY)}`],
          withKey,
        )
      ).code,
      (
        await inProcess([
          'export',
          '-q',
          'x',
          '-o',
          'g.ttl',
          '--base-url',
          `${service.url}?api_key=${KEY}`,
          '--api-key',
          KEY,
        ])
      ).exitCode,
      (await bin(['search', '-q', 'x', '--base-url', service.url, '--json'], withKey)).code,
      (await bin(['get', '10.1000/test.3', '--base-url', service.url], withKey)).code,
      (await inProcess(['get', '10.1000/none', '--base-url', service.url], withKey)).exitCode,
    ];
    // the last: a DOI the service does not know is `no-record`, exit 7
    expect(codes).toEqual([0, 0, 0, 3, 3, 2, 2, 0, 0, 7]);
    // Killed mid-export (once its state is saved), then resumed.
    await bin(
      ['export', '-q', 'x', '-o', 'k.nt', '--base-url', service.url, '--page-size', '2', '--rate', '5'],
      withKey,
      () => existsSync(join(dir, 'k.nt.state.json')),
    );
    expect(
      (
        await bin(
          ['export', '-q', 'x', '-o', 'k.nt', '--base-url', service.url, '--page-size', '2', '--resume'],
          withKey,
        )
      ).code,
    ).toBe(0);
  });

  it('NODE_DEBUG=fetch, undici or * never prints a request URL with the key: the run is refused, saying why', async () => {
    for (const debug of ['fetch', 'undici', '*']) {
      for (const args of [
        ['export', '-q', 'x', '-o', `debug-${debug === '*' ? 'all' : debug}.nt`, '--base-url', service.url],
        ['get', '10.1000/test.3', '--base-url', service.url],
      ]) {
        const r = await bin(args, { ...withKey, NODE_DEBUG: debug });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain('prints every request URL on stderr');
        expect(r.stderr).not.toMatch(/^(FETCH|UNDICI) \d+:/m);
      }
    }
    // The sample service's key is public: debugging against it works.
    const sample = await bin(['get', '10.1007/s00018-015-1915-6', '--sample'], { NODE_DEBUG: 'fetch' });
    expect(sample.stderr).toMatch(/FETCH \d+: sending request/);
  });

  it('load and export --load: credentials and the store key in no message, log or file, even when the store echoes them', async () => {
    const endpoint = `${store.baseUrl}/ds?apikey=${STORE_KEY}`;
    const made = await bin(
      [
        'export',
        '-q',
        'x',
        '-o',
        'dump.nt',
        '--base-url',
        service.url,
        '--load',
        endpoint,
        '--load-graph',
        'http://example.org/g',
      ],
      { ...withKey, ...withStore },
    );
    expect(made.code, made.stderr).toBe(0);
    // The store refuses a chunk, its body echoing the request (as some proxies do).
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    store.faults.push({
      status: 400,
      body: `<pre>POST /ds/data?apikey=${STORE_KEY}\nAuthorization: ${basic}\nuser=${USER}&password=${encodeURIComponent(PASSWORD)}</pre>`,
    });
    const refused = await bin(
      ['load', 'dump.nt', '--endpoint', endpoint, '--graph', 'http://example.org/h', '--state', 'h.load.json'],
      withStore,
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('rejected the request (400');
    store.faults.push({ status: 503 }, { status: 500, body: `Authorization: ${basic}` });
    const retried = await inProcess([
      'load',
      'dump.nt',
      '--endpoint',
      endpoint,
      '--graph',
      'http://example.org/i',
      '--state',
      'i.load.json',
      '--user',
      USER,
      '--password',
      PASSWORD,
    ]);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('retry');
    const wrong = await bin([
      'load',
      'dump.nt',
      '--endpoint',
      `http://${USER}:${encodeURIComponent(PASSWORD)}x@${store.baseUrl.slice(7)}/ds?apikey=${STORE_KEY}`,
      '--graph',
      'http://example.org/j',
      '--state',
      'j.load.json',
    ]);
    expect(wrong.code).toBe(3);
    const debug = await bin(
      ['load', 'dump.nt', '--endpoint', endpoint, '--graph', 'http://example.org/k', '--state', 'k.load.json'],
      { ...withStore, NODE_DEBUG: 'fetch' },
    );
    expect(debug.code, debug.stderr).toBe(2);
    expect(debug.stderr).not.toMatch(/^FETCH \d+:/m);
  });

  it('a proxy that echoes Proxy-Authorization in its error body (base64, decoded, cut): export, search, get and load, --json too', async () => {
    const viaProxy = { ...withKey, ...withStore, HTTP_PROXY: proxyUrl };
    const runs = [
      await bin(['export', '-q', 'x', '-o', 'p.nt', '--base-url', service.url, '--retries', '0', '--json'], viaProxy),
      await bin(['search', '-q', 'x', '--base-url', service.url, '--retries', '0', '--json'], viaProxy),
      await bin(['get', '10.1000/test.3', '--base-url', service.url, '--retries', '0'], viaProxy),
      await bin(
        [
          'load',
          'dump.nt',
          '--endpoint',
          `${store.baseUrl}/ds`,
          '--graph',
          'http://example.org/p',
          '--state',
          'p.load.json',
          '--retries',
          '0',
          '--json',
        ],
        viaProxy,
      ),
    ];
    for (const r of runs) {
      expect(r.code, r.stderr).not.toBe(0);
      // The proxy's answer is told (its status and words), without the credentials.
      expect(r.stdout + r.stderr).toMatch(/502/);
    }
    expect(runs[0]!.stdout).toMatch(/^\{"command":"export"/);
  });

  it('nothing printed and no file written holds a secret in any form', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const { what, text } of printed) expectNoSecret(what, text);
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(dir);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expectNoSecret(f, readFileSync(f).toString('latin1'));
  });
});
