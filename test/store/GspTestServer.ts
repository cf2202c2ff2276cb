/**
 * A loopback SPARQL Graph Store + Update + Query server for the loader's tests,
 * with Fuseki's URL layout (`/ds/data?graph=`, `/ds/update`, `/ds/query`). It
 * keeps each graph as a set of N-Triples lines (parsed by n3, not by our code),
 * records every request, and can be told to fail, to lose triples, and to ask
 * for Basic or Digest credentials (checked here independently of src/).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as RDF from '@rdfjs/types';
import { Parser, Writer } from 'n3';

export interface RecordedRequest {
  method: string;
  path: string;
  graph: string | null;
  /** The request's query parameters other than graph, query and update (a proxy's key, say). */
  extraParams: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  /** Triples in the body (Graph Store POST/PUT). */
  triples: number;
  /** The first triple of the body, as N-Triples (to tell chunks apart). */
  firstTriple?: string;
  /** The SPARQL query or update. */
  sparql?: string;
  status: number;
}

/** A scripted answer for the next Graph Store write: a status (+ headers), or a dropped connection. */
export type Fault = { status: number; headers?: Record<string, string>; body?: string } | 'reset';

function ntriplesOf(quad: RDF.Quad): string {
  const w = new Writer({ format: 'N-Triples' });
  return (w as unknown as { quadToString(s: RDF.Term, p: RDF.Term, o: RDF.Term): string })
    .quadToString(quad.subject, quad.predicate, quad.object)
    .trim();
}

export class GspTestServer {
  readonly graphs = new Map<string, Set<string>>();
  readonly requests: RecordedRequest[] = [];
  /** Answers for the next Graph Store writes, in order (then normal service). */
  readonly faults: Fault[] = [];
  /** A scripted answer by the number (1-based) of the Graph Store write, after `faults`. */
  faultFor: ((write: number) => Fault | undefined) | undefined;
  /** A scripted answer to every SPARQL query (the count), while set. */
  queryFault: Exclude<Fault, 'reset'> | undefined;
  /** Never answer a SPARQL query (a count a busy store does not answer): the request stays open. */
  silentQueries = false;
  private writeCount = 0;
  /** Drop this many triples of each later write silently (to provoke a count mismatch). */
  loseTriples = 0;
  /** Answer `ASK FROM <g> WHERE { triple }` (else 400, as a store that cannot). */
  answersAsk = true;
  /** Acknowledge the Graph Store writes of these numbers (1-based) and keep none of their triples. */
  readonly dropWrites = new Set<number>();
  /** COUNT answers as Virtuoso writes them (`typed-literal`). */
  typedLiteralCounts = false;
  /** Ask for credentials. */
  auth: { scheme: 'basic' | 'digest'; user: string; password: string } | undefined;
  private server: Server | undefined;
  private nonces = new Set<string>();
  baseUrl = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => {
        res.statusCode = 500;
        res.end(String(err.stack));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The Fuseki-style dataset URL. */
  get dataset(): string {
    return `${this.baseUrl}/ds`;
  }

  graphSize(graph: string): number {
    return this.graphs.get(graph)?.size ?? 0;
  }

  /** Graph Store writes (POST/PUT) recorded so far. */
  get writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/ds/data' && (r.method === 'POST' || r.method === 'PUT'));
  }

  private checkAuth(req: IncomingMessage): boolean {
    if (!this.auth) return true;
    const header = req.headers.authorization ?? '';
    if (this.auth.scheme === 'basic') {
      return header === `Basic ${Buffer.from(`${this.auth.user}:${this.auth.password}`).toString('base64')}`;
    }
    if (!header.startsWith('Digest ')) return false;
    const p: Record<string, string> = {};
    for (const m of header.slice(7).matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g)) p[m[1]!] = m[2] ?? m[3]!;
    if (!p['nonce'] || !this.nonces.has(p['nonce']) || p['username'] !== this.auth.user) return false;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const ha1 = md5(`${this.auth.user}:test-realm:${this.auth.password}`);
    const ha2 = md5(`${req.method}:${p['uri']}`);
    if (p['uri'] !== req.url) return false;
    return p['response'] === md5(`${ha1}:${p['nonce']}:${p['nc']}:${p['cnonce']}:auth:${ha2}`);
  }

  private challenge(res: ServerResponse): void {
    res.statusCode = 401;
    if (this.auth!.scheme === 'basic') {
      res.setHeader('WWW-Authenticate', 'Basic realm="test-realm"');
    } else {
      const nonce = randomBytes(8).toString('hex');
      this.nonces.add(nonce);
      res.setHeader(
        'WWW-Authenticate',
        `Digest realm="test-realm", domain="/ds", nonce="${nonce}", opaque="op", stale="false", qop="auth", algorithm="MD5"`,
      );
    }
    res.end();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url!, this.baseUrl);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const rec: RecordedRequest = {
      method: req.method!,
      path: url.pathname,
      graph: url.searchParams.get('graph'),
      extraParams: Object.fromEntries([...url.searchParams].filter(([k]) => !['graph', 'query', 'update'].includes(k))),
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
      triples: 0,
      status: 0,
    };
    this.requests.push(rec);
    const reply = (status: number, text = '', headers: Record<string, string> = {}) => {
      rec.status = status;
      res.writeHead(status, headers);
      res.end(text);
    };
    if (!this.checkAuth(req)) {
      rec.status = 401;
      this.challenge(res);
      return;
    }
    if (url.pathname === '/ds/data') {
      const graph = rec.graph;
      if (!graph) return reply(400, 'graph= missing');
      if (req.method === 'DELETE') {
        const had = this.graphs.delete(graph);
        return reply(had ? 204 : 404);
      }
      if (req.method !== 'POST' && req.method !== 'PUT') return reply(405);
      this.writeCount++;
      const fault = this.faults.shift() ?? this.faultFor?.(this.writeCount);
      if (fault === 'reset') {
        rec.status = -1;
        req.socket.destroy();
        return;
      }
      if (fault) return reply(fault.status, fault.body ?? `fault ${fault.status}`, fault.headers);
      const format = rec.contentType?.startsWith('text/turtle') ? 'text/turtle' : 'application/n-triples';
      let quads: RDF.Quad[];
      try {
        quads = new Parser({ format }).parse(body);
      } catch (err) {
        return reply(400, `parse error: ${(err as Error).message}`);
      }
      rec.triples = quads.length;
      rec.firstTriple = quads[0] ? ntriplesOf(quads[0]) : undefined;
      let set = this.graphs.get(graph);
      if (!set || req.method === 'PUT') this.graphs.set(graph, (set = new Set()));
      if (!this.dropWrites.has(this.writeCount)) for (const q of quads.slice(this.loseTriples)) set.add(ntriplesOf(q));
      return reply(set.size === quads.length ? 201 : 204);
    }
    if (url.pathname === '/ds/update' && req.method === 'POST') {
      if (!rec.contentType?.startsWith('application/x-www-form-urlencoded')) return reply(415, 'form POST expected');
      const update = new URLSearchParams(body).get('update') ?? '';
      rec.sparql = update;
      const m = /^DROP SILENT GRAPH <([^>]+)>$/.exec(update.trim());
      if (!m) return reply(400, `unsupported update: ${update}`);
      this.graphs.delete(m[1]!);
      return reply(204);
    }
    if (url.pathname === '/ds/query' && req.method === 'GET') {
      const query = url.searchParams.get('query') ?? '';
      rec.sparql = query;
      if (this.silentQueries) return;
      if (this.queryFault)
        return reply(
          this.queryFault.status,
          this.queryFault.body ?? `fault ${this.queryFault.status}`,
          this.queryFault.headers,
        );
      const ask = /^ASK FROM <([^>]+)> WHERE \{ (.*) \}$/s.exec(query.trim());
      if (ask && this.answersAsk) {
        const [triple] = new Parser({ format: 'application/n-triples' }).parse(`${ask[2]} .`);
        const holds = triple !== undefined && (this.graphs.get(ask[1]!)?.has(ntriplesOf(triple)) ?? false);
        return reply(200, JSON.stringify({ head: {}, boolean: holds }), {
          'content-type': 'application/sparql-results+json',
        });
      }
      const m = /^SELECT \(COUNT\(\*\) AS \?n\) FROM <([^>]+)> WHERE \{ \?s \?p \?o \}$/.exec(query.trim());
      if (!m) return reply(400, `unsupported query: ${query}`);
      const n = String(this.graphSize(m[1]!));
      const binding = this.typedLiteralCounts
        ? { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: n }
        : { type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: n };
      return reply(200, JSON.stringify({ head: { vars: ['n'] }, results: { bindings: [{ n: binding }] } }), {
        'content-type': 'application/sparql-results+json',
      });
    }
    reply(404, 'no such service');
  }
}
