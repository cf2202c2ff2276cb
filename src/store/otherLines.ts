import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { ParseError } from '../errors.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { NTriplesTermWriter } from '../rdf/NTriplesWriter.js';
import { blankNodeLabel, withSubject } from '../rdf/escape.js';
import type { LineScan } from './scanNTriplesLine.js';

// The lines that the scanner of a load does not pass as they are (scanNTriplesLine): parsed by n3, written
// back by the project's term writer, blank node labels as the load writes them everywhere.

/**
 * Parses one line of N-Triples or N-Quads with n3, its blank node labels as written (`_:b1` is `b1`).
 * A syntax error is n3's, as a load of the whole file reports it: a `parse` error naming `source` and `line`.
 */
export async function parseOtherLine(text: string, source: string, line: number, nquads: boolean): Promise<RDF.Quad[]> {
  const format = nquads ? 'N-Quads' : 'N-Triples';
  try {
    return new Parser({ format, blankNodePrefix: '_:' }).parse(text) as RDF.Quad[];
  } catch (err) {
    // The message the parser of the whole input gives (the same n3, through parseRdf), at the line in the input.
    try {
      for await (const _ of parseRdfQuads(text, { format: nquads ? 'nquads' : 'ntriples', source })) {
        // only the error is wanted
      }
    } catch (inner) {
      if (inner instanceof ParseError)
        throw new ParseError(inner.reason, source, line + (inner.line ?? 1) - 1, inner.column, { cause: err });
      throw inner;
    }
    throw new ParseError(
      `invalid ${format}: ${String((err as Error).message).replace(/ on line \d+\.$/, '')}`,
      source,
      line,
      undefined,
      { cause: err },
    );
  }
}

/** The label a load gives a blank node of an input: the writer's label, after the input's `prefix`. */
export function loadLabel(label: string, prefix: string): string {
  return `${prefix}${blankNodeLabel(label)}`;
}

/**
 * Writes triples as N-Triples lines, as the project's writer does, except for blank nodes:
 * `_:` + {@link loadLabel}, the label the load gives the same node on a line sent as it is.
 */
export function writeTriples(quads: readonly RDF.Quad[], prefix: string): string {
  const terms = new NTriplesTermWriter();
  let out = '';
  for (const q of quads) {
    try {
      const s =
        q.subject.termType === 'BlankNode'
          ? `_:${loadLabel(q.subject.value, prefix)}`
          : terms.node(q.subject, 'subject');
      const p = terms.node(q.predicate, 'predicate');
      const o = q.object.termType === 'BlankNode' ? `_:${loadLabel(q.object.value, prefix)}` : terms.object(q.object);
      out += `${s} ${p} ${o} .\n`;
    } catch (error) {
      throw withSubject(error, q.subject, 'N-Triples');
    }
  }
  return out;
}

/** A scanned line (`start` to `end`, without its newline) with its blank nodes labelled by {@link loadLabel} and any graph term cut off. */
export function rewriteLabels(buf: Buffer, start: number, end: number, scan: LineScan, prefix: string): Buffer {
  const pieces: Buffer[] = [];
  let at = start;
  if (scan.subjectBlank) {
    pieces.push(
      buf.subarray(at, scan.subjectStart),
      Buffer.from(loadLabel(buf.toString('latin1', scan.subjectStart, scan.subjectEnd), prefix)),
    );
    at = scan.subjectEnd;
  }
  if (scan.objectBlank) {
    pieces.push(
      buf.subarray(at, scan.objectStart),
      Buffer.from(loadLabel(buf.toString('latin1', scan.objectStart, scan.objectEnd), prefix)),
    );
    at = scan.objectEnd;
  }
  pieces.push(
    scan.graphAt >= 0 ? buf.subarray(at, scan.graphAt) : buf.subarray(at, end),
    Buffer.from(scan.graphAt >= 0 ? ' .\n' : '\n'),
  );
  return Buffer.concat(pieces);
}
