import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/ApiClient.js';
import { proxyFetch, proxySettings } from '../../src/http/proxyFetch.js';
import { StoreHttpClient } from '../../src/store/StoreHttpClient.js';
import { type LoopbackProxy, startLoopbackProxy } from './loopbackProxy.js';

let target: Server;
let port = 0;
let proxy: LoopbackProxy;

beforeAll(async () => {
  target = createServer((req, res) => res.end(`target saw ${req.url}`));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  proxy = await startLoopbackProxy();
});
afterAll(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise<void>((r) => target.close(() => r()));
});
afterEach(() => {
  proxy.seen.length = 0;
  proxy.answer = undefined;
  vi.unstubAllGlobals();
});

describe('proxySettings', () => {
  it('is undefined without a proxy variable (NO_PROXY alone names none)', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ NO_PROXY: 'example.org', HTTP_PROXY: '' })).toBeUndefined();
  });

  it('reads both forms, the lower-case one first, an empty one as unset', () => {
    expect(
      proxySettings({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2', NO_PROXY: 'a', no_proxy: 'b' }),
    ).toEqual({ httpProxy: 'http://lower:2', httpsProxy: undefined, noProxy: 'b' });
    expect(proxySettings({ HTTPS_PROXY: 'http://upper:1', https_proxy: '' })).toEqual({
      httpProxy: undefined,
      httpsProxy: 'http://upper:1',
      noProxy: '',
    });
  });

  it('takes a proxy without a scheme as http://', () => {
    expect(proxySettings({ HTTPS_PROXY: 'proxy.example:3128' })?.httpsProxy).toBe('http://proxy.example:3128');
  });

  it('refuses a proxy that is no URL, naming the variable, never its password', () => {
    expect(() => proxySettings({ https_proxy: 'http://user:S3cret@[bad' })).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('HTTPS_PROXY') }),
    );
    try {
      proxySettings({ https_proxy: 'http://user:S3cret@[bad' });
    } catch (err) {
      expect((err as Error).message).not.toContain('S3cret');
    }
    expect(() => proxySettings({ HTTP_PROXY: 'ftp://proxy.example' })).toThrow(
      /must be an http, https or socks5 URL, not ftp:/,
    );
  });
});

describe('proxyFetch', () => {
  const url = () => `http://127.0.0.1:${port}/x?y=1`;

  it('sends http: requests to the proxy in absolute-form', async () => {
    const response = await proxyFetch({ HTTP_PROXY: proxy.url })(url());
    expect(await response.text()).toBe('target saw /x?y=1');
    expect(proxy.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${url()}`]);
  });

  it('goes straight to a host NO_PROXY names (with or without its port), and to every host with *', async () => {
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${port}`, 'example.org, 127.0.0.1', '*']) {
      const response = await proxyFetch({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy })(url());
      expect(await response.text()).toBe('target saw /x?y=1');
    }
    expect(proxy.seen).toEqual([]);
  });

  it('proxies loopback hosts NO_PROXY does not name: localhost is not 127.0.0.1, another port is another entry', async () => {
    for (const noProxy of ['localhost', '127.0.0.1:1', '']) {
      await (await proxyFetch({ http_proxy: proxy.url, no_proxy: noProxy })(url())).text();
    }
    await (await proxyFetch({ HTTP_PROXY: proxy.url })(`http://localhost:${port}/l`)).text();
    expect(proxy.seen.map((r) => r.url)).toEqual([url(), url(), url(), `http://localhost:${port}/l`]);
  });

  it('takes HTTPS_PROXY for https: URLs only, and HTTP_PROXY for both when there is no HTTPS_PROXY', async () => {
    await (await proxyFetch({ HTTPS_PROXY: proxy.url })(url())).text();
    expect(proxy.seen).toEqual([]); // http: goes straight
    // https: through a CONNECT tunnel (the target speaks no TLS: the request fails after the tunnel).
    await expect(proxyFetch({ HTTP_PROXY: proxy.url })(`https://127.0.0.1:${port}/s`)).rejects.toThrow();
    expect(proxy.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`CONNECT 127.0.0.1:${port}`]);
  });

  it('reads the variables at each call', async () => {
    const env: Record<string, string | undefined> = {};
    const fetch = proxyFetch(env);
    await (await fetch(url())).text();
    env['HTTP_PROXY'] = proxy.url;
    await (await fetch(url())).text();
    expect(proxy.seen).toHaveLength(1);
  });

  it('sends the user and password of the proxy URL as Proxy-Authorization', async () => {
    const withUser = proxy.url.replace('http://', 'http://me:pr%40xy@');
    await (await proxyFetch({ HTTP_PROXY: withUser })(url())).text();
    expect(proxy.seen[0]?.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('me:pr@xy').toString('base64')}`);
  });

  it('is the global fetch (looked up at each call) when no proxy is set', async () => {
    const stub = vi.fn(async () => new Response('stubbed'));
    vi.stubGlobal('fetch', stub);
    expect(await (await proxyFetch({ NO_PROXY: '*' })(url())).text()).toBe('stubbed');
    expect(stub).toHaveBeenCalledOnce();
  });

  it('rejects (does not throw) with a usage error when a variable names no proxy; the clients stop at once with it', async () => {
    const call = proxyFetch({ HTTP_PROXY: 'http://[bad' });
    let promise: Promise<Response> | undefined;
    expect(() => (promise = call(url()))).not.toThrow();
    await expect(promise).rejects.toMatchObject({ code: 'usage' });
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: call, sleep: async () => undefined });
    await expect(client.fetchPage({ q: 'x', s: 1, p: 1 })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('the proxy in HTTP_PROXY is not a URL'),
    });
    expect(client.retries).toBe(0);
    const store = new StoreHttpClient({ fetch: call, sleep: async () => undefined });
    await expect(store.request({ method: 'GET', url: url() })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('the proxy in HTTP_PROXY is not a URL'),
    });
  });
});
