import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestPacer } from '../../src/client/RequestPacer.js';
import { ApiClient } from '../../src/client/ApiClient.js';
import { HttpError, ToolkitError } from '../../src/errors.js';
import { bundleForChild } from '../helpers/bundleForChild.js';
import { makeRecords, startFakeService, type FakeService } from './fakeService.js';

const KEY = 'sEcReT-kEy+/=42';
const noSleep = async () => undefined;
let service: FakeService | undefined;
let raw: Server | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
  if (raw) {
    raw.closeAllConnections();
    await new Promise((r) => raw!.close(r));
  }
  raw = undefined;
});

/** A raw loopback server answering each request with the next scripted handler. */
async function scripted(
  handlers: ((res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void)[],
): Promise<{ url: string; urls: string[] }> {
  const urls: string[] = [];
  let i = 0;
  raw = createServer((req, res) => {
    urls.push(req.url ?? '');
    const h = handlers[Math.min(i++, handlers.length - 1)]!;
    h(res, req);
  });
  await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, urls };
}

const okPage = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(readFileSync(new URL('../fixtures/client/metadata-json-article-metabolomics-2017.json', import.meta.url)));
};

describe('ApiClient', () => {
  describe('fetchPage', () => {
    it('URL-encodes the query, sends 1-based s and p and the key, and parses the string fields', async () => {
      service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
      const client = new ApiClient({ baseUrl: service.url, apiKey: KEY });
      const page = await client.fetchPage({ q: 'keyword:"a b" onlinedatefrom:2020-01-01', s: 1, p: 20 });
      const url = service.requests[0]!;
      expect(url.pathname).toBe('/meta/v2/json');
      expect(url.search).toContain('q=keyword%3A%22a%20b%22%20onlinedatefrom%3A2020-01-01');
      expect(url.searchParams.get('s')).toBe('1');
      expect(url.searchParams.get('p')).toBe('20');
      expect(url.searchParams.get('api_key')).toBe(KEY);
      expect(page.total).toBe(30);
      expect(page.records).toHaveLength(20);
      expect(page.nextStart).toBe(21);
      expect(page.apiMessage).toBe('This JSON was provided by Springer Nature');
      expect(JSON.stringify(page.envelope)).not.toContain(KEY);
      expect(page.envelope['apiKey']).toBeUndefined();
    });

    it("leaves a public key (the sample service's) in texts", async () => {
      service = await startFakeService({
        records: [{ doi: '10.1/x', title: 'a sample of samples', onlineDate: '2020-01-01' }],
      });
      const open = await new ApiClient({ baseUrl: service.url, apiKey: 'sample', keyIsPublic: true }).fetchPage({
        q: 'x',
        s: 1,
        p: 1,
      });
      expect((open.envelope['records'] as { title: string }[])[0]!.title).toBe('a sample of samples');
      const secret = await new ApiClient({ baseUrl: service.url, apiKey: 'sample' }).fetchPage({ q: 'x', s: 1, p: 1 });
      expect((secret.envelope['records'] as { title: string }[])[0]!.title).toBe('a <API_KEY> of samples');
    });

    it('refuses a base URL that is not http(s) or holds a user and password, without showing the password', () => {
      expect(() => new ApiClient({ baseUrl: 'ftp://example.org' })).toThrow(
        expect.objectContaining({ code: 'usage', message: expect.stringContaining('http(s)') }),
      );
      let error: unknown;
      try {
        new ApiClient({ baseUrl: 'http://user:pa55word@127.0.0.1:9/' });
      } catch (err) {
        error = err;
      }
      expect(error).toMatchObject({ code: 'usage' });
      expect((error as Error).message).not.toContain('pa55word');
    });

    it('stops at once with a usage error when fetch refuses the port, without retries', async () => {
      let retries = 0;
      const client = new ApiClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'k3y-not-shown',
        onRetry: () => retries++,
        sleep: async () => {},
      });
      const error = await client.fetchPage({ q: 'x', s: 1, p: 1 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'usage', message: expect.stringContaining('fetch refuses this port') });
      expect((error as Error).message).not.toContain('k3y-not-shown');
      expect(retries).toBe(0);
    });

    it('uses the chosen endpoint', async () => {
      service = await startFakeService({ records: makeRecords(3) });
      await new ApiClient({ baseUrl: service.url, endpoint: 'meta-v1' }).fetchPage({ q: 'x', s: 1, p: 2 });
      await new ApiClient({ baseUrl: service.url, endpoint: 'metadata-v1' }).fetchPage({ q: 'x', s: 1, p: 2 });
      expect(service.requests.map((u) => u.pathname)).toEqual(['/meta/v1/json', '/metadata/v1/articles']);
    });

    it('decodes UTF-8 served as text/html and reads the past-the-end page', async () => {
      const past = readFileSync(
        new URL('../fixtures/client/meta-v1-2015-empty-page-beyond-total-s801.json', import.meta.url),
      );
      const { url } = await scripted([
        okPage,
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
          res.end(past);
        },
      ]);
      const client = new ApiClient({ baseUrl: url });
      const page = await client.fetchPage({ q: 'doi:10.1007/s11306-017-1242-7', s: 1, p: 1 });
      expect((page.records[0]!['creators'] as { creator: string }[])[3]!.creator).toBe('Cañueto, Daniel');
      const empty = await client.fetchPage({ q: 'date:2015-09-08', s: 801, p: 100 });
      expect(empty.total).toBe(0);
      expect(empty.records).toEqual([]);
    });

    it('rejects a 0-based start and an oversized page before sending', async () => {
      const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9' });
      await expect(client.fetchPage({ q: 'x', s: 0, p: 10 })).rejects.toMatchObject({ code: 'usage' });
      await expect(client.fetchPage({ q: 'x', s: 1, p: 101 })).rejects.toMatchObject({ code: 'usage' });
    });

    it('retries 5xx, 429 (honouring Retry-After), truncated and non-JSON bodies and resets, then succeeds', async () => {
      const { url, urls } = await scripted([
        (res) => {
          res.writeHead(503);
          res.end('busy');
        },
        (res) => {
          res.writeHead(429, { 'retry-after': '7' });
          res.end('{"message":"Too many"}');
        },
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('{"records":[{"doi":"10.1');
        },
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>maintenance</html>');
        },
        (res, req) => {
          req.socket.destroy();
        },
        (res) => {
          res.writeHead(200, { 'content-length': '5000' });
          res.write('{"records":[');
          setTimeout(() => res.socket?.destroy(), 10);
        },
        okPage,
      ]);
      const delays: number[] = [];
      const events: string[] = [];
      const client = new ApiClient({
        baseUrl: url,
        apiKey: KEY,
        retryPolicy: { retries: 6, random: () => 0 },
        sleep: async (ms) => {
          delays.push(ms);
        },
        onRetry: (e) => events.push(`${e.attempt} ${e.reason} ${e.url}`),
      });
      const page = await client.fetchPage({ q: 'doi:x', s: 1, p: 1 });
      expect(page.records).toHaveLength(1);
      expect(urls).toHaveLength(7);
      expect(delays[1]).toBe(7000);
      expect(delays.filter((_, i) => i !== 1)).toEqual([250, 1000, 2000, 4000, 8000]);
      expect(client.retries).toBe(6);
      expect(events.join('\n')).not.toContain(KEY);
      expect(events.join('\n')).toContain('network');
    });

    it('gives up after --retries with a clear error without the key', async () => {
      const { url, urls } = await scripted([
        (res) => {
          res.writeHead(500);
          res.end(`error for ${KEY}`);
        },
      ]);
      const client = new ApiClient({ baseUrl: url, apiKey: KEY, retryPolicy: { retries: 2 }, sleep: noSleep });
      const err = await client.fetchPage({ q: 'x', s: 1, p: 5 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(urls).toHaveLength(3);
      const e = err as HttpError;
      expect(e.code).toBe('http-status');
      expect(e.status).toBe(500);
      expect(e.message).toContain('500');
      expect(`${e.message} ${e.url} ${JSON.stringify(e.details)} ${e.stack}`).not.toContain(KEY);
      expect(e.url).not.toContain('api_key');
    });

    it('stops at once on 401 and 403 premium with the service message, and on 400', async () => {
      service = await startFakeService({ records: makeRecords(3), apiKey: KEY, maxPageSize: 25 });
      const wrong = new ApiClient({ baseUrl: service.url, apiKey: 'wrong-key', sleep: noSleep });
      await expect(wrong.fetchPage({ q: 'x', s: 1, p: 10 })).rejects.toMatchObject({
        code: 'auth',
        message: expect.stringContaining('API key is invalid or missing'),
      });
      const client = new ApiClient({ baseUrl: service.url, apiKey: KEY, sleep: noSleep });
      const premium = await client.fetchPage({ q: 'x', s: 1, p: 50 }).catch((e: ToolkitError) => e);
      expect(premium).toMatchObject({ code: 'plan-limit' });
      expect((premium as Error).message).toContain('premium feature');
      expect((premium as Error).message).not.toContain(KEY);
      expect(service.requests).toHaveLength(2);
    });

    it('stops with code quota when 429 persists', async () => {
      const { url } = await scripted([
        (res) => {
          res.writeHead(429, { 'retry-after': '1' });
          res.end();
        },
      ]);
      const client = new ApiClient({ baseUrl: url, retryPolicy: { retries: 2 }, sleep: noSleep });
      await expect(client.fetchPage({ q: 'x', s: 1, p: 5 })).rejects.toMatchObject({ code: 'quota' });
    });

    it('times out a silent server and aborts through the signal', async () => {
      const { url } = await scripted([() => undefined]);
      const client = new ApiClient({ baseUrl: url, timeoutMs: 50, retryPolicy: { retries: 1 }, sleep: noSleep });
      await expect(client.fetchPage({ q: 'x', s: 1, p: 5 })).rejects.toMatchObject({
        code: 'network',
        message: expect.stringContaining('no answer within'),
      });
      const controller = new AbortController();
      const slow = new ApiClient({ baseUrl: url, timeoutMs: 10_000 });
      const pending = slow.fetchPage({ q: 'x', s: 1, p: 5 }, controller.signal);
      setTimeout(() => controller.abort(), 20);
      await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    });

    it('keeps a ceiling on the request rate', async () => {
      service = await startFakeService({ records: makeRecords(3) });
      const waits: number[] = [];
      const client = new ApiClient({
        baseUrl: service.url,
        rate: 10,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      await Promise.all([1, 2, 3].map(() => client.fetchPage({ q: 'x', s: 1, p: 1 })));
      expect(waits).toHaveLength(2);
      expect(waits[1]!).toBeGreaterThan(150);
    });

    it('tells an observer of pushbacks (429, a quota 403, 5xx; not a plan 403) and of waits on the rate limit', async () => {
      const { url } = await scripted([
        (res) => {
          res.writeHead(429, { 'retry-after': '0' });
          res.end();
        },
        (res) => {
          res.writeHead(502);
          res.end('bad gateway');
        },
        (res) => {
          res.writeHead(403);
          res.end('{"message":"Daily quota exceeded"}');
        },
        okPage,
        (res) => {
          res.writeHead(403);
          res.end('{"message":"Access to this premium feature is restricted."}');
        },
      ]);
      const pushbacks: number[] = [];
      const rateWaits: number[] = [];
      const observer = { onPushback: (s: number) => pushbacks.push(s), onRateWait: (ms: number) => rateWaits.push(ms) };
      const client = new ApiClient({ baseUrl: url, rate: 1, retryPolicy: { retries: 5 }, sleep: noSleep });
      await client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer);
      expect(pushbacks).toEqual([429, 502, 403]);
      expect(rateWaits).toHaveLength(3); // four tries at most one a second (the sleeps return at once)
      expect(rateWaits[0]!).toBeGreaterThan(500);
      await expect(client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer)).rejects.toMatchObject({
        code: 'plan-limit',
      });
      expect(pushbacks).toEqual([429, 502, 403]);
    });
    it('a 429 holds every request of the client for its Retry-After, and paces them at a rate learned from it', async () => {
      const { url } = await scripted([
        ...new Array(20).fill(okPage),
        (res) => {
          res.writeHead(429, { 'retry-after': '3' });
          res.end('{"message":"Too many"}');
        },
        okPage,
      ]);
      const clock = { t: 50_000 };
      const sleeps: number[] = [];
      const rateWaits: number[] = [];
      const client = new ApiClient({
        baseUrl: url,
        pacer: new RequestPacer({ now: () => clock.t }),
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      });
      const observer = { onRateWait: (ms: number) => rateWaits.push(ms) };
      for (let i = 0; i < 20; i++) {
        clock.t += 50; // 20 answers a second
        await client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer);
      }
      expect(sleeps).toEqual([]);
      await client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer); // 429, then waits its Retry-After (not twice)
      expect(sleeps).toEqual([3000]);
      expect(rateWaits).toEqual([]);
      await client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer); // another request waits for the pause too
      expect(rateWaits).toEqual([3000]);
      // 20 answers in the 0.95 s since the first request: at most (1 + 0.95) s worth of the service's rate
      expect(client.pacer.learned).toBeCloseTo(20 / 1.95);
      await client.fetchPage({ q: 'x', s: 1, p: 1 }, undefined, observer); // then goes at the learned rate
      expect(rateWaits[1]).toBeCloseTo(3000 + 1000 / (20 / 1.95));
    });
  });

  describe('getRecord', () => {
    it('finds one record by DOI', async () => {
      service = await startFakeService({ records: makeRecords(5) });
      const client = new ApiClient({ baseUrl: service.url });
      const { record } = await client.getRecord('10.1000/TEST.3');
      expect(record?.['doi']).toBe('10.1000/test.3');
      expect(service.requests[0]!.searchParams.get('q')).toBe('doi:10.1000/TEST.3');
      expect((await client.getRecord('10.1000/none')).record).toBeUndefined();
    });
  });
});

describe('ApiClient: secrets and DOIs in requests', () => {
  it('refuses a base URL with a query or fragment (a key pasted with it), never repeating the key', () => {
    for (const baseUrl of [
      `https://api.example.org/?api_key=${KEY}`,
      `https://api.example.org/#${KEY}`,
      `https://api.example.org/${encodeURIComponent(KEY)}/`,
    ]) {
      let caught: unknown;
      try {
        new ApiClient({ apiKey: KEY, baseUrl });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ToolkitError);
      expect((caught as ToolkitError).code).toBe('usage');
      expect((caught as ToolkitError).message).toContain('`baseUrl`');
      expect((caught as ToolkitError).message).not.toContain(KEY);
      expect((caught as ToolkitError).message).not.toContain(encodeURIComponent(KEY));
    }
    expect(() => new ApiClient({ apiKey: KEY, baseUrl: 'not a url ?api_key=abcdef' })).toThrow(/api_key=\*\*\*/);
  });

  it('looks up a DOI with white space, quotes or a trailing * percent-encoded in the query, and finds its record', async () => {
    const doi = '10.1000/a "b" c*';
    const seen: string[] = [];
    const client = new ApiClient({
      apiKey: KEY,
      fetch: async (input) => {
        const url = new URL(String(input));
        seen.push(url.searchParams.get('q')!);
        return new Response(JSON.stringify({ result: [{ total: '1' }], records: [{ doi, title: 't' }] }), {
          status: 200,
        });
      },
    });
    const { record } = await client.getRecord(doi);
    expect(seen).toEqual(['doi:10.1000/a%20%22b%22%20c%2A']);
    expect(record?.['doi']).toBe(doi);
    // A plain DOI is sent as it is (parentheses, colons, < > included); a % before hex digits is encoded, so it reads back as itself.
    await client.getRecord('10.1002/(SICI)1097-4636(199712)37:4<548::AID-JBM13>3.0.CO;2-A');
    await client.getRecord('10.1000/100%41');
    expect(seen.slice(1)).toEqual([
      'doi:10.1002/(SICI)1097-4636(199712)37:4<548::AID-JBM13>3.0.CO;2-A',
      'doi:10.1000/100%2541',
    ]);
  });
});

describe('ApiClient under NODE_DEBUG', () => {
  it('refuses to send a secret key when NODE_DEBUG makes Node print request URLs (fetch, undici, a pattern), and nothing reaches stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-debug-'));
    try {
      const bundle = await bundleForChild(resolve(import.meta.dirname, '../../src/client/ApiClient.ts'), dir);
      const script = join(dir, 'child.mjs');
      writeFileSync(
        script,
        `import { ApiClient } from ${JSON.stringify(bundle)};
const [key, isPublic] = process.argv.slice(2);
try {
  const client = new ApiClient({ apiKey: key, keyIsPublic: isPublic === 'public', baseUrl: 'http://127.0.0.1:39999', retryPolicy: { retries: 0 } });
  await client.fetchPage({ q: 'x', s: 1, p: 1 }).catch((e) => console.log(e.code));
} catch (e) {
  console.log(e.code, e.message);
}
`,
      );
      for (const debug of ['fetch', 'undici', 'fet*', 'http,UNDICI', '*']) {
        const r = spawnSync(process.execPath, [script, KEY, 'secret'], {
          encoding: 'utf8',
          env: { ...process.env, NODE_DEBUG: debug },
        });
        expect(r.stdout, debug).toMatch(/^usage NODE_DEBUG=.* prints every request URL/);
        expect(r.stdout + r.stderr).not.toContain(KEY);
        expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(KEY));
      }
      // A public key (the sample service's) may be printed; no debug setting: the request goes out (and fails: nothing listens).
      expect(
        spawnSync(process.execPath, [script, 'sample', 'public'], {
          encoding: 'utf8',
          env: { ...process.env, NODE_DEBUG: 'fetch' },
        }).stdout,
      ).toBe('network\n');
      expect(
        spawnSync(process.execPath, [script, KEY, 'secret'], {
          encoding: 'utf8',
          env: { ...process.env, NODE_DEBUG: 'net' },
        }).stdout,
      ).toBe('network\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
