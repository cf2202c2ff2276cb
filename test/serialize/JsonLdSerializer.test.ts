import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { JsonLdSerializer } from '../../src/serialize/JsonLdSerializer.js';
import { CONTEXT_URL, shippedContext } from '../../src/serialize/jsonldContext.js';
import { expectIsomorphic, parseJsonLd, parseNQuads } from '../helpers/rdf.js';
import {
  blankNodeQuads,
  controlCharQuads,
  oddIriQuads,
  recordQuads,
  SCHEMA,
  trickyQuads,
  writeAll,
  XSD,
} from './quads.js';

const { namedNode, literal, quad, blankNode } = DataFactory;

/** Reads JSON-LD with Debian's Python rdflib (a JSON-LD 1.0-ish processor), or undefined when it is not installed. */
function readWithPythonRdflib(text: string): RDF.Quad[] | undefined {
  const script = `
import sys, json, rdflib
rdflib.NORMALIZE_LITERALS = False
g = rdflib.ConjunctiveGraph()
g.parse(data=sys.stdin.read(), format='json-ld')
def t(x):
    if isinstance(x, rdflib.URIRef): return ['n', str(x)]
    if isinstance(x, rdflib.BNode): return ['b', str(x)]
    return ['l', str(x), x.language or '', str(x.datatype) if x.datatype else '']
print(json.dumps([[t(s), t(p), t(o)] for s, p, o in g.triples((None, None, None))]))
`;
  const r = spawnSync('/usr/bin/python3', ['-c', script], { input: text, encoding: 'utf8' });
  if (r.error || (r.status !== 0 && /No module named 'rdflib'/.test(r.stderr))) return undefined;
  if (r.status !== 0) throw new Error(`rdflib failed: ${r.stderr}`);
  const term = (x: string[]): RDF.Term =>
    x[0] === 'n'
      ? namedNode(x[1]!)
      : x[0] === 'b'
        ? blankNode(x[1]!)
        : literal(x[1]!, x[2] || (x[3] ? namedNode(x[3]) : undefined));
  return (JSON.parse(r.stdout) as string[][][]).map(([s, p, o]) =>
    quad(term(s!) as never, term(p!) as never, term(o!) as never),
  );
}
const hasPythonRdflib = spawnSync('/usr/bin/python3', ['-c', 'import rdflib'], { encoding: 'utf8' }).status === 0;

describe('JsonLdSerializer', () => {
  it('names its format', () => {
    const s = new JsonLdSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['jsonld', 'application/ld+json', 'jsonld']);
  });

  describe('document shape', () => {
    it('embeds the shipped context by default and streams one node object per line', () => {
      const text = writeAll('jsonld', [recordQuads('10.1007/a'), recordQuads('10.1007/b')]);
      const doc = JSON.parse(text);
      expect(doc['@context']).toEqual(shippedContext());
      expect(doc['@graph'].map((n: { '@id': string }) => n['@id'])).toContain('https://doi.org/10.1007/a');
      const lines = text.split('\n');
      expect(lines[1]).toBe('"@graph":[');
      expect(lines[2]).toMatch(
        /^\{"@id":"https:\/\/doi.org\/10.1007\/a","@type":\["schema:ScholarlyArticle","bibo:AcademicArticle"\],"name":/,
      );
      for (const line of lines.slice(2, -2)) JSON.parse(line.replace(/,$/, ''));
      expect(text.endsWith('\n]}\n')).toBe(true);
    });

    it('nests the nodes a record references once, and keeps shared ones top-level', () => {
      const doc = JSON.parse(writeAll('jsonld', [recordQuads('10.1007/a', 2)]));
      const root = doc['@graph'][0];
      expect(root.isPartOf).toMatchObject({
        '@id': expect.stringMatching(/#issue$/),
        '@type': 'schema:PublicationIssue',
        issueNumber: '4',
      });
      expect(root.isPartOf.isPartOf).toMatchObject({
        '@type': ['schema:Periodical', 'bibo:Journal'],
        issn: '1234-5678',
      });
      expect(root.publisher).toMatchObject({ '@type': 'schema:Organization', name: 'Springer' });
      // authors are referenced twice (schema:author and the list), so they stay references
      expect(root.author).toEqual([expect.stringMatching(/#author-1$/), expect.stringMatching(/#author-2$/)]);
      // the list cells are nested (each referenced once), ending in rdf:nil
      expect(root.authorList.first).toMatch(/#author-1$/);
      expect(root.authorList.rest.rest).toBe('http://www.w3.org/1999/02/22-rdf-syntax-ns#nil');
      expect(doc['@graph'].map((n: { '@id': string }) => n['@id'].replace(/.*#/, ''))).toEqual([
        'https://doi.org/10.1007/a',
        'author-1',
        'author-2',
      ]);
      expect(root.datePublished).toBe('2020-03-15');
      expect(root.isAccessibleForFree).toBe('true');
      expect(root.numPages).toBe('8');
      expect(root['dcterms:issued']).toEqual({ '@value': '2020-03', '@type': 'xsd:gYearMonth' });
      expect(root.name).toEqual({ '@value': 'Effects of "quoted" terms on x\\y: a study', '@language': 'en' });
    });

    it('references the context by URL on request', async () => {
      const groups = [recordQuads('10.1007/a')];
      const text = writeAll('jsonld', groups, { jsonldContext: CONTEXT_URL });
      expect(JSON.parse(text)['@context']).toBe(CONTEXT_URL);
      expectIsomorphic(await parseJsonLd(text), groups.flat());
    });
  });

  describe('round trip through jsonld.js', () => {
    it('records, tricky literals, odd IRIs, blank nodes and controls', async () => {
      const groups = [recordQuads('10.1007/a'), trickyQuads(), oddIriQuads(), blankNodeQuads(), controlCharQuads()];
      expectIsomorphic(await parseJsonLd(writeAll('jsonld', groups)), groups.flat());
    });

    it('values that do not match a coerced term keep their own type', async () => {
      const s = namedNode('https://doi.org/10.1/x');
      const input = [
        quad(s, namedNode(`${SCHEMA}datePublished`), literal('2015-02-30 (sic)')),
        quad(s, namedNode(`${SCHEMA}datePublished`), literal('2015', namedNode(`${XSD}gYear`))),
        quad(s, namedNode(`${SCHEMA}url`), literal('not an IRI')),
        quad(s, namedNode(`${SCHEMA}isAccessibleForFree`), literal('yes')),
        quad(s, namedNode(`${SCHEMA}name`), namedNode('http://x.org/a-name-node')),
        quad(s, namedNode(`${SCHEMA}author`), blankNode('anon')),
        quad(s, namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), literal('a literal type')),
      ];
      const text = writeAll('jsonld', [input]);
      const node = JSON.parse(text)['@graph'][0];
      expect(node.datePublished).toEqual([
        { '@value': '2015-02-30 (sic)' },
        { '@value': '2015', '@type': 'xsd:gYear' },
      ]);
      expect(node.url).toEqual({ '@value': 'not an IRI' });
      expect(node.name).toEqual({ '@id': 'http://x.org/a-name-node' });
      expect(node.author).toBe('_:anon');
      expect(node['rdf:type']).toBe('a literal type');
      expectIsomorphic(await parseJsonLd(text), input);
    });

    it('named graphs become graph objects', async () => {
      const s = namedNode('http://x.org/s');
      const input = [
        quad(s, namedNode(`${SCHEMA}name`), literal('default')),
        quad(s, namedNode(`${SCHEMA}name`), literal('in g'), namedNode('http://x.org/g')),
      ];
      expectIsomorphic(await parseJsonLd(writeAll('jsonld', [input])), input);
    });

    it('writes records in their own graphs (--graph-per-record) as graph objects, the same dataset as N-Quads', async () => {
      const shared = namedNode('https://w3id.org/scholarly-rdf/publisher/springer');
      const groups = ['10.1007/a', '10.1007/b', '10.1007/(c)<d>'].map((doi) => {
        const g = namedNode(`https://w3id.org/scholarly-rdf/record/${encodeURI(doi)}`);
        const work = namedNode(`https://doi.org/${encodeURI(doi)}`);
        return [
          ...recordQuads(encodeURI(doi)),
          quad(work, namedNode(`${SCHEMA}publisher`), shared),
          quad(shared, namedNode(`${SCHEMA}name`), literal('Springer')),
        ].map((q) => quad(q.subject, q.predicate, q.object, g));
      });
      const text = writeAll('jsonld', groups);
      const doc = JSON.parse(text) as { '@graph': { '@id': string; '@graph': { '@id': string }[] }[] };
      expect(doc['@graph'].map((o) => Object.keys(o).join())).toEqual(['@id,@graph', '@id,@graph', '@id,@graph']);
      expect(doc['@graph'].map((o) => o['@graph'][0]!['@id'])).toEqual(groups.map((g) => g[0]!.subject.value));
      const all = groups.flat();
      expectIsomorphic(await parseJsonLd(text), all, 'jsonld.js');
      expectIsomorphic(await parseJsonLd(text), parseNQuads(writeAll('nquads', groups)), 'JSON-LD vs N-Quads');
    });

    it('extra prefixes re-base the shipped terms (schema.org over https)', async () => {
      const https = 'https://schema.org/';
      const s = namedNode('https://doi.org/10.1/x');
      const input = [
        quad(s, namedNode(`${https}name`), literal('T')),
        quad(s, namedNode(`${https}url`), namedNode('https://x.org/')),
      ];
      for (const jsonldContext of ['inline', CONTEXT_URL]) {
        const text = writeAll('jsonld', [input], { prefixes: { schema: https }, jsonldContext });
        expectIsomorphic(await parseJsonLd(text), input);
        if (jsonldContext === 'inline')
          expect(JSON.parse(text)['@graph'][0]).toMatchObject({ name: 'T', url: 'https://x.org/' });
      }
    });
  });

  it('refuses an IRI whose scheme is a prefix of the context (it would be read as a compact IRI)', () => {
    const q = quad(namedNode('http://x.org/s'), namedNode(`${SCHEMA}sameAs`), namedNode('schema:Thing'));
    expect(() => writeAll('jsonld', [[q]])).toThrow(/scheme "schema" is a prefix of the context/);
  });

  it.skipIf(!hasPythonRdflib)('Python rdflib (JSON-LD 1.0-ish) reads the same graph', () => {
    const groups = [recordQuads('10.1007/a'), trickyQuads(), oddIriQuads(), blankNodeQuads()];
    const read = readWithPythonRdflib(writeAll('jsonld', groups))!;
    expectIsomorphic(read, groups.flat());
  });
});

describe('JsonLdSerializer continueAfter', () => {
  it('continues a resumed document with the same bytes as an uninterrupted writer', () => {
    const groups = [recordQuads('10.1000/a'), recordQuads('10.1000/b'), recordQuads('10.1000/c')];
    const whole = new JsonLdSerializer().createWriter();
    const expected = whole.start() + groups.map((g) => whole.write(g)).join('') + whole.end();
    const first = new JsonLdSerializer().createWriter();
    const head = first.start() + first.write(groups[0]!);
    const second = new JsonLdSerializer().createWriter();
    second.continueAfter(1);
    const tail = second.write(groups[1]!) + second.write(groups[2]!) + second.end();
    expect(head + tail).toBe(expected);
    void parseJsonLd(expected);
  });
});
