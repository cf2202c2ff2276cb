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

export async function startFakeService(options: FakeServiceOptions): Promise<FakeService> {
  const requests: URL[] = [];
  let n = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const index = n++;
    if (options.fault?.({ n: index, url, res, socket: req.socket })) return;
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
          error_description:
            'API key is invalid or missing. Ensure that a valid API key is included in the request URL.',
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
  };
  const server: Server = createServer((req, res) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    res.on('close', () => inFlight--);
    if (options.latencyMs) setTimeout(() => handle(req, res), options.latencyMs);
    else handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
 * request finding it empty is answered 429 with `Retry-After: retryAfter`.
 * `tooMany` lists the numbers of the requests so answered.
 */
export function rateLimit(rate: number, retryAfter = 1): FaultHook & { tooMany: number[] } {
  let tokens = rate;
  let at = performance.now();
  const tooMany: number[] = [];
  const hook = ({ n, res }: Parameters<FaultHook>[0]): boolean => {
    const now = performance.now();
    tokens = Math.min(rate, tokens + ((now - at) / 1000) * rate);
    at = now;
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
