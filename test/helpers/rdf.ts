/**
 * Test helpers for RDF: parse every format with a parser that is NOT ours, and
 * compare graphs with rdf-isomorphic (printing a diff of sorted N-Triples on failure).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Writer } from 'n3';
import jsonld from 'jsonld';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { isomorphic } from 'rdf-isomorphic';
import { expect } from 'vitest';

import { CONTEXT_URL } from '../../src/serialize/jsonldContext.js';

export { CONTEXT_URL };
const CONTEXT_PATH = new URL('../../vocab/context.jsonld', import.meta.url);

function parseWithN3(text: string, format: string): RDF.Quad[] {
  return new Parser({ format, factory: DataFactory }).parse(text) as RDF.Quad[];
}

/** Parses Turtle with n3. */
export function parseTurtle(text: string, baseIRI?: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle', baseIRI, factory: DataFactory }).parse(text) as RDF.Quad[];
}

/** Parses N-Triples with n3 (strict N-Triples grammar). */
export function parseNTriples(text: string): RDF.Quad[] {
  return parseWithN3(text, 'application/n-triples');
}

/** Parses TriG with n3. */
export function parseTriG(text: string, baseIRI?: string): RDF.Quad[] {
  return new Parser({ format: 'application/trig', baseIRI, factory: DataFactory }).parse(text) as RDF.Quad[];
}

/** Parses N-Quads with n3 (strict N-Quads grammar). */
export function parseNQuads(text: string): RDF.Quad[] {
  return parseWithN3(text, 'application/n-quads');
}

/**
 * A jsonld.js document loader that serves `vocab/context.jsonld` for
 * {@link CONTEXT_URL} and refuses every other URL (tests never use the network).
 */
export async function offlineDocumentLoader(
  url: string,
): Promise<{ contextUrl: null; documentUrl: string; document: unknown }> {
  if (url === CONTEXT_URL) {
    return { contextUrl: null, documentUrl: url, document: JSON.parse(readFileSync(CONTEXT_PATH, 'utf8')) };
  }
  throw new Error(`offline document loader: refusing to fetch ${url}`);
}

/** Parses JSON-LD with jsonld.js (toRDF), offline. Returns quads built with n3's DataFactory. */
export async function parseJsonLd(text: string): Promise<RDF.Quad[]> {
  const doc = JSON.parse(text);
  const nquads = (await jsonld.toRDF(doc, {
    format: 'application/n-quads',
    documentLoader: offlineDocumentLoader as never,
    safe: true,
  } as never)) as unknown as string;
  return parseNQuads(nquads);
}

/** Parses RDF/XML with rdfxml-streaming-parser. */
export function parseRdfXml(text: string, baseIRI?: string): Promise<RDF.Quad[]> {
  return new Promise((resolve, reject) => {
    const quads: RDF.Quad[] = [];
    const parser = new RdfXmlParser({ dataFactory: DataFactory as never, baseIRI });
    parser.on('data', (q: RDF.Quad) => quads.push(q));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    Readable.from([text]).pipe(parser);
  });
}

/** The quads as sorted, de-duplicated N-Triples/N-Quads lines (for diffs and snapshots). */
export function toSortedNQuads(quads: Iterable<RDF.Quad>): string[] {
  const writer = new Writer({ format: 'N-Quads' });
  const lines = new Set<string>();
  for (const q of quads)
    lines.add(
      writer.quadToString(q.subject as never, q.predicate as never, q.object as never, q.graph as never).trim(),
    );
  return [...lines].sort();
}

/**
 * Asserts that two graphs are isomorphic (blank nodes matched by structure).
 * On failure, shows the lines only in `actual` (+) and only in `expected` (-) as sorted N-Quads.
 */
export function expectIsomorphic(
  actual: readonly RDF.Quad[],
  expected: readonly RDF.Quad[],
  message = 'graphs differ',
): void {
  if (isomorphic([...actual], [...expected])) return;
  const a = toSortedNQuads(actual);
  const e = toSortedNQuads(expected);
  const aSet = new Set(a);
  const eSet = new Set(e);
  const diff = [
    ...a.filter((l) => !eSet.has(l)).map((l) => `+ ${l}`),
    ...e.filter((l) => !aSet.has(l)).map((l) => `- ${l}`),
  ];
  if (diff.length === 0) diff.push('(same lines after label normalisation: blank node structure differs)');
  expect.fail(
    `${message} (actual ${actual.length} quads, expected ${expected.length}):\n${diff.slice(0, 200).join('\n')}`,
  );
}
