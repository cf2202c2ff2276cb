import { Readable, pipeline, type Transform } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { ParseError, ToolkitError } from '../errors.js';
import { FORMATS, formatFromMediaType, formatInfo, parseFormatName, type FormatName } from '../formats.js';
import { decodeUtf8 } from './decodeUtf8.js';
import type { RdfInput } from './RdfInput.js';
import { createDocumentLoader, type DocumentLoader } from './documentLoader.js';
import type { ClosingRdfXmlParser } from './ClosingRdfXmlParser.js';
import { PositionTracker } from './PositionTracker.js';
import { OUT_OF_ORDER, RecordingLoader, toParseError } from './toParseError.js';
import { sniffFormat } from './sniffFormat.js';
import { splitJsonLdGraph } from './splitJsonLdGraph.js';
import { limitJsonDepth } from './limitJsonDepth.js';
import { limitLineLength } from './limitLineLength.js';
import { limitLongStrings } from './limitLongStrings.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_DOCUMENT_CHARS } from './limits.js';
import { scopedBlankNodes } from '../rdf/scopedBlankNodes.js';

export type { RdfInput };

/** Options of {@link parseRdf}. */
export interface ParseRdfOptions {
  /**
   * The format: a name (`turtle`, `nt`, `jsonld`, `rdfxml`, ...) or a media type
   * (`text/turtle`, `application/ld+json; charset=utf-8`, `application/x-turtle`, ...).
   * Defaults to sniffing the first 4 KiB of the input ({@link sniffFormat}).
   */
  format?: FormatName | string;
  /** The base IRI relative IRIs are resolved against. Defaults to none (relative IRIs in Turtle are an error; JSON-LD drops them). */
  baseIRI?: string;
  /** Loads the documents of JSON-LD `@context` URLs. Defaults to the shipped contexts only, no network ({@link createDocumentLoader}). */
  documentLoader?: DocumentLoader;
  /** The name of the input in error messages (a path or URL). Defaults to `baseIRI`, else `<input>`. */
  source?: string;
  /** The RDF/JS data factory of the quads. Defaults to n3's `DataFactory`. */
  factory?: RDF.DataFactory;
  /**
   * Labels the document's blank nodes by this scope and their labels as written ({@link scopedBlankNodes}), the same
   * in every thread: for documents read as one graph, each in a scope of its own. Defaults to none: each parser's own
   * (n3's depend on the parsers the thread made before).
   */
  blankNodeScope?: string;
  /** Cancels parsing: the iteration throws an `aborted` error. Defaults to none. */
  signal?: AbortSignal;
  /**
   * The caller drops the graph of every quad (validation, loading into one
   * graph). A streamed JSON-LD document `{"@context": ..., "@graph": [...]}` is
   * read in pieces of a few hundred nodes ({@link splitJsonLdGraph}) whatever
   * follows its `@graph` (a graph name given by an `@id` after `@graph` is
   * lost). Without this option it is read in pieces too, unless keys follow
   * its `@graph` (they make its nodes a named graph): such a document is held
   * whole, up to `maxDocumentChars`. Defaults to false.
   */
  ignoreGraphs?: boolean;
  /**
   * JSON-LD: a key that no `@context` maps to an IRI, an `@id` that is no IRI,
   * an ill-formed language tag is an error, where JSON-LD processors drop it
   * silently (validate and load use this: what is dropped is neither checked
   * nor loaded). Needs the `@context` before the keys it maps. Defaults to false.
   */
  strict?: boolean;
  /**
   * The deepest nesting read: of JSON-LD objects and arrays (`{"@graph":[{…}]}`
   * is three levels), of RDF/XML elements (`rdf:RDF` is the first). A deeper
   * input fails with a `parse` error at the first bracket or element too
   * deep, before the parser spends time on it (jsonld-streaming-parser's and
   * the SAX parser's work on every value grows with the depth). Defaults to 64.
   */
  maxDepth?: number;
  /**
   * The most characters held at once: of JSON-LD given as a stream, one node
   * of a top-level `@graph`, or a document held whole (of another layout, or,
   * without `ignoreGraphs`, with keys after its `@graph`); of Turtle, N-Triples
   * and N-Quads, one line, and of Turtle and TriG, one long string literal
   * (`"""…"""`, which spans lines). More is a `parse` error, not an out-of-memory crash.
   * Defaults to 2^23 (8 Mi).
   */
  maxDocumentChars?: number;
}

const SNIFF_CHARS = 4096;

/**
 * n3's DataFactory, tolerating the `null` language/datatype that
 * jsonld-streaming-parser passes to `literal()`; n3 is loaded on first use (a
 * conversion of records, which imports this module, does not need it).
 */
async function n3Factory(): Promise<RDF.DataFactory> {
  const { DataFactory } = await import('n3');
  const factory = DataFactory as unknown as RDF.DataFactory;
  return {
    ...factory,
    literal: (value: string, languageOrDatatype?: string | RDF.NamedNode | RDF.DirectionalLanguage | null) =>
      factory.literal(value, languageOrDatatype ?? undefined),
  };
}

/**
 * Parses an RDF document of any of the formats into quads, streaming:
 * Turtle, N-Triples, N-Quads and TriG with n3's `StreamParser`, RDF/XML with
 * rdfxml-streaming-parser, JSON-LD with jsonld-streaming-parser in its
 * streaming profile (`@context` first in each object; a string input that is
 * not in that order is parsed again without the profile).
 *
 * Bytes are decoded as UTF-8 (a BOM is dropped). Memory does not grow with the
 * input, except for JSON-LD given as one string, which is parsed whole, and a
 * JSON-LD document held whole (up to `maxDocumentChars`: see `ignoreGraphs`).
 *
 * Failures are thrown by the iteration: {@link ParseError} (code `parse`) with
 * the line (and column when the parser knows it), or the `network` error of a
 * `@context` the document loader refused, or `unsupported-media-type`.
 *
 * The quads as an RDF/JS `Stream`: an object-mode `Readable` (n3's
 * `Store.import`, rdf-ext, `QuadStreamSerializer.import` take it as it is;
 * `for await` reads it too). A failure is the stream's `error` event.
 *
 * @example
 * const store = new Store();
 * await new Promise((done, fail) => store.import(parseRdf(text, { format: 'text/turtle', baseIRI })).on('end', done).on('error', fail));
 */
export function parseRdf(input: RdfInput, options: ParseRdfOptions = {}): Readable & RDF.Stream<RDF.Quad> {
  return Readable.from(parseRdfQuads(input, options), { objectMode: true });
}

/**
 * What {@link parseRdf} streams, as an async generator (the toolkit's own
 * readers iterate it without a stream between).
 */
export async function* parseRdfQuads(
  input: RdfInput,
  options: ParseRdfOptions = {},
): AsyncGenerator<RDF.Quad, void, undefined> {
  const source = options.source ?? options.baseIRI ?? '<input>';
  let format = options.format === undefined ? undefined : resolveFormat(options.format);
  let chunks: AsyncIterable<string> = decodeUtf8(input);
  if (format === undefined) {
    const { head, rest } = await readHead(chunks, SNIFF_CHARS);
    const sniffed = sniffFormat(head);
    if (sniffed === undefined || sniffed === 'html') {
      throw new ParseError(
        sniffed === 'html'
          ? 'this is an HTML page, not RDF (give the format, or fetch the term with fetchTerm, which reads JSON-LD embedded in HTML)'
          : `cannot tell the RDF format from the content; give it (-f ${FORMATS.map((f) => f.format).join('|')})`,
        source,
      );
    }
    format = sniffed;
    chunks = rest;
  }
  if (format === 'jsonld' && typeof input === 'string') {
    // The document is in memory anyway: parse it whole, so that a document whose
    // keys are out of streaming order can be parsed again without the profile.
    let quads: RDF.Quad[];
    try {
      quads = await collect(parseOnce(chunks, format, source, options, true));
    } catch (err) {
      if ((err as { cause?: { code?: string } }).cause?.code !== OUT_OF_ORDER) throw err;
      quads = await collect(parseOnce(decodeUtf8(input), format, source, options, false));
    }
    yield* quads;
    return;
  }
  if (format === 'jsonld') {
    const limits = {
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      maxDocumentChars: options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS,
      source,
      keepGraphs: !options.ignoreGraphs,
    };
    for await (const piece of splitJsonLdGraph(chunks, undefined, limits)) {
      try {
        yield* parseOnce(oneChunk(piece.text), format, source, options, true);
      } catch (err) {
        // Lines of the piece -> lines of the input (the piece's first line is its context and its nodes' first line).
        if (err instanceof ParseError && err.line !== undefined && piece.line > 1) {
          throw new ParseError(
            err.reason,
            err.source,
            err.line + piece.line - 1,
            err.line === 1 ? undefined : err.column,
            { cause: err },
          );
        }
        throw err;
      }
    }
    return;
  }
  yield* parseOnce(chunks, format, source, options, true);
}

/**
 * Decodes an input and tells its format from its first 4 KiB
 * ({@link sniffFormat}), for callers that choose how to read it before
 * parsing: the text, whole, and the format (`undefined` when it cannot be
 * told, or for an HTML page: {@link parseRdf} of the text then says why).
 */
export async function sniffRdf(
  input: RdfInput,
): Promise<{ format: FormatName | undefined; text: AsyncIterable<string> }> {
  const { head, rest } = await readHead(decodeUtf8(input), SNIFF_CHARS);
  const sniffed = sniffFormat(head);
  return { format: sniffed === 'html' ? undefined : sniffed, text: rest };
}

/** Resolves a format name or media type; throws `unsupported-media-type` for media types we do not read. */
export function resolveFormat(format: string): FormatName {
  if (format.includes('/')) {
    const found = formatFromMediaType(format);
    if (!found) {
      throw new ToolkitError(
        `cannot parse media type "${format}": the toolkit reads ${FORMATS.map((f) => f.mediaType).join(', ')}`,
        'unsupported-media-type',
      );
    }
    return found;
  }
  return parseFormatName(format);
}

async function* parseOnce(
  chunks: AsyncIterable<string>,
  format: FormatName,
  source: string,
  options: ParseRdfOptions,
  streamingProfile: boolean,
): AsyncGenerator<RDF.Quad, void, undefined> {
  const base = options.factory ?? (await n3Factory());
  const factory = options.blankNodeScope === undefined ? base : scopedBlankNodes(base, options.blankNodeScope);
  const tracker = new PositionTracker();
  const loader = new RecordingLoader(options.documentLoader ?? createDocumentLoader());
  const parser = await createParser(format, { ...options, source }, factory, loader, streamingProfile);
  const info = formatInfo(format);
  const family = info.parser;
  const maxChars = options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS;
  // n3's formats not of a statement a line (Turtle, TriG): a long string literal spans lines, and is bounded apart.
  const lines = (text: AsyncIterable<string>) =>
    info.lines
      ? limitLineLength(text, maxChars, source)
      : limitLongStrings(limitLineLength(text, maxChars, source), maxChars, source);
  const limited =
    family === 'jsonld'
      ? limitJsonDepth(chunks, options.maxDepth ?? DEFAULT_MAX_DEPTH, source)
      : family === 'rdfxml'
        ? chunks
        : lines(chunks);
  // One chunk ahead, not 16 (Readable.from's default): with the parser's own buffer that was 32 chunks of 1 MiB
  // read ahead, however small the limit on a line.
  const feeder = Readable.from(tracker.track(limited), { objectMode: true, highWaterMark: 1 });
  const out = pipeline(feeder, parser as unknown as Transform, () => {
    /* errors surface through the iteration below */
  });
  const onAbort = () => out.destroy(new ToolkitError('parsing was cancelled', 'aborted'));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const quad of out) yield quad as RDF.Quad;
  } catch (err) {
    throw toParseError(err, format, source, tracker, parser, loader, Boolean(options.strict));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    out.destroy();
  }
}

/** The parser of a format; those of RDF/XML and JSON-LD (and their packages) are loaded on first use. */
async function createParser(
  format: FormatName,
  options: ParseRdfOptions,
  factory: RDF.DataFactory,
  documentLoader: RecordingLoader,
  streamingProfile: boolean,
): Promise<Transform | ClosingRdfXmlParser> {
  const info = formatInfo(format);
  switch (info.parser) {
    case 'n3': {
      const { StreamParser } = await import('n3');
      return new StreamParser({
        format: info.mediaType,
        baseIRI: options.baseIRI,
        factory: factory as never,
        // The labels as written: the scoped factory labels them.
        ...(options.blankNodeScope === undefined ? {} : { blankNodePrefix: '' }),
      }) as unknown as Transform;
    }
    case 'rdfxml': {
      const { ClosingRdfXmlParser } = await import('./ClosingRdfXmlParser.js');
      return new ClosingRdfXmlParser({
        dataFactory: factory as never,
        baseIRI: options.baseIRI,
        trackPosition: true,
        maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
        source: options.source,
      });
    }
    case 'jsonld': {
      const { JsonLdParser } = await import('jsonld-streaming-parser');
      return new JsonLdParser({
        dataFactory: factory as never,
        baseIRI: options.baseIRI,
        documentLoader: documentLoader as never,
        streamingProfile,
        streamingProfileAllowOutOfOrderPlainType: streamingProfile,
        // Plain JSON (a server's application/json) is read as JSON-LD.
        ignoreMissingContextLinkHeader: true,
        // A key no context maps to an IRI, an @id that is no IRI, a bad language tag: an error, never a silent drop.
        strictValues: Boolean(options.strict),
      }) as unknown as Transform;
    }
  }
}

async function* oneChunk(text: string): AsyncGenerator<string> {
  yield text;
}

/** Reads at least `size` characters (or all) and returns them with an iterable of the whole text. */
async function readHead(
  chunks: AsyncIterable<string>,
  size: number,
): Promise<{ head: string; rest: AsyncIterable<string> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const buffered: string[] = [];
  let length = 0;
  let done = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    buffered.push(next.value);
    length += next.value.length;
  }
  async function* rest(): AsyncGenerator<string> {
    yield* buffered;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: buffered.join(''), rest: rest() };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
