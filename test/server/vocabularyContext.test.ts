/**
 * The served vocabulary term in JSON-LD reads the same in any JSON-LD 1.1 processor: its @context is inline
 * and defines every prefix the document uses (`owl:` included, which SciGraph's published context, the URL the
 * term named before, lacks: a processor read `owl:equivalentProperty` as a relative IRI). jsonld.js, allowed to
 * fetch nothing but the local service, gives the shipped graph. (Python rdflib: test/integration/termContext.test.ts.)
 */
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/startServer.js';
import { expectIsomorphic, parseNQuads, parseNTriples } from '../helpers/rdf.js';
import { vocabFile } from '../vocabulary/vocabServer.js';

let service: RunningServer;
beforeAll(async () => {
  service = await startServer();
});
afterAll(() => service.close(0));

describe('the served term in JSON-LD', () => {
  it('expands in jsonld.js with a context the local service answers, to the shipped graph', async () => {
    const url = `${service.url}/vocab/pagination`;
    const res = await fetch(url, { headers: { accept: 'application/ld+json' } });
    expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const doc = (await res.json()) as Record<string, unknown>[];
    const context = doc[0]!['@context'] as Record<string, unknown>;
    expect(context.owl).toBe('http://www.w3.org/2002/07/owl#');
    const fetched: string[] = [];
    const documentLoader = async (u: string) => {
      // Nothing but the local service.
      if (!u.startsWith(`${service.url}/`)) throw new Error(`fetch outside the local service: ${u}`);
      fetched.push(u);
      const r = await fetch(u, { headers: { accept: 'application/ld+json' } });
      if (!r.ok) throw new Error(`${u}: HTTP ${r.status}`);
      return { contextUrl: undefined, documentUrl: u, document: await r.json() };
    };
    const nquads = (await jsonld.toRDF(
      doc as never,
      { base: url, format: 'application/n-quads', documentLoader, safe: true } as never,
    )) as unknown as string;
    expect(fetched).toEqual([]);
    expect(nquads).not.toMatch(/<owl:|<rdf:|<schema:|<dcterms:/);
    expectIsomorphic(parseNQuads(nquads), parseNTriples(vocabFile('pagination.nt')), 'served JSON-LD');
  });
});
