/**
 * The escaping of RDF terms shared by the N-Triples, N-Quads and Turtle
 * writers (and the validation report): literal strings, IRIs, blank node
 * labels, and the check that a string can be carried at all. Fast paths test
 * a regular expression first and only rebuild strings that need it. The XML
 * and JSON escaping of the other serialisers is in `serialize/escape.ts`.
 */
import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { isMintedIri } from './dataFactory.js';
import { flat } from './flat.js';
import { binaryText, utf8BinaryText } from './binaryText.js';

/**
 * A `serialization` error naming the subject being written (when known) and
 * the format. Thrown for input a format cannot carry.
 */
export function serializationError(message: string, subject?: RDF.Term, format?: string): ToolkitError {
  const where = subject ? ` (subject ${termLabel(subject)})` : '';
  const fmt = format ? `${format}: ` : '';
  return new ToolkitError(`${fmt}${message}${where}`, 'serialization', {
    details: { ...(subject ? { subject: termLabel(subject) } : {}), ...(format ? { format } : {}) },
  });
}

function termLabel(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType === 'BlankNode') return `_:${term.value}`;
  return JSON.stringify(term.value);
}

/**
 * The RDF 1.2 base direction of a literal (`ltr`, `rtl`), or '' when it has
 * none; any other value is refused (a `serialization` error).
 */
export function baseDirection(term: RDF.Literal): '' | 'ltr' | 'rtl' {
  const direction = (term as RDF.Literal & { direction?: string | null }).direction;
  if (!direction) return '';
  if (direction === 'ltr' || direction === 'rtl') return direction;
  throw serializationError(`invalid base direction "${direction}" (RDF 1.2 knows ltr and rtl)`);
}

/**
 * Re-throws a `serialization` error with the subject added to its message
 * (escape functions do not know the subject; writers catch and call this).
 */
export function withSubject(error: unknown, subject: RDF.Term, format: string): unknown {
  if (error instanceof ToolkitError && error.code === 'serialization' && !('subject' in error.details)) {
    const e = serializationError(error.message, subject, format);
    (e as { cause?: unknown }).cause = error;
    return e;
  }
  return error;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws a `serialization` error if the string holds a lone surrogate (no format can carry one as UTF-8). */
export function assertWellFormed(value: string): void {
  const m = LONE_SURROGATE.exec(value);
  if (m) {
    const at = m.index;
    throw serializationError(
      `string holds a lone surrogate U+${value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')} at offset ${at}`,
    );
  }
}

/** A UTF-16 code unit as four upper-case hex digits (`001F`). */
export function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

// Anything that needs work in an N-Triples/Turtle string: controls, DEL, ", \ and surrogates (checked for pairing).
const LITERAL_NEEDS = /[\u0000-\u001F"\\\u007F\uD800-\uDFFF]/;
const LITERAL_ALL = /[\u0000-\u001F"\\\u007F]/g;

function escapeLiteralChar(c: string): string {
  switch (c) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${hex4(c.charCodeAt(0))}`;
  }
}

/**
 * Escapes the lexical form of a literal for a `"..."` string of N-Triples,
 * N-Quads or Turtle: `\\ \" \n \r \t`, and `\uXXXX` for the other controls
 * and DEL. Throws `serialization` on a lone surrogate.
 */
export function escapeLiteral(value: string): string {
  // a value the mapper joined is flattened before the test (`flat`: tested as a concatenation, it costs more)
  if (!LITERAL_NEEDS.test(flat(value))) return value;
  assertWellFormed(value);
  return value.replace(LITERAL_ALL, escapeLiteralChar);
}

/**
 * Anything but printable ASCII other than `"` and `\\`: a literal's value without it is written as it is. Global:
 * {@link literalText} reads where the first one is from `lastIndex`.
 */
const NOT_PLAIN = /[^\u0020\u0021\u0023-\u005B\u005D-\u007E]/g;
/** {@link LITERAL_NEEDS}, global: tested from where {@link NOT_PLAIN} found the first character that is not plain. */
const LITERAL_NEEDS_FROM = /[\u0000-\u001F"\\\u007F\uD800-\uDFFF]/g;

/**
 * {@link escapeLiteral} of a value, then, for a writer of binary strings (`binary`), `binaryText` of it; a value
 * of printable ASCII other than `"` and `\\` (most) is its own, found by one test. A value read once: its plain
 * start is not tested again for escapes, and a value whose first character that is not plain is past U+007F is
 * not tested again for ASCII (escaping leaves such a character as it is).
 */
export function literalText(value: string, binary: boolean): string {
  // most of a record's values are concatenations the mapper made: flattened before the test (`flat`)
  NOT_PLAIN.lastIndex = 0;
  if (!NOT_PLAIN.test(flat(value))) return value;
  const at = NOT_PLAIN.lastIndex - 1;
  LITERAL_NEEDS_FROM.lastIndex = at;
  let text = value;
  if (LITERAL_NEEDS_FROM.test(value)) {
    assertWellFormed(value);
    text = value.replace(LITERAL_ALL, escapeLiteralChar);
  }
  if (!binary) return text;
  return value.charCodeAt(at) > 0x7f ? utf8BinaryText(text) : binaryText(text);
}

// IRIREF excludes #x00-#x20 < > " { } | ^ ` \ ; these are not allowed in IRIs at all (RFC 3987), so
// an N-Triples \uXXXX escape of them still names an invalid IRI that strict parsers (n3, Jena) refuse.
const IRI_NEEDS = /[\u0000-\u0020<>"{}|^`\\\uD800-\uDFFF]/;
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/;

/**
 * Checks an IRI for every format and returns it: characters that no IRI may
 * hold (controls, space, `<>"{}|^\`\\`) and lone surrogates throw a
 * `serialization` error naming the character. Such an IRI cannot be written
 * validly in any RDF syntax (an N-Triples `\u0020` escape is refused by
 * strict parsers), and rewriting it (percent-encoding) would change the graph.
 * The mapper percent-encodes DOIs, so its IRIs always pass.
 */
export function escapeIri(iri: string): string {
  if (!IRI_NEEDS.test(iri)) return iri;
  const m = IRI_FORBIDDEN.exec(iri);
  if (m) {
    throw serializationError(
      `the IRI <${iri.replace(/[\u0000-\u001F]/g, '?')}> holds U+${hex4(m[0].charCodeAt(0))}, which IRIs cannot carry (percent-encode it)`,
    );
  }
  assertWellFormed(iri);
  return iri;
}

/** {@link escapeIri} of a named node's IRI, skipped for one the mapper minted ({@link isMintedIri}: checked by construction). */
export function escapeTermIri(term: RDF.NamedNode): string {
  return isMintedIri(term) ? term.value : escapeIri(term.value);
}

const SIMPLE_LABEL = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/**
 * A blank node label valid in N-Triples, Turtle and JSON-LD, derived
 * injectively from the RDF/JS label: labels of letters, digits and `-` (not
 * leading) stay as they are; in any other label every character outside
 * `[A-Za-z0-9]` becomes `_<hex code point>_`.
 */
export function blankNodeLabel(label: string): string {
  if (SIMPLE_LABEL.test(label)) return label;
  let out = '';
  for (const ch of label) {
    out += /[A-Za-z0-9]/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out === '' ? '_0_' : out;
}
