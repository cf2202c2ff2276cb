/**
 * Loopback HTTP servers for vocabulary tests: a tidy one that serves vocab/
 * by content negotiation (what the local service does), and routes that
 * imitate untidy real servers.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { negotiate } from '../../src/vocabulary/negotiate.js';

export const vocabFile = (file: string): string =>
  readFileSync(new URL(`../../vocab/${file}`, import.meta.url), 'utf8');
export const fixture = (file: string): string =>
  readFileSync(new URL(`../fixtures/vocabulary/${file}`, import.meta.url), 'utf8');

/** The shipped term by media type. */
export const SHIPPED: Record<string, { ext: string; body: () => string }> = {
  'application/ld+json': { ext: 'jsonld', body: () => vocabFile('pagination.jsonld') },
  'application/n-triples': { ext: 'nt', body: () => vocabFile('pagination.nt') },
  'text/turtle': { ext: 'ttl', body: () => vocabFile('pagination.ttl') },
  'application/rdf+xml': { ext: 'rdf', body: () => vocabFile('pagination.rdf') },
};
const BY_EXT = Object.fromEntries(Object.entries(SHIPPED).map(([type, v]) => [v.ext, { type, body: v.body }]));

/** Every request the server saw (method, url, accept). */
export interface SeenRequest {
  url: string;
  accept: string | undefined;
}

export interface VocabServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Serves /vocab/pagination by negotiate() (406 when nothing fits), plus the untidy routes below. */
export async function startVocabServer(): Promise<VocabServer> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', accept: req.headers.accept });
    try {
      route(req, res);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  type: string | undefined,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...(type ? { 'content-type': type } : {}), ...headers });
  res.end(body);
}

function negotiated(req: IncomingMessage, res: ServerResponse): void {
  const type = negotiate(req.headers.accept, Object.keys(SHIPPED));
  if (!type) return send(res, 406, 'text/plain', `406: offered ${Object.keys(SHIPPED).join(', ')}`);
  send(res, 200, `${type}; charset=utf-8`, SHIPPED[type]!.body(), { vary: 'Accept' });
}

function route(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0]!;
  const ext = /\.(jsonld|ttl|nt|rdf)$/.exec(path)?.[1];
  switch (path) {
    // The tidy service (what `serve` does).
    case '/vocab/pagination':
      return negotiated(req, res);
    // Wrong Content-Types: the body must win.
    case '/xml-for-turtle/pagination':
      return send(res, 200, 'application/xml', vocabFile('pagination.ttl'));
    case '/x-turtle/pagination':
      return send(res, 200, 'application/x-turtle', vocabFile('pagination.ttl'));
    case '/plain/pagination':
      return send(res, 200, 'text/plain; charset=utf-8', vocabFile('pagination.nt'));
    case '/json/pagination':
      return send(res, 200, 'application/json', vocabFile('pagination.jsonld'));
    case '/turtle-for-rdfxml/pagination':
      return send(res, 200, 'text/turtle', vocabFile('pagination.rdf'));
    case '/no-type/pagination':
      return send(res, 200, undefined, vocabFile('pagination.nt'));
    // HTML only, the term embedded as JSON-LD (like schema.org).
    case '/html/pagination':
      return send(res, 200, 'text/html; charset=utf-8', fixture('schemaorg-pagination.html'));
    // HTML without RDF, pointing to Turtle and RDF/XML by Link headers.
    case '/link/pagination':
      return send(res, 200, 'text/html', '<!DOCTYPE html><html><body>see the alternates</body></html>', {
        link: '</link/pagination.ttl>; rel="alternate"; type="text/turtle", </link/pagination.rdf>; rel="alternate"; type="application/rdf+xml", </style.css>; rel="stylesheet"',
      });
    // HTML without RDF, pointing to JSON-LD by a <link> element.
    case '/html-link/pagination':
      return send(
        res,
        200,
        'text/html',
        '<!DOCTYPE html><html><head><link rel="alternate" type="application/ld+json" href="pagination.jsonld"></head></html>',
      );
    case '/html-nothing/pagination':
      return send(res, 200, 'text/html', '<!DOCTYPE html><html><body>nothing here</body></html>');
    // Redirects (two hops).
    case '/old/pagination':
      return send(res, 301, undefined, '', { location: '/older/pagination' });
    case '/older/pagination':
      return send(res, 302, undefined, '', { location: '/vocab/pagination' });
    // Errors.
    case '/only-turtle/pagination':
      if (negotiate(req.headers.accept, ['text/turtle']))
        return send(res, 200, 'text/turtle', vocabFile('pagination.ttl'));
      return send(res, 406, 'text/plain', 'Not Acceptable');
    // Accept ignored: Turtle whatever is asked.
    case '/always-turtle/pagination':
      return send(res, 200, 'text/turtle', vocabFile('pagination.ttl'));
    // Negotiated, but the N-Triples answer has one triple more.
    case '/extra-nt/pagination': {
      const type = negotiate(req.headers.accept, Object.keys(SHIPPED));
      if (type !== 'application/n-triples') return negotiated(req, res);
      return send(
        res,
        200,
        type,
        `${vocabFile('pagination.nt')}<http://schema.org/pagination> <http://www.w3.org/2000/01/rdf-schema#comment> "extra" .\n`,
      );
    }
    // Negotiated, every answer broken.
    case '/all-broken/pagination': {
      const type = negotiate(req.headers.accept, Object.keys(SHIPPED)) ?? 'text/turtle';
      return send(
        res,
        200,
        type,
        type === 'application/ld+json'
          ? '{"@context": '
          : type === 'application/rdf+xml'
            ? '<rdf:RDF'
            : '<http://a> <http://b> "no end',
      );
    }
    case '/missing/pagination':
      return send(res, 404, 'text/html', '<html><body>Not Found</body></html>');
    case '/ext/pagination':
      return send(res, 404, 'text/plain', 'Not Found');
    case '/broken/pagination':
      return send(
        res,
        200,
        'text/turtle',
        '@prefix s: <http://schema.org/> .\ns:pagination s:label "x" ;\n ;; oops .\n',
      );
    case '/empty/pagination':
      return send(res, 200, 'application/json', '{"status": "ok", "message": "no such term"}');
    case '/error/pagination':
      return send(res, 503, 'text/plain', 'Service Unavailable', { 'retry-after': '1' });
    case '/slow/pagination':
      // Headers now, the body never (until the client gives up).
      res.writeHead(200, { 'content-type': 'text/turtle' });
      res.write('@prefix s: <http://schema.org/> .\n');
      return;
    case '/slow-headers/pagination':
      return; // never answers
  }
  if (
    ext &&
    (path.startsWith('/link/') ||
      path.startsWith('/html-link/') ||
      path.startsWith('/ext/') ||
      path.startsWith('/vocab/'))
  ) {
    const file = BY_EXT[ext]!;
    // Served with a generic type, as static file servers do for unknown extensions.
    return send(res, 200, path.startsWith('/ext/') ? 'application/octet-stream' : file.type, file.body());
  }
  send(res, 404, 'text/plain', 'Not Found');
}
