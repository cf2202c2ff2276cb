import type { FormatName } from '../formats.js';

/** What {@link sniffFormat} can recognise: an RDF format, or an HTML page (which may embed JSON-LD). */
export type SniffedFormat = FormatName | 'html';

const IRI = '<[^<>"{}|^`\\\\\\s]*>';
const BNODE = '_:[A-Za-z0-9_][^\\s]*';
const LITERAL = '"(?:[^"\\\\\\n\\r]|\\\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\\^\\^' + IRI + ')?';
const NT_LINE = new RegExp(`^(?:${IRI}|${BNODE})\\s*${IRI}\\s*(?:${IRI}|${BNODE}|${LITERAL})\\s*\\.\\s*(?:#.*)?$`);
const NQ_LINE = new RegExp(
  `^(?:${IRI}|${BNODE})\\s*${IRI}\\s*(?:${IRI}|${BNODE}|${LITERAL})\\s*(?:${IRI}|${BNODE})\\s*\\.\\s*(?:#.*)?$`,
);

/**
 * Guesses the format of an RDF document from its first characters (a few
 * kilobytes are plenty), for servers that send a wrong `Content-Type` and for
 * standard input. Returns `undefined` when nothing fits.
 *
 * - `{` or `[{` / `[]` / `[[` / `["` / `[1` → JSON-LD (plain JSON included);
 * - `<!DOCTYPE html`, `<html`, `<head`, `<body` → HTML;
 * - `<?xml`, `<rdf:RDF` or another XML element → RDF/XML;
 * - lines that are all `<s> <p> <o> .` → N-Triples (four terms → N-Quads);
 * - `@prefix`, `PREFIX`, `@base`, or anything else triple-like → Turtle.
 *
 * N-Triples is a subset of Turtle: a Turtle file written one full triple per
 * line sniffs as N-Triples, which parses the same.
 */
export function sniffFormat(bodyStart: string): SniffedFormat | undefined {
  const text = bodyStart.replace(/^\uFEFF/, '');
  const head = text.trimStart();
  if (head === '') return undefined;
  const first = head[0];
  if (first === '{') return 'jsonld';
  if (first === '[') {
    // JSON array (of node objects, or of anything: `[[`, `[1`, `[null,`), or a Turtle blank node property list `[ a ... ]`,
    // whose first word is a predicate (an IRI, a prefixed name, `a`).
    const rest = head.slice(1).trimStart();
    const next = rest[0];
    if (
      next === undefined ||
      next === '{' ||
      next === ']' ||
      next === '"' ||
      next === '[' ||
      /^(?:-?\d|(?:true|false|null)\s*[,\]])/.test(rest)
    )
      return 'jsonld';
    return 'turtle';
  }
  if (first === '<') {
    const lower = head.slice(0, 512).toLowerCase();
    if (/^<!doctype\s+html|^<html[\s>]|^<head[\s>]|^<body[\s>]/.test(lower)) return 'html';
    if (/^<(?:\?xml|rdf:rdf[\s>]|!doctype\s+rdf|!--)/.test(lower)) return xmlKind(head);
    if (/^<[a-z_][\w.-]*(?::[\w.-]+)?[\s/>]/i.test(head) && !/^<[a-z][a-z0-9+.-]*:[^\s>]*>/i.test(head)) {
      return xmlKind(head);
    }
    // `<http://...>`: an IRI, so a triple.
    return lineFormat(head);
  }
  return lineFormat(head);
}

/** An XML document: RDF/XML unless it is XHTML. */
function xmlKind(head: string): SniffedFormat {
  const sample = head.slice(0, 4096);
  if (/<rdf:RDF[\s>]|xmlns(?::\w+)?=["']http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#["']/.test(sample))
    return 'rdfxml';
  if (/<html[\s>]/i.test(sample)) return 'html';
  return 'rdfxml';
}

/** Decides between N-Triples, N-Quads and Turtle from the complete lines of the sample. */
function lineFormat(head: string): SniffedFormat | undefined {
  const lines = head.split(/\r?\n/);
  // The last line may be cut off by the sample: only judge complete lines, unless there is one.
  const complete = lines.length > 1 ? lines.slice(0, -1) : lines;
  let nt = 0;
  let nq = 0;
  let other = 0;
  for (const raw of complete) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^(?:@prefix|@base|prefix\s|base\s)/i.test(line)) return 'turtle';
    if (NT_LINE.test(line)) nt++;
    else if (NQ_LINE.test(line)) nq++;
    else other++;
  }
  if (other > 0) return looksLikeTurtle(head) ? 'turtle' : undefined;
  if (nq > 0) return 'nquads';
  if (nt > 0) return 'ntriples';
  return looksLikeTurtle(head) ? 'turtle' : undefined;
}

function looksLikeTurtle(head: string): boolean {
  // A subject (IRI, prefixed name or blank node) followed by a predicate.
  return /^(?:<[^>\s]*>|[A-Za-z][\w.-]*:[\w.-]*|:[\w.-]*|_:\S+)\s+(?:a\s|<|[A-Za-z][\w.-]*:|:)/m.test(head);
}
