import { afterEach, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/server/FaultInjector.js';
import { sampleCatalogueOptions, startServer, type FaultOptions, type RunningServer } from '../../src/server/index.js';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close(100)));
});

async function serve(faults: FaultOptions, retryAfter?: number): Promise<RunningServer> {
  const s = await startServer({
    ...sampleCatalogueOptions(),
    faults,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
  running.push(s);
  return s;
}

const PATH = '/meta/v2/json?q=type:Journal&p=20&api_key=sample';

/** One request on a fresh connection: the status, or 'reset' when the connection dropped. */
async function statusOf(url: string): Promise<number | 'reset'> {
  try {
    const res = await fetch(url, { headers: { connection: 'close' } });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'reset';
  }
}

async function sequence(s: RunningServer, n: number): Promise<(number | 'reset')[]> {
  const out: (number | 'reset')[] = [];
  for (let i = 0; i < n; i++) out.push(await statusOf(s.url + PATH));
  return out;
}

describe('fault injection', () => {
  it('is off by default', async () => {
    const s = await serve({});
    expect(new Set(await sequence(s, 20))).toEqual(new Set([200]));
  });

  it('is reproducible: the same seed gives the same faults in the same request order', async () => {
    const faults = { seed: 42, failRate: 0.2, throttleRate: 0.2, resetRate: 0.1 };
    const a = await sequence(await serve(faults), 60);
    const b = await sequence(await serve(faults), 60);
    const c = await sequence(await serve({ ...faults, seed: 43 }), 60);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    for (const kind of [200, 429, 'reset'] as const) expect(a).toContain(kind);
    expect(a.some((x) => x === 500 || x === 503)).toBe(true);
  });

  it('decides per request from the seed and the request number alone', () => {
    const one = new FaultInjector({ seed: 7, failRate: 0.5, truncateRate: 0.5 });
    const two = new FaultInjector({ seed: 7, failRate: 0.5, truncateRate: 0.5 });
    const a = Array.from({ length: 100 }, () => one.next());
    const b = Array.from({ length: 100 }, () => two.next());
    expect(a).toEqual(b);
    const fails = a.filter((d) => d.fail).length;
    expect(fails).toBeGreaterThan(30);
    expect(fails).toBeLessThan(70);
  });

  it('answers 500 or 503 JSON at fail rate 1', async () => {
    const s = await serve({ failRate: 1 });
    const statuses = await sequence(s, 30);
    expect(new Set(statuses)).toEqual(new Set([500, 503]));
    const res = await fetch(s.url + PATH);
    expect(((await res.json()) as { status: string }).status).toBe('Fail');
  });

  it('answers 429 with the configured Retry-After at throttle rate 1', async () => {
    const s = await serve({ throttleRate: 1 }, 2);
    const res = await fetch(s.url + PATH);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    await res.arrayBuffer();
  });

  it('cuts 200 bodies mid-JSON, with a Content-Length that matches the cut body', async () => {
    const s = await serve({ truncateRate: 1 });
    const res = await fetch(s.url + PATH);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(body.startsWith('{"apiMessage"')).toBe(true);
    expect(() => JSON.parse(body)).toThrow();
    // errors are never cut
    const unauthorized = await fetch(`${s.url}/meta/v2/json?q=x&api_key=wrong`);
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as { status: string }).status).toBe('Fail');
  });

  it('drops the connection at reset rate 1', async () => {
    const s = await serve({ resetRate: 1 });
    expect(await statusOf(s.url + PATH)).toBe('reset');
    expect(await statusOf(s.url + PATH)).toBe('reset');
  });

  it('delays answers by the latency', async () => {
    const s = await serve({ latencyMs: 80 });
    const started = performance.now();
    expect(await statusOf(s.url + PATH)).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });
});
