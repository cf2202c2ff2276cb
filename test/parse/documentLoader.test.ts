import { describe, expect, it } from 'vitest';
import { createDocumentLoader, SHIPPED_CONTEXTS, toJsonldJsLoader } from '../../src/parse/documentLoader.js';

const SG = 'https://springernature.github.io/scigraph/jsonld/sgcontext.json';
const OWN = 'https://w3id.org/scholarly-rdf/context.jsonld';

/** A fetch that answers from a table and records the URLs asked for. */
function fakeFetch(table: Record<string, { status?: number; type?: string; body: string; link?: string }>) {
  const asked: string[] = [];
  const fetch = (async (input: string | URL) => {
    const url = String(input);
    asked.push(url);
    const hit = table[url];
    if (!hit) return new Response('not found', { status: 404 });
    const headers: Record<string, string> = { 'content-type': hit.type ?? 'application/ld+json' };
    if (hit.link) headers.link = hit.link;
    return new Response(hit.body, { status: hit.status ?? 200, headers });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

describe('createDocumentLoader', () => {
  it('serves the shipped contexts offline (the term context and the toolkit context)', async () => {
    const loader = createDocumentLoader();
    expect(SHIPPED_CONTEXTS[SG]).toBe('sgcontext.jsonld');
    expect(await loader.load(SG)).toMatchObject({
      '@context': { id: '@id', type: '@type', sdDataset: { '@id': 'sgo:sdDataset' } },
    });
    expect(await loader.load(`${OWN}#ignored-fragment`)).toHaveProperty('@context.schema', 'http://schema.org/');
  });

  it('refuses other URLs unless the network is allowed, naming the URL', async () => {
    const { fetch, asked } = fakeFetch({});
    await expect(createDocumentLoader({ fetch }).load('http://example.org/ctx')).rejects.toMatchObject({
      code: 'network',
      message: expect.stringContaining('http://example.org/ctx'),
    });
    expect(asked).toEqual([]);
  });

  it('fetches, caches, and serves extra documents first when allowed', async () => {
    const { fetch, asked } = fakeFetch({ 'http://example.org/ctx': { body: '{"@context": {"a": "http://a/"}}' } });
    const loader = createDocumentLoader({
      allowNetwork: true,
      fetch,
      documents: { 'http://example.org/extra': { '@context': {} } },
    });
    expect(await loader.load('http://example.org/ctx')).toEqual({ '@context': { a: 'http://a/' } });
    await loader.load('http://example.org/ctx');
    expect(asked).toEqual(['http://example.org/ctx']);
    expect(await loader.load('http://example.org/extra')).toEqual({ '@context': {} });
  });

  it('follows a Link rel="alternate" from an HTML answer (how schema.org serves its context)', async () => {
    const { fetch, asked } = fakeFetch({
      'https://schema.org': {
        type: 'text/html',
        body: '<html></html>',
        link: '</docs/jsonldcontext.jsonld>; rel="alternate"; type="application/ld+json"',
      },
      'https://schema.org/docs/jsonldcontext.jsonld': {
        type: 'application/ld+json',
        body: '{"@context": {"@vocab": "http://schema.org/"}}',
      },
    });
    const doc = await createDocumentLoader({ allowNetwork: true, fetch }).load('https://schema.org');
    expect(doc).toEqual({ '@context': { '@vocab': 'http://schema.org/' } });
    expect(asked).toEqual(['https://schema.org', 'https://schema.org/docs/jsonldcontext.jsonld']);
  });

  it('reports HTTP errors and non-JSON answers', async () => {
    const { fetch } = fakeFetch({ 'http://x/html': { type: 'text/html', body: '<html>' } });
    const loader = createDocumentLoader({ allowNetwork: true, fetch });
    await expect(loader.load('http://x/missing')).rejects.toMatchObject({ code: 'http-status' });
    await expect(loader.load('http://x/html')).rejects.toMatchObject({ code: 'bad-response' });
  });

  it('has a jsonld.js-shaped adapter', async () => {
    const remote = await toJsonldJsLoader(createDocumentLoader())(SG);
    expect(remote).toMatchObject({ contextUrl: null, documentUrl: SG, document: { '@context': expect.any(Object) } });
  });
});
