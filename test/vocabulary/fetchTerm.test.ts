import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, ParseError, ToolkitError } from '../../src/errors.js';
import { fetchTerm, type FetchTermOptions } from '../../src/vocabulary/fetchTerm.js';
import { createDocumentLoader } from '../../src/parse/documentLoader.js';
import { expectIsomorphic, parseNTriples, toSortedNQuads } from '../helpers/rdf.js';
import { startVocabServer, vocabFile, type VocabServer } from './vocabServer.js';

const SHIPPED = parseNTriples(vocabFile('pagination.nt'));
let server: VocabServer;
beforeAll(async () => {
  server = await startVocabServer();
});
afterAll(() => server.close());

/** Offline apart from the loopback server: contexts come from vocab/ only. */
const opts = (prefix: string, extra: FetchTermOptions = {}): FetchTermOptions => ({
  vocabUrl: `${server.url}${prefix}`,
  documentLoader: createDocumentLoader(),
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<ToolkitError> {
  try {
    await promise;
  } catch (err) {
    return err as ToolkitError;
  }
  throw new Error('expected a failure');
}

describe('fetchTerm', () => {
  describe('a tidy server', () => {
    for (const [accept, format] of [
      ['application/ld+json', 'jsonld'],
      ['application/n-triples', 'ntriples'],
      ['text/turtle', 'turtle'],
      ['application/rdf+xml', 'rdfxml'],
    ] as const) {
      it(`gets ${accept} and parses it`, async () => {
        const term = await fetchTerm('pagination', opts('/vocab', { accept }));
        expect(term).toMatchObject({
          mediaType: accept,
          format,
          via: 'negotiation',
          url: `${server.url}/vocab/pagination`,
        });
        expect(term.contentType).toBe(`${accept}; charset=utf-8`);
        expect(term.body).toBe(
          vocabFile(`pagination.${{ jsonld: 'jsonld', ntriples: 'nt', turtle: 'ttl', rdfxml: 'rdf' }[format]}`),
        );
        expectIsomorphic(term.quads, SHIPPED);
        expect(server.seen.at(-1)!.accept).toBe(accept);
      });
    }

    it('sends a q-weighted Accept header by default and gets JSON-LD', async () => {
      const term = await fetchTerm('pagination', opts('/vocab'));
      const sent = server.seen.at(-1)!.accept!;
      expect(sent).toMatch(/^application\/ld\+json, text\/turtle;q=0\.9, .*\*\/\*;q=0\.1$/);
      expect(term.mediaType).toBe('application/ld+json');
      expect(term.quads).toHaveLength(10);
    });

    it('takes a format name for accept', async () => {
      const term = await fetchTerm('pagination', opts('/vocab', { accept: 'ttl' }));
      expect(server.seen.at(-1)!.accept).toBe('text/turtle');
      expect(term.format).toBe('turtle');
    });
  });

  describe('wrong Content-Types: the body wins', () => {
    for (const [prefix, format, sentType] of [
      ['/xml-for-turtle', 'turtle', 'application/xml'],
      ['/x-turtle', 'turtle', 'application/x-turtle'],
      ['/plain', 'ntriples', 'text/plain; charset=utf-8'],
      ['/json', 'jsonld', 'application/json'],
      ['/turtle-for-rdfxml', 'rdfxml', 'text/turtle'],
      ['/no-type', 'ntriples', undefined],
    ] as const) {
      it(`${prefix}: sent as ${sentType ?? 'no type'}, read as ${format}`, async () => {
        const term = await fetchTerm('pagination', opts(prefix));
        expect(term.format).toBe(format);
        expect(term.contentType).toBe(sentType);
        expectIsomorphic(term.quads, SHIPPED);
      });
    }

    it('notes the mismatch', async () => {
      const term = await fetchTerm('pagination', opts('/xml-for-turtle'));
      expect(term.notes.join('\n')).toMatch(/Content-Type application\/xml but the body is Turtle/);
    });
  });

  describe('HTML', () => {
    it('reads the JSON-LD embedded in an HTML page (schema.org), whatever its triple count', async () => {
      const term = await fetchTerm('pagination', opts('/html', { accept: 'application/ld+json' }));
      expect(term).toMatchObject({ via: 'html-script', format: 'jsonld', mediaType: 'application/ld+json' });
      expect(JSON.parse(term.body)['@id']).toBe('schema:pagination');
      const lines = toSortedNQuads(term.quads);
      expect(lines).toContain(
        '<http://schema.org/pagination> <http://schema.org/domainIncludes> <http://schema.org/Chapter> .',
      );
      expect(lines.some((l) => l.includes('http://schema.org/contributor'))).toBe(true);
      expect(lines.some((l) => l.includes('sdDataset'))).toBe(false);
    });

    it('follows a Link rel="alternate" header in the asked format', async () => {
      const ttl = await fetchTerm('pagination', opts('/link', { accept: 'text/turtle' }));
      expect(ttl).toMatchObject({ via: 'link-alternate', format: 'turtle', url: `${server.url}/link/pagination.ttl` });
      expectIsomorphic(ttl.quads, SHIPPED);
      const xml = await fetchTerm('pagination', opts('/link', { accept: 'application/rdf+xml' }));
      expect(xml).toMatchObject({ via: 'link-alternate', format: 'rdfxml', url: `${server.url}/link/pagination.rdf` });
    });

    it('follows the first readable Link alternate when the asked format is not offered', async () => {
      const term = await fetchTerm('pagination', opts('/link', { accept: 'application/ld+json' }));
      expect(term).toMatchObject({ via: 'link-alternate', format: 'turtle' });
      expectIsomorphic(term.quads, SHIPPED);
    });

    it('follows an HTML <link rel="alternate"> element', async () => {
      const term = await fetchTerm('pagination', opts('/html-link'));
      expect(term).toMatchObject({
        via: 'html-link',
        format: 'jsonld',
        url: `${server.url}/html-link/pagination.jsonld`,
      });
      expectIsomorphic(term.quads, SHIPPED);
    });

    it('fails clearly on an HTML page without RDF', async () => {
      const err = await failure(fetchTerm('pagination', opts('/html-nothing', { fallbackExtensions: false })));
      expect(err).toBeInstanceOf(HttpError);
      expect(err.code).toBe('bad-response');
      expect(err.message).toContain(`${server.url}/html-nothing/pagination`);
      expect(err.message).toMatch(/HTML page with no RDF/);
    });
  });

  describe('redirects', () => {
    it('follows them and reports the final URL', async () => {
      const term = await fetchTerm('pagination', opts('/old', { accept: 'text/turtle' }));
      expect(term.url).toBe(`${server.url}/vocab/pagination`);
      expect(term.format).toBe('turtle');
      expect(term.notes.join('\n')).toMatch(/redirected from .*\/old\/pagination/);
      // The Accept header survives the redirect.
      expect(server.seen.at(-1)).toEqual({ url: '/vocab/pagination', accept: 'text/turtle' });
    });
  });

  describe('errors', () => {
    it('406 names the URL and what was asked for', async () => {
      const err = await failure(
        fetchTerm('pagination', opts('/only-turtle', { accept: 'application/rdf+xml', fallbackExtensions: false })),
      );
      expect(err).toBeInstanceOf(HttpError);
      expect(err.code).toBe('not-acceptable');
      expect(err.message).toContain(`GET ${server.url}/only-turtle/pagination (Accept: application/rdf+xml): 406`);
      expect((err as HttpError).status).toBe(406);
    });

    it('404 names the URL, and the extension fallback lists what it tried', async () => {
      const plain = await failure(fetchTerm('pagination', opts('/missing', { fallbackExtensions: false })));
      expect(plain.code).toBe('not-found');
      expect(plain.message).toContain(`${server.url}/missing/pagination`);
      expect(plain.message).toMatch(/404/);
      const tried = await failure(fetchTerm('pagination', opts('/missing', { accept: 'text/turtle' })));
      expect(tried.code).toBe('not-found');
      expect(tried.message).toMatch(/also tried \.ttl, \.jsonld, \.nt, \.rdf: none found/);
    });

    it('falls back to the extension of the asked format after a 404', async () => {
      const term = await fetchTerm('pagination', opts('/ext', { accept: 'application/rdf+xml' }));
      expect(term).toMatchObject({ via: 'extension', format: 'rdfxml', url: `${server.url}/ext/pagination.rdf` });
      expectIsomorphic(term.quads, SHIPPED);
      expect(term.notes[0]).toMatch(/gave 404; used .*pagination\.rdf/);
    });

    it('times out on a slow body and on a server that never answers', async () => {
      for (const prefix of ['/slow', '/slow-headers']) {
        const err = await failure(fetchTerm('pagination', opts(prefix, { timeoutMs: 300 })));
        expect(err).toBeInstanceOf(HttpError);
        expect(err.code).toBe('network');
        expect(err.message).toMatch(/timed out/);
        expect(err.message).toContain(`${server.url}${prefix}/pagination`);
      }
    });

    it('is cancelled by its signal', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const err = await failure(fetchTerm('pagination', opts('/slow-headers', { signal: controller.signal })));
      expect(err.code).toBe('aborted');
    });

    it('gives a parse error with the URL and line for a broken body', async () => {
      const err = await failure(fetchTerm('pagination', opts('/broken')));
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).line).toBe(3);
      expect(err.message).toContain(`${server.url}/broken/pagination:3`);
    });

    it('refuses an answer without a single triple (an error object sent with 200)', async () => {
      const err = await failure(fetchTerm('pagination', opts('/empty')));
      expect(err).toMatchObject({
        code: 'bad-response',
        message: expect.stringMatching(/JSON-LD without a single triple/),
      });
    });

    it('reports other statuses as http-status, retryable for 503', async () => {
      const err = await failure(fetchTerm('pagination', opts('/error')));
      expect(err).toMatchObject({ code: 'http-status', status: 503, retryable: true });
    });

    it('reports a refused connection as a network error', async () => {
      const closed = await startVocabServer();
      const url = closed.url;
      await closed.close();
      const err = await failure(fetchTerm('pagination', { vocabUrl: url, timeoutMs: 2000 }));
      expect(err.code).toBe('network');
      expect(err.message).toContain(`${url}/pagination`);
    });

    it("keeps a key in the vocabulary URL's query after the term's path, and never tells it", async () => {
      const term = await fetchTerm('pagination', opts('/vocab?api_key=vocab-key-55', { accept: 'text/turtle' }));
      expect(server.seen.at(-1)!.url).toBe('/vocab/pagination?api_key=vocab-key-55');
      expect(term.url).toBe(`${server.url}/vocab/pagination?api_key=***`);
      const missing = await failure(
        fetchTerm('pagination', opts('/missing?api_key=vocab-key-55', { accept: 'text/turtle' })),
      );
      expect(server.seen.at(-1)!.url).toBe('/missing/pagination.rdf?api_key=vocab-key-55');
      expect(missing.code).toBe('not-found');
      expect(`${missing.message} ${JSON.stringify(missing.details)}`).not.toContain('vocab-key-55');
    });

    it('refuses a vocabulary URL with a user and password, without telling the password', async () => {
      const url = new URL(server.url);
      const err = await failure(fetchTerm('pagination', { vocabUrl: `http://me:vocab-pw-66@${url.host}/vocab` }));
      expect(err.code).toBe('usage');
      expect(err.message).not.toContain('vocab-pw-66');
      const bad = await failure(fetchTerm('pagination', { vocabUrl: 'http://me:vocab-pw-66@ho st/' }));
      expect(bad.code).toBe('usage');
      expect(bad.message).not.toContain('vocab-pw-66');
    });

    it('rejects names that are not term names', async () => {
      await expect(fetchTerm('../etc/passwd', opts('/vocab'))).rejects.toMatchObject({ code: 'usage' });
    });
  });
});
