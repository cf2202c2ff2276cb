import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { NTriplesWriter } from '../../src/rdf/NTriplesWriter.js';
import { hashedNamedNode } from '../../src/rdf/dataFactory.js';

const { namedNode, literal, quad } = DataFactory;

const work = namedNode('https://doi.org/10.1/ü');
const author = namedNode('https://example.org/author/佐藤');
const p = (name: string) => namedNode(`http://x.org/${name}`);

/**
 * A record's quads as the mapper gives them: the work's statements come back after each node of its own, and a
 * value comes twice in a row (a title as schema:name and dcterms:title), with the same or another tag.
 */
const recordQuads = () => {
  const abstract = 'Wir geben einen Überblick "über" \\ aktuelle\tEntwicklungen. 摘要';
  return [
    quad(work, p('name'), literal(abstract, 'de')),
    quad(work, p('title'), literal(abstract, 'de')),
    quad(work, p('abstract'), literal(abstract, 'en')),
    quad(work, p('note'), literal(abstract)),
    quad(work, p('author'), author),
    quad(author, p('name'), literal('佐藤 花子')),
    quad(author, p('givenName'), literal('佐藤 花子')),
    quad(work, p('pages'), literal('649')),
    quad(work, p('pageEnd'), literal('649', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
    quad(author, p('name'), literal('other')),
    quad(work, p('name'), literal('649')),
  ];
};

/** Each quad written by a writer of its own: nothing kept from one quad to the next. */
const oneByOne = (quads: ReturnType<typeof recordQuads>, binary: boolean) =>
  quads
    .map((q) => {
      const writer = new NTriplesWriter(false, 'N-Triples', undefined);
      return binary ? writer.writeBinary([q]) : writer.write([q]);
    })
    .join('');

describe('NTriplesWriter', () => {
  it('writes a record whose first subject comes back and whose values repeat as each quad alone', () => {
    const quads = recordQuads();
    const writer = new NTriplesWriter(false, 'N-Triples', undefined);
    const text = writer.write(quads);
    expect(text).toBe(oneByOne(quads, false));
    expect(text.split('\n').filter((line) => line.startsWith('<https://doi.org/10.1/ü> '))).toHaveLength(8);
    expect(text).toContain('<http://x.org/pageEnd> "649"^^<http://www.w3.org/2001/XMLSchema#integer> .\n');
    // the next record starts afresh: its first subject is its own
    const next = quads.map((q) =>
      quad(q.subject === work ? namedNode('https://doi.org/10.1/b') : q.subject, q.predicate, q.object),
    );
    expect(writer.write(next)).toBe(oneByOne(next, false));
  });

  it('gives the same bytes in a binary string (writeBinary)', () => {
    const quads = recordQuads();
    const binary = new NTriplesWriter(false, 'N-Triples', undefined).writeBinary(quads);
    expect(binary).toBe(oneByOne(quads, true));
    expect(Buffer.from(binary, 'latin1').toString('utf8')).toBe(oneByOne(quads, false));
  });

  it('refuses a value repeated with a lone surrogate each time, naming the subject', () => {
    const bad = literal('lone \uD800');
    const writer = new NTriplesWriter(false, 'N-Triples', undefined);
    expect(() => writer.write([quad(work, p('a'), bad)])).toThrow(/lone surrogate/);
    expect(() => writer.write([quad(author, p('a'), literal('x')), quad(author, p('b'), bad)])).toThrow(
      /lone surrogate.*subject <https:\/\/example.org\/author\/佐藤>/,
    );
  });

  it('writes vocabulary terms (found by their number) as other terms of the same IRIs', () => {
    const vocab = (iri: string) => hashedNamedNode(iri);
    const integer = 'http://www.w3.org/2001/XMLSchema#integer';
    const quadsOf = (term: (iri: string) => ReturnType<typeof namedNode>) => [
      quad(work, term('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), term('http://x.org/Article')),
      quad(work, term('http://x.org/name'), literal('a')),
      quad(work, term('http://x.org/pages'), literal('3', term(integer))),
      quad(work, term('http://x.org/name'), literal('b')),
      quad(work, term('http://x.org/author'), author),
      quad(work, term('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), term('http://x.org/Work')),
    ];
    const terms = new Map<string, ReturnType<typeof namedNode>>();
    const once = (iri: string) => terms.get(iri) ?? terms.set(iri, vocab(iri)).get(iri)!;
    for (const binary of [false, true]) {
      const writer = new NTriplesWriter(false, 'N-Triples', undefined);
      const write = (quads: ReturnType<typeof quadsOf>) => (binary ? writer.writeBinary(quads) : writer.write(quads));
      const expected = oneByOne(quadsOf(namedNode), binary);
      // the same terms again (found by their number), new terms of the same IRIs, then n3's terms
      expect(write(quadsOf(once))).toBe(expected);
      expect(write(quadsOf(once))).toBe(expected);
      expect(write(quadsOf(vocab))).toBe(expected);
      expect(write(quadsOf(namedNode))).toBe(expected);
    }
  });
});
