import type { Transform } from 'node:stream';
import { ParseError, ToolkitError } from '../errors.js';
import { FORMATS, type FormatName } from '../formats.js';
import type { ClosingRdfXmlParser } from './ClosingRdfXmlParser.js';
import type { DocumentLoader } from './documentLoader.js';
import type { PositionTracker } from './PositionTracker.js';
import { safeMessage } from './safeMessage.js';

/** The code of jsonld-streaming-parser's error for keys out of streaming order. */
export const OUT_OF_ORDER = 'invalid streaming key order';

/** Errors of jsonld-streaming-parser's strictValues: what a JSON-LD processor drops without a word. */
const STRICT_CODES = new Set([
  'invalid IRI mapping',
  'invalid @id value',
  'invalid language-tagged string',
  'invalid language mapping',
  'invalid term definition',
]);

/** Turns whatever a parser threw into a ParseError with a position, keeping our own errors as they are. */
export function toParseError(
  err: unknown,
  format: FormatName,
  source: string,
  tracker: PositionTracker,
  parser: Transform | ClosingRdfXmlParser,
  loader: RecordingLoader,
  strict: boolean,
): Error {
  if (loader.failure && /remote context/i.test(String((err as Error)?.message))) {
    const failure = loader.failure;
    return new ToolkitError(`${source}: ${failure.message}`, failure.code, {
      cause: failure,
      details: failure.details as Record<string, unknown>,
    });
  }
  if (err instanceof ToolkitError) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  if ((error as NodeJS.ErrnoException).syscall) {
    return new ToolkitError(`cannot read ${source}: ${error.message}`, 'io', {
      cause: error,
      details: { path: source },
    });
  }
  let message = error.message;
  let suffix = '';
  let line: number | undefined;
  let column: number | undefined;
  const label = FORMATS.find((f) => f.format === format)!.label;
  if (format === 'rdfxml') {
    // rdfxml-streaming-parser: "Line 4 column 5: msg"; saxes: "4:12: msg".
    const m = /^Line (\d+) column (\d+): ([\s\S]*)$/.exec(message) ?? /^(\d+):(\d+): ([\s\S]*)$/.exec(message);
    if (m) {
      line = Number(m[1]);
      column = Number(m[2]);
      message = m[3]!;
    } else if ('position' in parser) {
      ({ line, column } = parser.position);
    }
  } else if (format === 'jsonld') {
    const m = / at position (\d+)/.exec(message);
    if (m) ({ line, column } = tracker.locate(Number(m[1])));
    if ((error as { code?: string }).code === OUT_OF_ORDER) {
      suffix =
        ' — the JSON-LD is not in streaming order (@context first); give it as a whole string instead of a stream';
    } else if (strict && STRICT_CODES.has((error as { code?: string }).code ?? '')) {
      const key = /^Invalid predicate IRI: (\w+)$/.exec(message)?.[1];
      if (key !== undefined && SERVICE_KEYS.has(key)) {
        return new ParseError(
          `this is the service's JSON (records as the metadata API sends them: "${key}" is one of its keys), not RDF: convert it first (convertFiles; the convert command)`,
          source,
          line,
          column,
          { cause: error },
        );
      }
      suffix =
        ' — a JSON-LD processor would drop it silently (no @context maps it to an IRI, or the @context comes after it)';
    }
  } else {
    const context = (error as { context?: { line?: number } }).context;
    if (typeof context?.line === 'number') line = context.line;
    message = message.replace(/ on line \d+\.$/, '');
  }
  return new ParseError(`invalid ${label}: ${safeMessage(message)}${suffix}`, source, line, column, { cause: error });
}

/** Keys only the service's envelopes and records have: JSON-LD that fails on one of them is the service's JSON. */
const SERVICE_KEYS = new Set([
  'apiMessage',
  'apiKey',
  'result',
  'records',
  'facets',
  'nextPage',
  'contentType',
  'identifier',
  'publicationName',
  'creators',
  'onlineDate',
  'publicationDate',
  'openaccess',
  'printIsbn',
  'electronicIsbn',
  'journalId',
  'publicationType',
]);

/** Wraps a document loader and remembers the last ToolkitError it threw (parsers reword it). */
export class RecordingLoader implements DocumentLoader {
  failure: ToolkitError | undefined;
  constructor(private readonly inner: DocumentLoader) {}
  async load(url: string) {
    try {
      return await this.inner.load(url);
    } catch (err) {
      if (err instanceof ToolkitError) this.failure = err;
      throw err;
    }
  }
}
