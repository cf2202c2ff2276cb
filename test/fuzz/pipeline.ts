/**
 * The pipeline under fuzz: bytes → readRecords → mapItem → each of the
 * six record writers, and the checks the properties share (parse back with
 * parsers that are not ours, compare graphs with rdf-isomorphic).
 */
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { isomorphic } from 'rdf-isomorphic';
import { type MapItemOutcome as ConvertOutcome, mapItem as convertItem } from '../../src/pipeline/mapItem.js';
import { type ReadItem, readRecords } from '../../src/record/readRecords.js';
import type { FormatName } from '../../src/formats.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import {
  parseJsonLd,
  parseNQuads,
  parseNTriples,
  parseRdfXml,
  parseTriG,
  parseTurtle,
  toSortedNQuads,
} from '../helpers/rdf.js';

/** The six formats, each with a parser that is not ours. */
export const FORMATS: readonly { format: FormatName; parse: (text: string) => RDF.Quad[] | Promise<RDF.Quad[]> }[] = [
  { format: 'turtle', parse: parseTurtle },
  { format: 'ntriples', parse: parseNTriples },
  { format: 'nquads', parse: parseNQuads },
  { format: 'jsonld', parse: parseJsonLd },
  { format: 'rdfxml', parse: parseRdfXml },
  { format: 'trig', parse: parseTriG },
];

/** What one input gave. */
export interface PipelineResult {
  items: ReadItem[];
  outcomes: ConvertOutcome[];
  /** The quads of every mapped record, in order. */
  quads: RDF.Quad[];
  /** Output text per format. */
  outputs: Map<FormatName, string>;
}

/** Reads all items of an input given as text or bytes, in chunks of `chunkSize` bytes (split anywhere, even inside a character). */
export async function readAll(input: string | Buffer, source = 'fuzz.json', chunkSize = 7919): Promise<ReadItem[]> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const items: ReadItem[] = [];
  for await (const item of readRecords(Readable.from(chunks, { objectMode: true }), { source })) items.push(item);
  return items;
}

/** Runs the whole pipeline; every exception escapes (the properties assert there is none). */
export async function runPipeline(
  input: string | Buffer,
  formats: readonly FormatName[] = FORMATS.map((f) => f.format),
  chunkSize?: number,
): Promise<PipelineResult> {
  const items = await readAll(input, 'fuzz.json', chunkSize);
  const outcomes = items.map((item) => convertItem(item));
  const groups = outcomes.flatMap((o) => (o.kind === 'mapped' ? [o.mapped.quads] : []));
  const outputs = new Map<FormatName, string>();
  for (const format of formats) {
    const writer = serializerFor(format).createWriter();
    let text = writer.start();
    for (const group of groups) text += writer.write(group);
    text += writer.end();
    outputs.set(format, text);
  }
  return { items, outcomes, quads: groups.flat(), outputs };
}

/** A key of a quad's terms (type, value, language, datatype): equal keys, equal quads. */
function quadKey(q: RDF.Quad): string {
  const t = (x: RDF.Term): string =>
    x.termType === 'Literal' ? `L${x.value}\u0000${x.language}\u0000${x.datatype.value}` : `${x.termType[0]}${x.value}`;
  return `${t(q.subject)}\u0001${t(q.predicate)}\u0001${t(q.object)}\u0001${t(q.graph)}`;
}

/** The quads without duplicates (a graph is a set; JSON-LD processors drop duplicates). */
export function dedupe(quads: readonly RDF.Quad[]): RDF.Quad[] {
  const seen = new Set<string>();
  const out: RDF.Quad[] = [];
  for (const q of quads) {
    const key = quadKey(q);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(q);
    }
  }
  return out;
}

/** Throws, with a diff, unless the parsed quads are the mapper's graph. */
export function assertSameGraph(actual: readonly RDF.Quad[], expected: readonly RDF.Quad[], label: string): void {
  const a = dedupe(actual);
  const e = dedupe(expected);
  if (a.length === e.length && isomorphic(a, e)) return;
  const aLines = new Set(toSortedNQuads(a));
  const eLines = new Set(toSortedNQuads(e));
  const diff = [
    ...[...aLines].filter((l) => !eLines.has(l)).map((l) => `+ ${l}`),
    ...[...eLines].filter((l) => !aLines.has(l)).map((l) => `- ${l}`),
  ];
  throw new Error(
    `${label}: parsed graph (${a.length}) differs from the mapper's (${e.length}):\n${diff.slice(0, 20).join('\n')}`,
  );
}

// What strict stores and checkers (Jena's riot and RDF/XML reader) warn about or refuse.
const BAD_TEXT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LEADING_COMPOSING = /^[\p{M}\u1160-\u11FF\uD7B0-\uD7FF]/u;
const BAD_IRI_CHAR = /[\u0000-\u0020<>"{}|\\^`\u007F-\u009F\p{Z}\p{Cf}\p{Co}\p{Cn}\p{Cs}]|[\u{10000}-\u{10FFFF}]/u;
const HTTP_IRI = /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[^/?#@:[\]]+)(:\d+)?([/?#]|$)/;
// The one other IRI the mapper writes: a journal's ISSN as a URN (RFC 3044), `owl:sameAs` from the journal.
const ISSN_URN = /^urn:issn:[0-9]{4}-[0-9]{3}[0-9X]$/;

/**
 * Throws unless every term is one strict checkers accept without a warning:
 * literals without the characters XML cannot carry, in NFC, not starting
 * with a combining character; IRIs of http(s) with a host (or `urn:issn:<ISSN>`), in NFC, with only
 * visible characters of the BMP (percent-encoding for the rest), no dot
 * segments, at most one '#'.
 */
export function assertStoreSafe(quads: readonly RDF.Quad[]): void {
  for (const q of quads) {
    for (const term of [q.subject, q.predicate, q.object]) {
      const v = term.value;
      if (term.termType === 'Literal') {
        if (BAD_TEXT.test(v)) throw new Error(`literal holds a character XML cannot carry: ${JSON.stringify(v)}`);
        if (v.normalize('NFC') !== v) throw new Error(`literal not in NFC: ${JSON.stringify(v)}`);
        if (LEADING_COMPOSING.test(v))
          throw new Error(`literal starts with a combining character: ${JSON.stringify(v)}`);
      } else if (term.termType === 'NamedNode') {
        if (!HTTP_IRI.test(v) && !ISSN_URN.test(v))
          throw new Error(`IRI is not http(s) with a host (nor an ISSN's URN): <${v}>`);
        if (BAD_IRI_CHAR.test(v)) throw new Error(`IRI holds a character strict checkers refuse: <${v}>`);
        if (v.normalize('NFC') !== v) throw new Error(`IRI not in NFC: <${v}>`);
        if (/\/\.\.?(\/|[?#]|$)/.test(v)) throw new Error(`IRI holds a dot segment: <${v}>`);
        if ((v.match(/#/g)?.length ?? 0) > 1) throw new Error(`IRI holds two '#': <${v}>`);
        if (/%(?![0-9A-Fa-f]{2})/.test(v)) throw new Error(`IRI holds a bad percent-escape: <${v}>`);
      } else {
        throw new Error(`unexpected ${term.termType} (the mapper mints no blank nodes)`);
      }
    }
  }
}
