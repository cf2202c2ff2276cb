import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { ParseError, ToolkitError } from '../../src/errors.js';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { expectIsomorphic, parseNTriples } from '../helpers/rdf.js';

const vocab = (file: string) => readFileSync(new URL(`../../vocab/${file}`, import.meta.url), 'utf8');
const EXPECTED = parseNTriples(vocab('pagination.nt'));

async function parse(
  input: Parameters<typeof parseRdf>[0],
  options: Parameters<typeof parseRdf>[1] = {},
): Promise<RDF.Quad[]> {
  const out: RDF.Quad[] = [];
  for await (const q of parseRdf(input, options)) out.push(q);
  return out;
}

async function parseError(
  input: Parameters<typeof parseRdf>[0],
  options: Parameters<typeof parseRdf>[1] = {},
): Promise<Error> {
  try {
    await parse(input, options);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

/** A byte stream that cuts the text into small chunks (splitting multi-byte characters). */
function bytes(text: string, size = 7): Readable {
  const buf = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  return Readable.from(parts);
}

describe('parseRdf', () => {
  describe('formats', () => {
    for (const [file, format] of [
      ['pagination.ttl', 'turtle'],
      ['pagination.nt', 'application/n-triples'],
      ['pagination.rdf', 'application/rdf+xml'],
      ['pagination.jsonld', 'application/ld+json'],
    ] as const) {
      it(`parses ${file} as ${format}, from a string and from a chunked byte stream`, async () => {
        expectIsomorphic(await parse(vocab(file), { format }), EXPECTED);
        expectIsomorphic(await parse(bytes(vocab(file)), { format }), EXPECTED);
      });
      it(`sniffs the format of ${file}`, async () => {
        expectIsomorphic(await parse(bytes(vocab(file), 64)), EXPECTED);
      });
    }

    it('parses N-Quads and keeps the graph', async () => {
      const quads = await parse('<http://a/s> <http://a/p> "o" <http://a/g> .\n', { format: 'nquads' });
      expect(quads).toHaveLength(1);
      expect(quads[0]!.graph.value).toBe('http://a/g');
    });

    it('accepts aliases of media types with parameters (application/x-turtle; charset=utf-8)', async () => {
      expectIsomorphic(
        await parse(vocab('pagination.ttl'), { format: 'application/x-turtle; charset=utf-8' }),
        EXPECTED,
      );
    });

    it('decodes UTF-8 split across chunks and drops a BOM', async () => {
      const text = '\uFEFF<http://a/s> <http://a/p> "Größe — 日本語" .\n';
      const quads = await parse(bytes(text, 3), { format: 'ntriples' });
      expect(quads[0]!.object.value).toBe('Größe — 日本語');
    });

    it('resolves relative IRIs against baseIRI', async () => {
      const quads = await parse('<s> <p> <o> .', { format: 'turtle', baseIRI: 'http://example.org/dir/' });
      expect(quads[0]!.subject.value).toBe('http://example.org/dir/s');
    });

    it('parses JSON-LD whose @context is not first when given as a string', async () => {
      const doc = JSON.stringify({ '@id': 'http://a/s', name: 'x', '@context': { '@vocab': 'http://schema.org/' } });
      const quads = await parse(doc, { format: 'jsonld' });
      expect(quads.map((q) => q.predicate.value)).toEqual(['http://schema.org/name']);
    });

    it('expands the shipped SciGraph context offline (the term file references it by URL)', async () => {
      const quads = await parse(vocab('pagination.jsonld'), { format: 'jsonld' });
      expect(quads).toHaveLength(10);
    });
  });

  describe('errors', () => {
    it('gives the line of a Turtle error', async () => {
      const err = await parseError('@prefix s: <http://s/> .\ns:a s:b s:c .\ns:a s:b ;;; .\n', {
        format: 'turtle',
        source: 'x.ttl',
      });
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).line).toBe(3);
      expect(err.message).toMatch(/^x\.ttl:3: invalid Turtle/);
    });

    it('gives the line of an N-Triples error in a stream, after many good lines', async () => {
      const good = Array.from({ length: 500 }, (_, i) => `<http://a/${i}> <http://a/p> "v" .`).join('\n');
      const err = await parseError(bytes(`${good}\n<http://a/x> <http://a/p> bad .\n`, 100), { format: 'ntriples' });
      expect((err as ParseError).line).toBe(501);
    });

    it('gives line and column of an RDF/XML error', async () => {
      const xml =
        '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n <rdf:Description rdf:about="http://a">\n  <rdf:foo>< </rdf:Description></rdf:RDF>';
      const err = (await parseError(xml, { format: 'rdfxml', source: 'x.rdf' })) as ParseError;
      expect(err).toBeInstanceOf(ParseError);
      expect(err.line).toBe(4);
      expect(err.column).toBeGreaterThan(0);
    });

    it('fails on truncated RDF/XML (the SAX parser is closed at the end)', async () => {
      const xml = vocab('pagination.rdf').replace('</rdf:RDF>', '');
      const err = await parseError(xml, { format: 'rdfxml' });
      expect(err).toBeInstanceOf(ParseError);
      expect(err.message).toMatch(/unclosed tag/);
    });

    it('gives line and column of a JSON syntax error', async () => {
      const err = (await parseError('{\n  "@id": "http://a",\n  x\n}', { format: 'jsonld' })) as ParseError;
      expect(err).toBeInstanceOf(ParseError);
      expect(err.line).toBe(3);
      expect(err.column).toBe(3);
    });

    it('fails on truncated JSON-LD', async () => {
      const err = await parseError(bytes(vocab('pagination.jsonld').slice(0, 200)), { format: 'jsonld' });
      expect(err).toBeInstanceOf(ParseError);
    });

    it('refuses to fetch a remote @context offline, naming it', async () => {
      const err = await parseError('{"@context": "http://example.org/ctx.jsonld", "@id": "http://a", "b": "c"}', {
        format: 'jsonld',
      });
      expect(err).toBeInstanceOf(ToolkitError);
      expect((err as ToolkitError).code).toBe('network');
      expect(err.message).toContain('http://example.org/ctx.jsonld');
    });

    it('uses an injected document loader', async () => {
      const quads = await parse('{"@context": "http://example.org/ctx.jsonld", "@id": "http://a", "b": "c"}', {
        format: 'jsonld',
        documentLoader: { load: async () => ({ '@context': { b: 'http://example.org/b' } }) },
      });
      expect(quads.map((q) => q.predicate.value)).toEqual(['http://example.org/b']);
    });

    it('rejects media types it does not read', async () => {
      const err = await parseError('x', { format: 'text/csv' });
      expect((err as ToolkitError).code).toBe('unsupported-media-type');
    });

    it('says when it cannot tell the format, and when the input is HTML', async () => {
      expect((await parseError('hello world')).message).toMatch(/cannot tell the RDF format/);
      expect((await parseError('<!DOCTYPE html><html></html>')).message).toMatch(/HTML page/);
    });

    it('stops early without leaking when the consumer breaks', async () => {
      const lines = Array.from({ length: 10_000 }, (_, i) => `<http://a/${i}> <http://a/p> "v" .\n`);
      const source = Readable.from(lines);
      let n = 0;
      for await (const _ of parseRdf(source, { format: 'ntriples' })) if (++n === 3) break;
      expect(n).toBe(3);
      await new Promise((r) => setImmediate(r));
      expect(source.destroyed).toBe(true);
    });

    it('is cancelled by its signal', async () => {
      const controller = new AbortController();
      const lines = Array.from({ length: 10_000 }, (_, i) => `<http://a/${i}> <http://a/p> "v" .\n`);
      const err = await (async () => {
        try {
          for await (const _ of parseRdf(Readable.from(lines), { format: 'ntriples', signal: controller.signal }))
            controller.abort();
        } catch (e) {
          return e as ToolkitError;
        }
        return undefined;
      })();
      expect(err?.code).toBe('aborted');
    });
  });
});

describe('parseRdf (JSON-LD streams)', () => {
  it('streams a large @graph with the context first', async () => {
    const nodes = Array.from({ length: 2000 }, (_, i) => `{"@id": "http://a/${i}", "name": "n${i}"}`);
    const doc = `{"@context": {"@vocab": "http://schema.org/"}, "@graph": [${nodes.join(',\n')}]}`;
    const quads = await parse(bytes(doc, 4096), { format: 'jsonld' });
    expect(quads).toHaveLength(2000);
  });

  it('strict: what a JSON-LD processor would drop (an unmapped key, an @id that is no IRI) is an error, not a loss', async () => {
    const unmapped =
      '{"@context": {"name": "http://schema.org/name"}, "@graph": [{"@id": "http://a/s", "name": "x", "title": "dropped"}]}';
    expect(await parse(unmapped, { format: 'jsonld' })).toHaveLength(1);
    const err = await parseError(unmapped, { format: 'jsonld', strict: true });
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/title.*would drop it silently/);
    const badId = '{"@context": {"@vocab": "http://schema.org/"}, "@id": "not an iri", "name": "x"}';
    expect(await parseError(badId, { format: 'jsonld', strict: true, ignoreGraphs: true })).toBeInstanceOf(ParseError);
    // Plain JSON, no RDF at all: not zero quads.
    expect(await parseError('{"records": [{"doi": "10.1/x"}]}', { format: 'jsonld', strict: true })).toBeInstanceOf(
      ParseError,
    );
  });

  it('explains a stream whose @context comes after other keys', async () => {
    const doc = '{"@id": "http://a/s", "name": "x", "@context": {"@vocab": "http://schema.org/"}}';
    const err = await parseError(bytes(doc), { format: 'jsonld' });
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(/not in streaming order/);
  });
});

describe('parseRdf limits: bounded work on any input', () => {
  const CONTEXT = '{"@context": {"p": "http://ex.org/p"}, "@id": "http://ex.org/a", "p": ';
  /** JSON-LD nested `n` levels below its top object, by objects or by `@list`s. */
  const deepObjects = (n: number) => `${CONTEXT}${'{"p": '.repeat(n)}"x"${'}'.repeat(n)}}`;
  const deepLists = (n: number) => `${CONTEXT}${'{"@list": ['.repeat(n)}"x"${']}'.repeat(n)}}`;
  /** RDF/XML nested `n` elements deep (a resource and its property per two levels). */
  const deepXml = (n: number) =>
    `<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">\n<rdf:Description rdf:about="http://ex.org/a">${'<ex:p><rdf:Description>'.repeat(n / 2)}<ex:p>x</ex:p>${'</rdf:Description></ex:p>'.repeat(n / 2)}</rdf:Description></rdf:RDF>\n`;

  it('refuses JSON-LD nested 100,000 levels deep (objects or @list) with a parse error naming the file, the limit and the option, from a stream or a string', async () => {
    for (const doc of [deepObjects(100_000), deepLists(100_000)]) {
      for (const [input, options] of [
        [bytes(doc, 65536), { ignoreGraphs: true, strict: true }],
        [bytes(doc, 65536), {}],
        [doc, {}],
      ] as const) {
        const err = (await parseError(input, { format: 'jsonld', source: 'deep.jsonld', ...options })) as ParseError;
        expect(err).toBeInstanceOf(ParseError);
        expect(err.code).toBe('parse');
        expect(err.message).toMatch(
          /^deep\.jsonld:1:\d+: JSON-LD nested deeper than 64 levels: not read \(`maxDepth` raises the limit\)$/,
        );
      }
    }
  });

  it('reads JSON-LD up to maxDepth levels, and deeper when maxDepth is raised', async () => {
    // The top object, then 62 more: 63 levels.
    expect(await parse(deepObjects(62), { format: 'jsonld' })).toHaveLength(63);
    await expect(parse(deepObjects(64), { format: 'jsonld' })).rejects.toThrow(/deeper than 64 levels/);
    expect(await parse(bytes(deepObjects(200)), { format: 'jsonld', maxDepth: 201 })).toHaveLength(201);
  });

  it('gives the line and column of the bracket that goes too deep, across chunks', async () => {
    const doc = `{"@context": {"p": "http://ex.org/p"},\n "@graph": [\n  {"@id": "http://ex.org/a",\n   "p": ${'{"p": '.repeat(10)}"x"${'}'.repeat(10)}}]}`;
    const err = (await parseError(bytes(doc, 3), { format: 'jsonld', maxDepth: 5, ignoreGraphs: true })) as ParseError;
    expect([err.line, err.column]).toEqual([4, 8 + 6 * 2 + 1]);
  });

  it('refuses RDF/XML nested 100,000 elements deep with a parse error at the element that goes too deep', async () => {
    const err = (await parseError(bytes(deepXml(100_000), 65536), {
      format: 'rdfxml',
      source: 'deep.rdf',
    })) as ParseError;
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toMatch(
      /^deep\.rdf:3:\d+: RDF\/XML nested deeper than 64 levels: not read \(`maxDepth` raises the limit\)$/,
    );
    // rdf:RDF, the description, then 60 more levels: 62 elements.
    expect(await parse(deepXml(60), { format: 'rdfxml' })).toHaveLength(31);
    expect(await parse(deepXml(200), { format: 'rdfxml', maxDepth: 203 })).toHaveLength(101);
  });

  it('refuses a JSON-LD node, or a document of another layout, larger than maxDocumentChars', async () => {
    const big = `"${'x'.repeat(5000)}"`;
    const graph = `{"@context": {"p": "http://ex.org/p"}, "@graph": [{"@id": "http://ex.org/a", "p": "a"},\n{"@id": "http://ex.org/b", "p": ${big}}]}`;
    const err = (await parseError(bytes(graph, 512), {
      format: 'jsonld',
      source: 'big.jsonld',
      ignoreGraphs: true,
      maxDocumentChars: 1000,
    })) as ParseError;
    expect(err.message).toBe(
      'big.jsonld:2: a node of the JSON-LD "@graph" larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
    );
    expect(
      await parse(bytes(graph, 512), { format: 'jsonld', ignoreGraphs: true, maxDocumentChars: 10_000 }),
    ).toHaveLength(2);
    const other = `{"@id": "http://ex.org/a", "http://ex.org/p": ${big}}`;
    const err2 = (await parseError(bytes(other, 512), {
      format: 'jsonld',
      source: 'other.jsonld',
      ignoreGraphs: true,
      maxDocumentChars: 1000,
    })) as ParseError;
    expect(err2.message).toMatch(
      /^other\.jsonld: a JSON-LD document of another layout .* larger than 1000 characters, more than is read at once: not read \(`maxDocumentChars` raises the limit\)$/,
    );
  });

  it('cuts a parser message that quotes a huge token (an unterminated 20 MB literal)', async () => {
    // (Within a limit that lets the parser see it: the default, 8 MiB, refuses the line first.)
    const err = await parseError(bytes(`<http://a/s> <http://a/p> "${'x'.repeat(20_000_000)}`, 65536), {
      format: 'turtle',
      source: 'big.ttl',
      maxDocumentChars: 2 ** 25,
    });
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message.length).toBeLessThan(700);
    expect(err.message).toMatch(/^big\.ttl:1: invalid Turtle: .*… \(\d+ characters\)$/);
    // Control bytes of the input a parser quotes cannot drive the terminal.
    const ctl = await parseError('@prefix ex: <http://ex.org/> .\n\u001B]0;title\u0007ex:s ex:p 1 .\n', {
      format: 'turtle',
      source: 'ctl.ttl',
    });
    expect(ctl.message).toBe('ctl.ttl:2: invalid Turtle: Unexpected "\\u001B]0;title\\u0007ex:s"');
  });
});

describe('parseRdf as an RDF/JS Stream', () => {
  it('is an object-mode Readable of quads that n3 Store.import takes as it is, and tells a failure as an error event', async () => {
    const { Store } = await import('n3');
    const { Readable } = await import('node:stream');
    const stream = parseRdf('<http://a> <http://b> "c" .\n<http://a> <http://b> "d" .\n', { format: 'ntriples' });
    expect(stream).toBeInstanceOf(Readable);
    expect(stream.readableObjectMode).toBe(true);
    const store = new Store();
    await new Promise((done, fail) => store.import(stream).on('end', done).on('error', fail));
    expect(store.size).toBe(2);
    const bad = parseRdf('<http://a> <http://b> .\n', { format: 'ntriples', source: 'bad.nt' });
    const error = await new Promise<Error>((done) => new Store().import(bad).on('error', done));
    expect(error).toMatchObject({ code: 'parse' });
    expect(error.message).toContain('bad.nt');
  });
});
