/**
 * The server never crashes on a request: thousands of random requests
 * (random paths, methods, parameters, percent-encodings, queries, Accept
 * headers, and raw garbage on the socket) on loopback, each answered with a
 * clean status and, for JSON answers, a body that parses.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/sample/SeededRandom.js';
import { sampleCatalogueOptions, startServer, type RunningServer } from '../../src/server/index.js';

const rng = new SeededRandom(20260322);
let server: RunningServer;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  server = await startServer({ ...sampleCatalogueOptions(), apiKeys: ['sample:premium', 'basic'], rate: 0 });
  port = server.port;
});
afterAll(async () => {
  agent.destroy();
  await server.close(100);
});

const PATHS = [
  '/meta/v2/json',
  '/meta/v1/json',
  '/metadata/json',
  '/metadata/v1/articles',
  '/vocab/pagination',
  '/vocab/',
  '/vocab/x',
  '/',
  '/meta',
  '/meta/v2/json/',
  '//meta/v2/json',
  '/%2e%2e/etc',
  '/vocab/%zz',
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
const PIECES = [
  'year:2015',
  'year:20',
  'doi:10.1007/(SICI)x;2-A',
  'title:"visual analytics"',
  'subject:Life*',
  '"',
  '(',
  ')',
  'AND',
  'OR',
  'NOT',
  '*',
  'name:Müller',
  'café',
  'type:Book',
  'onlinedatefrom:2015-13-01',
  'datefrom:2010',
  'foo:bar',
  'doi=10.1/x',
  '=',
  ':',
  'keyword:',
  '\u0000',
  '\uFFFF',
  '𝒳',
  'openaccess:true',
  'country:Germany',
  '-x',
  'a*b',
  '""',
];
const ACCEPTS = [
  '*/*',
  'text/turtle',
  'application/ld+json;q=0.1, text/*',
  'image/png',
  'garbage',
  ';;;',
  'text/turtle;q=abc',
  '*/*;q=0',
  '',
];

function randomQuery(): string {
  const n = rng.int(0, 8);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(rng.pick(PIECES));
  return parts.join(rng.chance(0.8) ? ' ' : '');
}

function randomValue(): string {
  const roll = rng.next();
  if (roll < 0.3) return encodeURIComponent(randomQuery());
  if (roll < 0.45) return String(rng.int(-5, 200));
  if (roll < 0.55) return rng.pick(['%', '%z', '%E0%A4', '%C0%AF', '%00', '+', '%25', '1.5', '1e3', '']);
  if (roll < 0.65) return 'x'.repeat(rng.int(0, 3000));
  let s = '';
  for (let i = rng.int(0, 20); i > 0; i--) s += String.fromCharCode(rng.int(33, 126));
  return s.replace(/[#\s]/g, '');
}

function randomTarget(): string {
  const path = rng.pick(PATHS);
  const names = ['q', 's', 'p', 'api_key', 'callback', 'q', 'x', ''];
  const params: string[] = [];
  if (rng.chance(0.8)) params.push(`api_key=${rng.chance(0.85) ? rng.pick(['sample', 'basic']) : randomValue()}`);
  if (rng.chance(0.85)) params.push(`q=${randomValue()}`);
  for (let i = rng.int(0, 4); i > 0; i--) params.push(`${rng.pick(names)}=${randomValue()}`);
  if (rng.chance(0.05)) params.push('&&==&');
  return params.length > 0 ? `${path}?${params.join('&')}` : path;
}

interface Result {
  status: number;
  type: string;
  body: string;
}

function request(method: string, target: string, accept: string): Promise<Result | 'skipped'> {
  return new Promise((resolve, reject) => {
    let req: http.ClientRequest;
    try {
      req = http.request(
        { host: '127.0.0.1', port, method, path: target, agent, headers: accept ? { accept } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              type: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
    } catch {
      resolve('skipped'); // the client library refused the target (unescaped characters)
      return;
    }
    req.on('error', reject);
    req.end(method === 'POST' || method === 'PUT' ? 'body' : undefined);
  });
}

function rawExchange(bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(bytes, () => socket.end());
    socket.setTimeout(2000, () => socket.destroy());
  });
}

describe('fuzz: random requests', () => {
  it('answers 3,000 random requests cleanly and keeps serving', async () => {
    const allowed = new Set([200, 400, 401, 403, 404, 405, 406, 429]);
    const statuses = new Map<number, number>();
    let skipped = 0;
    const total = 3000;
    let next = 0;
    const worker = async () => {
      while (next < total) {
        next++;
        const method = rng.pick(METHODS);
        const target = randomTarget();
        const result = await request(method, target, rng.pick(ACCEPTS));
        if (result === 'skipped') {
          skipped++;
          continue;
        }
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        expect(allowed.has(result.status), `${method} ${target} -> ${result.status}`).toBe(true);
        if (method !== 'HEAD' && result.type.startsWith('application/json')) {
          expect(() => JSON.parse(result.body), `${method} ${target}`).not.toThrow();
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(skipped).toBeLessThan(total / 10);
    for (const status of [200, 400, 401, 404, 405]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    const health = await request('GET', '/meta/v2/json?q=year:2015&api_key=sample', '');
    expect(health !== 'skipped' && health.status).toBe(200);
  });

  it('answers raw garbage on the socket with 400 or closes, and keeps serving', async () => {
    for (let i = 0; i < 200; i++) {
      const len = rng.int(1, 300);
      const bytes = Buffer.alloc(len);
      for (let k = 0; k < len; k++) bytes[k] = rng.int(0, 255);
      const prefix = rng.chance(0.5)
        ? Buffer.from(`GET /meta/v2/json?q=${'%'.repeat(rng.int(0, 3))} HTTP/1.1\r\n`)
        : Buffer.alloc(0);
      const answer = await rawExchange(Buffer.concat([prefix, bytes, Buffer.from('\r\n\r\n')]));
      if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 (400|401|404|405|431|200)/);
    }
    const health = await request('GET', '/meta/v2/json?q=year:2015&api_key=sample', '');
    expect(health !== 'skipped' && health.status).toBe(200);
  });
});
