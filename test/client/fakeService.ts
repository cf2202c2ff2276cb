// A small loopback stand-in of the metadata service for client and export tests:
// paging like the real one (1-based s, nextPage, total "0" past the end, strings everywhere,
// JSON served as text/html), date windows, and scripted faults.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRecord {
  doi: string;
  title: string;
  onlineDate: string;
  [key: string]: unknown;
}

/** What a fault hook may do with one request: nothing (serve normally) or answer itself. */
export type FaultHook = (req: {
  n: number;
  url: URL;
  res: ServerResponse;
  socket: IncomingMessage['socket'];
}) => boolean;

export interface FakeServiceOptions {
  records: FakeRecord[];
  /** Key required (401 otherwise). */
  apiKey?: string;
  /** Called for every request before serving it; return true when it answered. */
  fault?: FaultHook;
  /** Largest s served (deeper pages answer 400). */
  maxStart?: number;
  /** Largest p allowed (403 premium otherwise). */
  maxPageSize?: number;
  /** Delay per request in ms. */
  latencyMs?: number;
  /** Whether to send nextPage. Defaults to true. */
  nextPage?: boolean;
  /** Sends `total` as an empty string (as any scalar of the real service may be). Defaults to false. */
  emptyTotal?: boolean;
  /**
   * Answers as the service does since 2026: a query with no hits is a 404 with
   * `{"status":"Fail","message":"No data was found for the given query."}`;
   * `'past-end'` answers so for a page past the end of a query with hits too.
   * Defaults to false (a 200 with total "0", as recorded until 2024).
   */
  empty404?: boolean | 'past-end';
}

/** The 2026 body of a query with no hits (as a maintained client's failing test recorded it). */
export const NO_DATA_404_BODY = '{"status":"Fail","message":"No data was found for the given query."}';

export interface FakeService {
  url: string;
  requests: URL[];
  /** Most requests in flight at once so far (from arrival to the end of the answer). */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export function makeRecords(n: number, opts: { startYear?: number } = {}): FakeRecord[] {
  const out: FakeRecord[] = [];
  const startYear = opts.startYear ?? 2020;
  for (let i = 0; i < n; i++) {
    const day = i % 28;
    const month = Math.floor(i / 28) % 12;
    const year = startYear + Math.floor(i / (28 * 12));
    out.push({
      contentType: 'Article',
      identifier: `doi:10.1000/test.${i}`,
      doi: `10.1000/test.${i}`,
      title: `Record number ${i} – Ünïcödé`,
      creators: [{ creator: `Author, A${i}` }],
      publicationName: 'Journal of Tests',
      publisher: 'Springer',
      publicationDate: `${year}-${String(month + 1).padStart(2, '0')}-${String(day + 1).padStart(2, '0')}`,
      onlineDate: `${year}-${String(month + 1).padStart(2, '0')}-${String(day + 1).padStart(2, '0')}`,
      publicationType: 'Journal',
      issn: '1234-5678',
      volume: '1',
      number: '2',
      startingPage: String(i + 1),
      endingPage: String(i + 2),
      genre: ['OriginalPaper'],
      openaccess: 'false',
    });
  }
  return out;
}

function filter(records: FakeRecord[], q: string): FakeRecord[] {
  const from = /onlinedatefrom:(\S+)/.exec(q)?.[1];
  const to = /onlinedateto:(\S+)/.exec(q)?.[1];
  const doi = /^doi[:=]"?([^"]+)"?$/.exec(q.trim())?.[1];
  return records.filter(
    (r) =>
      (!from || r.onlineDate >= from) &&
      (!to || r.onlineDate <= to) &&
      (!doi || r.doi.toLowerCase() === doi.toLowerCase()),
  );
}

/** What a fake service counts of the requests it saw, however they came (loopback HTTP or in-process). */
interface ServiceTally {
  requests: URL[];
  n: number;
  inFlight: number;
  maxInFlight: number;
}

/** Answers one request of the fake service on `res` (a fault hook may answer instead). */
function serve(
  options: FakeServiceOptions,
  tally: ServiceTally,
  rawUrl: string | undefined,
  res: ServerResponse,
  socket: IncomingMessage['socket'],
): void {
  const url = new URL(rawUrl ?? '/', 'http://127.0.0.1');
  tally.requests.push(url);
  const index = tally.n++;
  if (options.fault?.({ n: index, url, res, socket })) return;
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html;charset=utf-8', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  if (!['/meta/v2/json', '/meta/v1/json', '/metadata/v1/articles', '/openaccess/json'].includes(url.pathname))
    return send(404, '<html>Not Found</html>');
  const key = url.searchParams.get('api_key');
  if (options.apiKey !== undefined && key !== options.apiKey) {
    return send(401, {
      status: 'Fail',
      message: 'Authentication failed. API key is invalid or missing',
      error: {
        error: 'Unauthorized',
        error_description: 'API key is invalid or missing. Ensure that a valid API key is included in the request URL.',
      },
    });
  }
  const q = url.searchParams.get('q');
  if (q === null) return send(400, { status: 'Fail', message: "Missing required query parameter: 'q'" });
  const sRaw = url.searchParams.get('s') ?? '1';
  const pRaw = url.searchParams.get('p') ?? '10';
  if (!/^\d+$/.test(sRaw) || !/^\d+$/.test(pRaw))
    return send(400, { status: 'Fail', message: 'Invalid parameters found' });
  const s = Number(sRaw);
  const p = Number(pRaw);
  if (p > (options.maxPageSize ?? 100)) {
    return send(403, {
      status: 'Fail',
      message: 'Access to this premium feature is restricted. Please upgrade your plan.',
    });
  }
  if (options.maxStart !== undefined && s > options.maxStart)
    return send(400, { status: 'Fail', message: 'Invalid parameters found' });
  const matching = filter(options.records, q);
  const pageRecords = matching.slice(s - 1, s - 1 + p);
  const pastEnd = pageRecords.length === 0;
  if (options.empty404 && (matching.length === 0 || (pastEnd && options.empty404 === 'past-end')))
    return send(404, NO_DATA_404_BODY);
  const body: Record<string, unknown> = {
    apiMessage: 'This JSON was provided by Springer Nature',
    query: q,
    apiKey: key ?? '',
    result: [
      {
        total: options.emptyTotal ? '' : pastEnd ? '0' : String(matching.length),
        start: String(s),
        pageLength: String(p),
        recordsDisplayed: String(pageRecords.length),
      },
    ],
    records: pageRecords,
    facets: [{ name: 'type', values: pastEnd ? [] : [{ value: 'Journal', count: String(matching.length) }] }],
  };
  if (options.nextPage !== false && s + p <= matching.length) {
    body['nextPage'] = `/meta/v2/json?q=${encodeURIComponent(q)}&s=${s + p}&p=${p}&api_key=${key ?? ''}&callback=`;
  }
  send(200, body);
}

export async function startFakeService(options: FakeServiceOptions): Promise<FakeService> {
  const tally: ServiceTally = { requests: [], n: 0, inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    tally.maxInFlight = Math.max(tally.maxInFlight, ++tally.inFlight);
    res.on('close', () => tally.inFlight--);
    const handle = () => serve(options, tally, req.url, res, req.socket);
    if (options.latencyMs) setTimeout(handle, options.latencyMs);
    else handle();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: tally.requests,
    get maxInFlight() {
      return tally.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Time for a test that must not depend on the speed of the machine: it moves only when everything
 * in the process waits for it. `sleep` (the client's) and `now` (its pacer's) read it; {@link run}
 * moves it to the next timer once the process has had a few turns of its event loop with nothing
 * else to do. With an in-process service ({@link virtualService}: no socket, no real timer) what
 * a run does is then the same on a quiet and on a loaded machine, to the millisecond.
 */
export class VirtualClock {
  private time = 0;
  private seq = 0;
  private readonly timers: { at: number; seq: number; fire: () => void }[] = [];

  /** The time now, ms. */
  readonly now = (): number => this.time;

  /** Waits `ms` of this clock (or until `signal` aborts). */
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        const i = this.timers.indexOf(timer);
        if (i >= 0) this.timers.splice(i, 1);
        reject(signal!.reason as Error);
      };
      const timer = {
        at: this.time + Math.max(0, ms),
        seq: this.seq++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(timer);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  /** Runs `body` to its end, moving the clock whenever the process has nothing else to do. */
  async run<T>(body: () => Promise<T>): Promise<T> {
    let settled = false;
    const result = body().finally(() => {
      settled = true;
    });
    result.catch(() => undefined);
    while (!settled) {
      // a few turns of the event loop: promises, and what a Response's body stream does between them
      for (let i = 0; i < 8 && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
      if (settled || this.timers.length === 0) continue;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.time = Math.max(this.time, next.at);
      next.fire();
    }
    return result;
  }
}

/** A fake service answered in this process on a {@link VirtualClock}: its `fetch`, and what it saw. */
export interface VirtualService {
  fetch: typeof globalThis.fetch;
  requests: URL[];
  /** Most requests in flight at once (from the call of `fetch` to its answer). */
  readonly maxInFlight: number;
  /** When each request came and when it was answered (on the clock), with its status. */
  log: { sent: number; answered: number; status: number }[];
}

/**
 * The fake service without a socket: `fetch` serves each request after `latencyMs` of the clock
 * (and fault hooks, `rateLimit`'s on the same clock, as over HTTP; a destroyed socket is a network error).
 */
export function virtualService(options: FakeServiceOptions, clock: VirtualClock): VirtualService {
  const tally: ServiceTally = { requests: [], n: 0, inFlight: 0, maxInFlight: 0 };
  const log: VirtualService['log'] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const sent = clock.now();
    tally.maxInFlight = Math.max(tally.maxInFlight, ++tally.inFlight);
    try {
      if (options.latencyMs) await clock.sleep(options.latencyMs, init?.signal ?? undefined);
      const url = new URL(String(input));
      const answer = await new Promise<Response>((resolve, reject) => {
        let status = 200;
        let headers: Record<string, string> = {};
        const res = {
          writeHead(code: number, h: Record<string, string> = {}) {
            status = code;
            headers = h;
            return res;
          },
          end(body?: string) {
            resolve(new Response(body ?? '', { status, headers }));
          },
        };
        const socket = { destroy: () => reject(new TypeError('fetch failed', { cause: new Error('socket hang up') })) };
        serve(
          options,
          tally,
          url.pathname + url.search,
          res as unknown as ServerResponse,
          socket as unknown as IncomingMessage['socket'],
        );
      });
      log.push({ sent, answered: clock.now(), status: answer.status });
      return answer;
    } finally {
      tally.inFlight--;
    }
  };
  return {
    fetch,
    requests: tally.requests,
    log,
    get maxInFlight() {
      return tally.maxInFlight;
    },
  };
}

/** A seeded pseudo-random source (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fault hook injecting 5xx, 429 + Retry-After, truncated bodies and dropped connections at the given rates. */
export function randomFaults(
  seed: number,
  rates: { error5xx?: number; tooMany?: number; truncated?: number; dropped?: number },
): FaultHook {
  const random = seeded(seed);
  return ({ res, socket }) => {
    const r = random();
    let edge = rates.error5xx ?? 0;
    if (r < edge) {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>Service Unavailable</body></html>');
      return true;
    }
    edge += rates.tooMany ?? 0;
    if (r < edge) {
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
      res.end('{"status":"Fail","message":"Too many requests"}');
      return true;
    }
    edge += rates.truncated ?? 0;
    if (r < edge) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('{"apiMessage":"This JSON was provided by Springer Nature","records":[{"doi":"10.1');
      return true;
    }
    edge += rates.dropped ?? 0;
    if (r < edge) {
      socket.destroy();
      return true;
    }
    return false;
  };
}

/**
 * A fault hook limiting the rate as `serve --rate` does: a token bucket of
 * `rate` tokens refilled at `rate` a second (a second's worth of burst); a
 * request finding it empty is answered 429 with `Retry-After: retryAfter`. Its clock is `now` (ms;
 * defaults to the real one: a `VirtualClock`'s `now` with a `virtualService`).
 * `tooMany` lists the numbers of the requests so answered.
 */
export function rateLimit(
  rate: number,
  retryAfter = 1,
  now: () => number = () => performance.now(),
): FaultHook & { tooMany: number[] } {
  let tokens = rate;
  let at = now();
  const tooMany: number[] = [];
  const hook = ({ n, res }: Parameters<FaultHook>[0]): boolean => {
    const t = now();
    tokens = Math.min(rate, tokens + ((t - at) / 1000) * rate);
    at = t;
    if (tokens >= 1) {
      tokens -= 1;
      return false;
    }
    tooMany.push(n);
    res.writeHead(429, { 'retry-after': String(retryAfter), 'content-type': 'application/json' });
    res.end('{"status":"Fail","message":"Too many requests"}');
    return true;
  };
  return Object.assign(hook, { tooMany });
}

/** Every item of an async iterable, in order. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
