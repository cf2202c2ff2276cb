import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StoreHttpClient } from '../../src/store/StoreHttpClient.js';

const USER = 'loader-user';
const PASSWORD = 'S3cret/pass+word=';

/** Every form a credential takes in text: raw, URL-encoded, base64 (alone and as `user:password`). */
function forms(): string[] {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    USER,
    PASSWORD,
    encodeURIComponent(PASSWORD),
    b64(PASSWORD),
    b64(`${USER}:${PASSWORD}`),
    b64(`${USER}:${PASSWORD}`).replace(/=+$/, ''),
  ];
}

/** A store that asks for Basic, then answers with `status`, its body echoing the request's headers (as some proxies do). */
function echoingStore(status: number): typeof globalThis.fetch {
  return async (_input, init) => {
    const headers = new Headers(init?.headers);
    const auth = headers.get('authorization');
    if (!auth)
      return new Response('login first', { status: 401, headers: { 'www-authenticate': 'Basic realm="store"' } });
    const echo = [...headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    return new Response(
      `<html><body><h1>Refused</h1><pre>${echo}\nuser=${USER} password=${PASSWORD}</pre></body></html>`,
      { status, headers: { 'content-type': 'text/html' } },
    );
  };
}

describe('StoreHttpClient', () => {
  it('keeps the credentials out of its errors when the store echoes the request headers (Basic) in its body', async () => {
    for (const status of [400, 403, 500]) {
      const retries: string[] = [];
      const client = new StoreHttpClient({
        credentials: { user: USER, password: PASSWORD },
        fetch: echoingStore(status),
        retry: { retries: 1 },
        sleep: async () => undefined,
        onRetry: (e) => retries.push(`${e.what} ${e.reason}`),
      });
      const err = await client
        .request({ method: 'POST', url: 'http://store.example/ds/data?graph=g', body: 'x', what: 'POST of chunk 1' })
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(err).toBeInstanceOf(Error);
      const text = `${err!.message} ${JSON.stringify((err as { details?: unknown }).details)} ${retries.join(' ')}`;
      expect(text).toContain('Refused');
      for (const form of forms()) expect(text, `${status}: ${form}`).not.toContain(form);
    }
  });

  it('hides an echoed Digest header', async () => {
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      const auth = new Headers(init?.headers).get('authorization');
      if (!auth)
        return new Response('', {
          status: 401,
          headers: { 'www-authenticate': 'Digest realm="v", nonce="abc", qop="auth", algorithm=MD5' },
        });
      return new Response(`refused: Authorization: ${auth}`, { status: 403 });
    };
    const client = new StoreHttpClient({ credentials: { user: USER, password: PASSWORD }, fetch });
    const err = await client.request({ method: 'GET', url: 'http://store.example/sparql-auth' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err!.message).toContain('Digest');
    expect(err!.message).not.toMatch(new RegExp(`${USER}|response="[0-9a-f]{32}"|cnonce="[0-9a-f]`));
  });
});

describe('StoreHttpClient: a large body', () => {
  it('sends a body of 16 MiB and more whole, with its Content-Length (not chunked), again on a retry, behind Digest', async () => {
    const body = Buffer.alloc(20 * 2 ** 20);
    for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE(i, i);
    const seen: { length: string | undefined; chunked: string | undefined; sha: string; auth: boolean }[] = [];
    const server = createServer((req, res) => {
      const hash = createHash('sha256');
      req.on('data', (c: Buffer) => hash.update(c));
      req.on('end', () => {
        const auth = req.headers.authorization?.startsWith('Digest ') ?? false;
        seen.push({
          length: req.headers['content-length'],
          chunked: req.headers['transfer-encoding'],
          sha: hash.digest('hex'),
          auth,
        });
        if (!auth) {
          res.writeHead(401, { 'www-authenticate': 'Digest realm="store", nonce="n1", qop="auth"' });
          res.end();
          return;
        }
        res.statusCode = seen.filter((s) => s.auth).length === 1 ? 503 : 204;
        res.end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const client = new StoreHttpClient({
        credentials: { user: USER, password: PASSWORD },
        retry: { retries: 2 },
        sleep: async () => undefined,
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ds/data?graph=g`;
      await client.request({ method: 'POST', url, body, headers: { 'content-type': 'application/n-triples' } });
      const sha = createHash('sha256').update(body).digest('hex');
      // The challenge, the 503, the success: each try sends the whole body.
      expect(seen.map((s) => s.auth)).toEqual([false, true, true]);
      for (const s of seen) expect(s).toMatchObject({ length: String(body.length), chunked: undefined, sha });
    } finally {
      server.close();
    }
  });
});
