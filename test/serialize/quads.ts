/** Hand-built quads for the serialiser tests (n3's DataFactory), and helpers to write and read every format. */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { expect } from 'vitest';
import type { FormatName } from '../../src/formats.js';
import type { RecordWriter, SerializerOptions } from '../../src/serialize/QuadSerializer.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { parseJsonLd, parseNQuads, parseNTriples, parseRdfXml, parseTriG, parseTurtle } from '../helpers/rdf.js';

const { namedNode, literal, quad, blankNode } = DataFactory;

export const SCHEMA = 'http://schema.org/';
export const BIBO = 'http://purl.org/ontology/bibo/';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const DCTERMS = 'http://purl.org/dc/terms/';
export const SR = 'https://w3id.org/scholarly-rdf/vocab#';
const s = (l: string) => namedNode(SCHEMA + l);
const b = (l: string) => namedNode(BIBO + l);
const type = namedNode(`${RDF_NS}type`);
const xsd = (l: string) => namedNode(XSD + l);

/** The quads of one realistic record, as the mapper shapes them (minted IRIs, no blank nodes, an author list). */
export function recordQuads(doi: string, authors = 3): RDF.Quad[] {
  const work = namedNode(`https://doi.org/${doi}`);
  const base = `https://w3id.org/scholarly-rdf/doi/${doi}#`;
  const n = (local: string) => namedNode(base + local);
  const q: RDF.Quad[] = [
    quad(work, type, s('ScholarlyArticle')),
    quad(work, type, b('AcademicArticle')),
    quad(work, s('name'), literal('Effects of "quoted" terms on x\\y: a study', 'en')),
    quad(work, namedNode(`${DCTERMS}title`), literal('Effects of "quoted" terms on x\\y: a study', 'en')),
    quad(work, s('abstract'), literal('We study things.\nSecond line with ünïcödé and emoji 🧪.', 'en')),
    quad(work, b('doi'), literal(doi)),
    quad(work, s('identifier'), literal(`doi:${doi}`)),
    quad(work, s('datePublished'), literal('2020-03-15', xsd('date'))),
    quad(work, namedNode(`${DCTERMS}issued`), literal('2020-03', xsd('gYearMonth'))),
    quad(work, s('isAccessibleForFree'), literal('true', xsd('boolean'))),
    quad(work, s('pageStart'), literal('123')),
    quad(work, s('pageEnd'), literal('130')),
    quad(work, b('numPages'), literal('8', xsd('integer'))),
    quad(work, s('keywords'), literal('Chemistry')),
    quad(work, s('keywords'), literal('Catalysis')),
    quad(work, s('url'), namedNode(`https://link.example.com/article/${doi}`)),
    quad(work, s('sameAs'), namedNode(`https://doi.org/${doi}`)),
    quad(work, s('isPartOf'), n('issue')),
    quad(n('issue'), type, s('PublicationIssue')),
    quad(n('issue'), s('issueNumber'), literal('4')),
    quad(n('issue'), s('isPartOf'), n('periodical')),
    quad(n('periodical'), type, s('Periodical')),
    quad(n('periodical'), type, b('Journal')),
    quad(n('periodical'), s('name'), literal('Journal of Tests & <Things>')),
    quad(n('periodical'), s('issn'), literal('1234-5678')),
    quad(work, s('publisher'), n('publisher')),
    quad(n('publisher'), type, s('Organization')),
    quad(n('publisher'), s('name'), literal('Springer')),
    quad(work, s('about'), n('discipline-12')),
    quad(n('discipline-12'), type, s('DefinedTerm')),
    quad(n('discipline-12'), s('name'), literal('Chemistry')),
    quad(n('discipline-12'), s('identifier'), literal('12')),
  ];
  if (authors > 0) q.push(quad(work, b('authorList'), n('authors-1')));
  for (let i = 1; i <= authors; i++) {
    q.push(quad(work, s('author'), n(`author-${i}`)));
    q.push(quad(n(`author-${i}`), type, s('Person')));
    q.push(quad(n(`author-${i}`), s('name'), literal(`Müller-${i}, Anna`)));
    q.push(quad(n(`author-${i}`), s('familyName'), literal(`Müller-${i}`)));
    q.push(quad(n(`author-${i}`), s('givenName'), literal('Anna')));
    q.push(quad(n(`authors-${i}`), namedNode(`${RDF_NS}first`), n(`author-${i}`)));
    q.push(
      quad(
        n(`authors-${i}`),
        namedNode(`${RDF_NS}rest`),
        i === authors ? namedNode(`${RDF_NS}nil`) : n(`authors-${i + 1}`),
      ),
    );
  }
  return q;
}

/** Literals that break naive writers. */
export function trickyQuads(): RDF.Quad[] {
  const subject = namedNode('https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C435::AID-JBM5%3E3.0.CO;2-F');
  const p = (l: string) => namedNode(`${SR}${l}`);
  const values: RDF.Literal[] = [
    literal('say "hi"'),
    literal('back\\slash \\n not a newline'),
    literal('line1\nline2\r\nline3\ttab'),
    literal('DEL \u007f and NEL \u0085'),
    literal('CDATA end ]]> and comment -- <!-- x --> & amp;'),
    literal(''),
    literal('', 'en'),
    literal('', xsd('string')),
    literal('', xsd('date')),
    literal('unicode: é 中文 𝔘 🧪 \u00a0 \u2028 \u2029 \ufeff'),
    literal('Straße', 'de-DE'),
    literal('x', 'en-US'),
    literal('42', xsd('integer')),
    literal('-0', xsd('integer')),
    literal('+7', xsd('integer')),
    literal('4.20', xsd('decimal')),
    literal('1.0E3', xsd('double')),
    literal('false', xsd('boolean')),
    literal('not-a-bool', xsd('boolean')),
    literal('<b>x</b>', namedNode(`${RDF_NS}XMLLiteral`)),
    literal('custom', namedNode('http://example.org/dt#weird%20type')),
    literal('  leading and trailing spaces  '),
    literal('{"json": [1, 2]}'),
    literal('@context @id'),
  ];
  return values.map((v, i) => quad(subject, p(`v${i}`), v));
}

/** A literal with C0 controls: N-Triples, Turtle and JSON-LD carry it; XML 1.0 cannot. */
export function controlCharQuads(): RDF.Quad[] {
  return [
    quad(namedNode('http://example.org/ctrl'), namedNode(`${SR}v`), literal('ctrl \u0001\u0008\u000b\u001f end')),
  ];
}

/** IRIs with characters that need care in some format. */
export function oddIriQuads(): RDF.Quad[] {
  const p = namedNode(`${SCHEMA}sameAs`);
  const subject = namedNode('https://doi.org/10.1016/S0140-6736(20)30183-5');
  const objects = [
    'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C435::AID-JBM5%3E3.0.CO;2-F',
    'https://example.org/a?b=c&d=e#frag',
    'https://example.org/ünïcode/路径',
    'https://example.org/quote%22and%20space',
    'urn:isbn:978-3-16-148410-0',
    'http://schema.org/',
    'http://schema.org/Thing.',
    'https://w3id.org/scholarly-rdf/doi/10.1/x#author-1',
    'mailto:someone@example.org',
  ];
  const q = objects.map((o) => quad(subject, p, namedNode(o)));
  // Predicates whose local names are not prefixed-name or NCName friendly.
  q.push(quad(subject, namedNode('http://example.org/vocab/has.dot.'), literal('a')));
  q.push(quad(subject, namedNode('http://example.org/vocab/123start'), literal('b')));
  q.push(quad(subject, namedNode('http://example.org/vocab#with-dash_and_underscore'), literal('c')));
  q.push(quad(subject, namedNode(`${SCHEMA}name`), literal('name')));
  q.push(quad(subject, namedNode(`${RDF_NS}_1`), literal('first member')));
  return q;
}

/** A small graph with blank nodes (generic input; the mapper makes none). */
export function blankNodeQuads(): RDF.Quad[] {
  const x = blankNode('b0');
  const y = blankNode('weird label.with:chars');
  return [
    quad(namedNode('http://example.org/s'), s('author'), x),
    quad(x, s('name'), literal('Anon')),
    quad(x, s('knows'), y),
    quad(y, s('name'), literal('Other')),
    quad(y, s('knows'), x),
  ];
}

/** IRIs, names, datatypes and values past ASCII in every place of a triple. */
export function nonAsciiQuads(): RDF.Quad[] {
  const subject = namedNode('https://example.org/ünï/路径');
  return [
    quad(subject, namedNode('http://x.org/p'), literal('中文 𝔘 🧪', 'ja')),
    quad(subject, namedNode('http://x.org/ä'), literal('x', namedNode('http://x.org/dt/ö'))),
    quad(blankNode('b1'), namedNode('http://x.org/p'), subject),
    quad(blankNode('b1'), type, namedNode('http://x.org/Ä')),
  ];
}

/** Each group's binary string (`writeBinary`) is one byte a character, the UTF-8 of its text (`write`). */
export function expectBinaryOfText(writer: RecordWriter, groups: readonly RDF.Quad[][]): void {
  for (const group of groups) {
    const binary = writer.writeBinary!(group);
    expect(binary).not.toMatch(/[^\u0000-\u00FF]/);
    expect(Buffer.from(binary, 'latin1').toString('utf8')).toBe(writer.write(group));
  }
}

/** Writes groups with a format's record writer into one string. */
export function writeAll(
  format: FormatName,
  groups: readonly (readonly RDF.Quad[])[],
  options?: SerializerOptions,
): string {
  const writer: RecordWriter = serializerFor(format).createWriter(options);
  let out = writer.start();
  for (const g of groups) out += writer.write(g);
  return out + writer.end();
}

/** Parses a format with a parser other than ours (n3, jsonld.js, rdfxml-streaming-parser). */
export async function parseFormat(format: FormatName, text: string): Promise<RDF.Quad[]> {
  switch (format) {
    case 'turtle':
      return parseTurtle(text);
    case 'ntriples':
      return parseNTriples(text);
    case 'nquads':
      return parseNQuads(text);
    case 'jsonld':
      return parseJsonLd(text);
    case 'rdfxml':
      return parseRdfXml(text);
    case 'trig':
      return parseTriG(text);
  }
}

export const ALL_FORMATS: FormatName[] = ['turtle', 'ntriples', 'nquads', 'jsonld', 'rdfxml', 'trig'];
