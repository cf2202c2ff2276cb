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
