import { ParseError } from '../errors.js';

/**
 * The limits of what the parsers read (`ParseRdfOptions`): their defaults, and
 * the errors that name them.
 */

/** The default of `maxDepth` (parseRdf): levels of nesting of JSON-LD objects and arrays, of RDF/XML elements. */
export const DEFAULT_MAX_DEPTH = 64;

/** The default of `maxDocumentChars` (parseRdf): characters of JSON-LD held at once, of a line of Turtle, N-Triples or N-Quads, of a long string of Turtle or TriG. */
export const DEFAULT_MAX_DOCUMENT_CHARS = 2 ** 23;

/** The limits of what is read at once, as a task's options take them. */
export interface ReadLimits {
  /** Levels of nesting read (JSON records, JSON-LD objects and arrays, RDF/XML elements); deeper input is an error naming the limit. Defaults to 64. */
  maxDepth?: number;
  /** Characters of one document held at once (a JSON document or line, a JSON-LD node, a line of Turtle, N-Triples or N-Quads, a long string literal of Turtle or TriG); larger is an error naming the limit. Defaults to 2^23 (8 MiB). */
  maxDocumentChars?: number;
}

/** The limits of `options` that are set, to spread into `parseRdf`'s or `readRecords`' options. */
export function readLimitsOf(options: ReadLimits): ReadLimits {
  return {
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxDocumentChars !== undefined ? { maxDocumentChars: options.maxDocumentChars } : {}),
  };
}

/** The error for an input nested deeper than `maxDepth`. */
export function tooDeep(what: string, maxDepth: number, source: string, line?: number, column?: number): ParseError {
  return new ParseError(
    `${what} nested deeper than ${maxDepth} levels: not read (\`maxDepth\` raises the limit)`,
    source,
    line,
    column,
  );
}

/** The error for a part of an input larger than `maxDocumentChars`. */
export function tooLarge(what: string, maxChars: number, source: string, line?: number): ParseError {
  const size = maxChars >= 2 ** 20 && maxChars % 2 ** 20 === 0 ? `${maxChars / 2 ** 20} MiB` : `${maxChars} characters`;
  return new ParseError(
    `${what} larger than ${size}, more than is read at once: not read (\`maxDocumentChars\` raises the limit)`,
    source,
    line,
  );
}
