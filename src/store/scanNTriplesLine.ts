import { XSD_STRING as XSD_STRING_IRI } from '../rdf/namespaces.js';
/** What {@link scanNTriplesLine} found in one line. */
export const LineKind = {
  /** No triple: a blank line, or a comment. */
  Empty: 0,
  /** One triple the store can read as written (a graph term of N-Quads, if any, at `graphAt`). */
  Plain: 1,
  /** Anything else (escapes `\u`, controls, relative IRIs, RDF 1.2 terms, syntax errors, ...): a parser decides. */
  Other: 2,
} as const;
export type LineKind = (typeof LineKind)[keyof typeof LineKind];

/**
 * Where the terms of a line scanned by {@link scanNTriplesLine} are (byte offsets into the buffer; one object,
 * reused from line to line: no allocation per line).
 */
export interface LineScan {
  kind: LineKind;
  /** The subject: an IRI's text between `<>`, or a blank node's label after `_:`. */
  subjectStart: number;
  subjectEnd: number;
  subjectBlank: boolean;
  predicateStart: number;
  predicateEnd: number;
  /** The object: an IRI's text between `<>`, a blank node's label, or (literal) the whole literal, quotes and tag included. */
  objectStart: number;
  objectEnd: number;
  objectBlank: boolean;
  objectIri: boolean;
  /** Where the graph term of an N-Quads line starts (after the object's end), or -1. */
  graphAt: number;
  /** Whether a blank node label is other than letters, digits and `-` (written again the way the project's writer writes it). */
  oddLabel: boolean;
  /** Whether a byte above 0x7F is in the line (its UTF-8 is then checked). */
  nonAscii: boolean;
}

/** A fresh scan result to pass to {@link scanNTriplesLine}. */
export function newLineScan(): LineScan {
  return {
    kind: LineKind.Empty,
    subjectStart: 0,
    subjectEnd: 0,
    subjectBlank: false,
    predicateStart: 0,
    predicateEnd: 0,
    objectStart: 0,
    objectEnd: 0,
    objectBlank: false,
    objectIri: false,
    graphAt: -1,
    oddLabel: false,
    nonAscii: false,
  };
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LT = 0x3c;
const GT = 0x3e;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const UNDERSCORE = 0x5f;
const COLON = 0x3a;
const DOT = 0x2e;
const HASH = 0x23;
const AT = 0x40;
const CARET = 0x5e;
const DASH = 0x2d;

// Bytes an IRI of a plain line may not hold: controls and space, < > " { } | ^ ` \ (an escape goes to the parser).
const IRI_STOP = new Uint8Array(256);
for (let b = 0; b <= SPACE; b++) IRI_STOP[b] = 1;
for (const c of '<>"{}|^`\\') IRI_STOP[c.charCodeAt(0)] = 1;
// Bytes a literal of a plain line stops at: the quote, a backslash, controls (a raw tab or CR goes to the parser).
const LITERAL_STOP = new Uint8Array(256);
for (let b = 0; b < SPACE; b++) LITERAL_STOP[b] = 1;
LITERAL_STOP[QUOTE] = 1;
LITERAL_STOP[BACKSLASH] = 1;
LITERAL_STOP[0x7f] = 1;
// The escapes of N-Triples a store reads as they are (ECHAR); \u and \U go to the parser.
const ECHAR = new Uint8Array(256);
for (const c of 'tbnrf"\'\\') ECHAR[c.charCodeAt(0)] = 1;

const XSD_STRING = Buffer.from(XSD_STRING_IRI);

function isAlpha(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}
function isAlnum(b: number): boolean {
  return isAlpha(b) || (b >= 0x30 && b <= 0x39);
}
function isLowerAlnum(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39);
}

/**
 * A fast, conservative recogniser of one N-Triples or N-Quads line (`start` to `end`, the `\n` left out), for
 * loading lines as they are written: it says `Plain` only for a triple that a store reads to the same terms as
 * the project's parser (n3) does, and `Other` for everything it does not fully check (then n3 parses the
 * line: its error, or its terms written again). Plain means: absolute IRIs with no escape, control, space or
 * `<>"{}|^\`\\`; blank node labels of ASCII letters, digits, `_` and `-`; literals with only `\t \b \n \r \f \" \' \\`
 * escapes and no control bytes, a lower-case language tag without base direction, a datatype other than
 * `xsd:string` (n3's terms drop it on writing); a `.`, then only spaces and a comment. Bytes above 0x7F are
 * taken as they are (`nonAscii` says to check their UTF-8).
 */
export function scanNTriplesLine(
  buf: Uint8Array,
  start: number,
  end: number,
  nquads: boolean,
  out: LineScan,
): LineKind {
  out.oddLabel = false;
  out.nonAscii = false;
  out.graphAt = -1;
  out.kind = LineKind.Other;
  if (end > start && buf[end - 1] === CR) end--;
  let i = skipSpaces(buf, start, end);
  if (i === end || buf[i] === HASH) return (out.kind = LineKind.Empty);
  // subject
  const se = nodeEnd(buf, i, end, out);
  if (se < 0) return LineKind.Other;
  out.subjectBlank = buf[i] === UNDERSCORE;
  out.subjectStart = i + (out.subjectBlank ? 2 : 1);
  out.subjectEnd = out.subjectBlank ? se : se - 1;
  i = se;
  // predicate
  let j = skipSpaces(buf, i, end);
  if (j === i || buf[j] !== LT) return LineKind.Other;
  const pe = iriEnd(buf, j, end, out);
  if (pe < 0) return LineKind.Other;
  out.predicateStart = j + 1;
  out.predicateEnd = pe - 1;
  // object
  i = skipSpaces(buf, pe, end);
  if (i === pe) return LineKind.Other;
  const o = buf[i];
  out.objectBlank = o === UNDERSCORE;
  out.objectIri = o === LT;
  j = o === QUOTE ? literalEnd(buf, i, end, out) : nodeEnd(buf, i, end, out);
  if (j < 0) return LineKind.Other;
  // an IRI's text between <>, a label after _:, a literal whole
  out.objectStart = out.objectIri ? i + 1 : out.objectBlank ? i + 2 : i;
  out.objectEnd = out.objectIri ? j - 1 : j;
  // graph (N-Quads), then the dot
  i = skipSpaces(buf, j, end);
  if (nquads && i > j && (buf[i] === LT || buf[i] === UNDERSCORE)) {
    const ge = nodeEnd(buf, i, end, out);
    if (ge < 0) return LineKind.Other;
    out.graphAt = j;
    i = skipSpaces(buf, ge, end);
  }
  if (i === end || buf[i] !== DOT) return LineKind.Other;
  i = skipSpaces(buf, i + 1, end);
  if (i !== end && buf[i] !== HASH) return LineKind.Other;
  return (out.kind = LineKind.Plain);
}

function skipSpaces(buf: Uint8Array, i: number, end: number): number {
  while (i < end && (buf[i] === SPACE || buf[i] === TAB)) i++;
  return i;
}

/** The end of an IRI (`<`) or a blank node (`_:`) starting at `i`, or -1. */
function nodeEnd(buf: Uint8Array, i: number, end: number, out: LineScan): number {
  const b = buf[i];
  return b === LT ? iriEnd(buf, i, end, out) : b === UNDERSCORE ? labelEnd(buf, i, end, out) : -1;
}

/** The end (after `>`) of an absolute IRI starting at `i` (`<`), or -1. */
function iriEnd(buf: Uint8Array, i: number, end: number, out: LineScan): number {
  let k = i + 1;
  // a scheme: a letter, then letters, digits, + - . up to the colon
  if (k >= end || !isAlpha(buf[k]!)) return -1;
  k++;
  while (k < end) {
    const b = buf[k]!;
    if (b === COLON) break;
    if (!(isAlnum(b) || b === 0x2b || b === DASH || b === DOT)) return -1;
    k++;
  }
  for (; k < end; k++) {
    const b = buf[k]!;
    if (b === GT) return k + 1;
    if (b > 0x7f) out.nonAscii = true;
    else if (IRI_STOP[b]) return -1;
  }
  return -1;
}

/** The end of a blank node label starting at `i` (`_:`), or -1. Labels other than letters, digits and `-` set `oddLabel`. */
function labelEnd(buf: Uint8Array, i: number, end: number, out: LineScan): number {
  if (i + 2 >= end || buf[i + 1] !== COLON) return -1;
  let k = i + 2;
  const first = buf[k]!;
  if (!(isAlnum(first) || first === UNDERSCORE)) return -1;
  if (first === UNDERSCORE) out.oddLabel = true;
  for (k++; k < end; k++) {
    const b = buf[k]!;
    if (b === SPACE || b === TAB) return k;
    if (b === UNDERSCORE) out.oddLabel = true;
    else if (!(isAlnum(b) || b === DASH)) return -1; // a dot, a non-ASCII letter, ... : the parser decides
  }
  return -1;
}

/** The end of a literal starting at `i` (`"`) with its tag or datatype, or -1. */
function literalEnd(buf: Uint8Array, i: number, end: number, out: LineScan): number {
  let k = i + 1;
  for (; k < end; k++) {
    const b = buf[k]!;
    if (b > 0x7f) {
      out.nonAscii = true;
      continue;
    }
    if (!LITERAL_STOP[b]) continue;
    if (b === QUOTE) break;
    if (b === BACKSLASH && k + 1 < end && ECHAR[buf[k + 1]!]) {
      k++;
      continue;
    }
    return -1;
  }
  if (k >= end) return -1;
  k++; // past the closing quote
  if (k < end && buf[k] === AT) {
    // a language tag, lower case (n3 lowers it), no base direction (`--`)
    let n = k + 1;
    const tag = n;
    while (n < end && buf[n]! >= 0x61 && buf[n]! <= 0x7a) n++;
    if (n === tag) return -1;
    while (n < end && buf[n] === DASH) {
      const sub = ++n;
      while (n < end && isLowerAlnum(buf[n]!)) n++;
      if (n === sub) return -1;
    }
    return n;
  }
  if (k < end && buf[k] === CARET) {
    if (k + 2 >= end || buf[k + 1] !== CARET || buf[k + 2] !== LT) return -1;
    const e = iriEnd(buf, k + 2, end, out);
    if (e < 0) return -1;
    // "x"^^xsd:string is written back as "x" by the project's writer: the parser's path keeps that.
    if (
      e - k - 4 === XSD_STRING.length &&
      Buffer.from(buf.buffer, buf.byteOffset + k + 3, XSD_STRING.length).equals(XSD_STRING)
    )
      return -1;
    return e;
  }
  return k;
}
