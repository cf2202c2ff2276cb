import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { RDF_LANG_STRING, XSD_STRING } from '../../rdf/namespaces.js';

/**
 * A compact, structured-clone-friendly form of RDF terms and quads, for
 * sending records to validation workers and results back (faster than
 * N-Triples text: no escaping, no parsing).
 */
export type EncodedTerm = string;

/** `N<iri>`, `B<label>`, `L<value>\u0000<lang>\u0000<datatype>` (`S<value>` for a plain string). */
export function encodeTerm(t: RDF.Term): EncodedTerm {
  switch (t.termType) {
    case 'NamedNode':
      return `N${t.value}`;
    case 'BlankNode':
      return `B${t.value}`;
    case 'Literal':
      if (!t.language && t.datatype.value === XSD_STRING) return `S${t.value}`;
      return `L${t.value}\u0000${t.language}\u0000${t.language ? '' : t.datatype.value}`;
    default:
      return `N${t.value}`;
  }
}

/** The term of {@link encodeTerm}. */
export function decodeTerm(e: EncodedTerm): RDF.Term {
  return decodeTermWith(e, DataFactory as unknown as RDF.DataFactory);
}

/** The term of {@link encodeTerm}, made by `factory`. */
function decodeTermWith(e: EncodedTerm, factory: RDF.DataFactory): RDF.Term {
  const v = e.slice(1);
  switch (e[0]) {
    case 'N':
      return factory.namedNode(v);
    case 'B':
      return factory.blankNode(v);
    case 'S':
      return factory.literal(v);
    default: {
      const a = v.lastIndexOf('\u0000');
      const b = v.lastIndexOf('\u0000', a - 1);
      const lang = v.slice(b + 1, a);
      const dt = v.slice(a + 1);
      return factory.literal(v.slice(0, b), lang || (dt && dt !== RDF_LANG_STRING ? factory.namedNode(dt) : undefined));
    }
  }
}

/** Quads as a flat array: subject, predicate, object, subject, ... (graphs dropped). */
export function encodeQuads(quads: Iterable<RDF.Quad>): EncodedTerm[] {
  const out: EncodedTerm[] = [];
  for (const q of quads) out.push(encodeTerm(q.subject), q.predicate.value, encodeTerm(q.object));
  return out;
}

/** The quads of {@link encodeQuads}. */
export function decodeQuads(encoded: readonly EncodedTerm[]): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  for (let i = 0; i + 2 < encoded.length; i += 3) {
    out.push(
      DataFactory.quad(
        decodeTerm(encoded[i]!) as RDF.Quad_Subject,
        DataFactory.namedNode(encoded[i + 1]!),
        decodeTerm(encoded[i + 2]!) as RDF.Quad_Object,
      ),
    );
  }
  return out;
}

/**
 * Records of quads as one message ({@link encodeRecords}): each distinct term once (by object: a mapper's
 * vocabulary terms and a record's nodes are the same objects quad after quad), all their {@link encodeTerm} texts
 * as one string (one copy to post, not thousands), and each record's quads as term numbers (graphs dropped).
 */
export interface EncodedRecords {
  /** The terms' encoded texts, one after the other. */
  text: string;
  /** Where each term's text ends in {@link text}. */
  ends: Uint32Array;
  /** For each record: its number of quads, then subject, predicate, object numbers for each. */
  quads: Uint32Array;
}

/** The records in the form of {@link EncodedRecords}. */
export function encodeRecords(records: readonly Iterable<RDF.Quad>[]): EncodedRecords {
  // Nodes by object (they repeat); literals are mostly met once, and are sent as met (the receiving interner
  // finds equal ones the same).
  const numbers = new Map<RDF.Term, number>();
  let text = '';
  const ends: number[] = [];
  const quads: number[] = [];
  const add = (t: RDF.Term): number => {
    text += encodeTerm(t);
    return ends.push(text.length) - 1;
  };
  const number = (t: RDF.Term): number => {
    if (t.termType === 'Literal') return add(t);
    let n = numbers.get(t);
    if (n === undefined) numbers.set(t, (n = add(t)));
    return n;
  };
  for (const record of records) {
    const at = quads.length;
    quads.push(0);
    for (const q of record) quads.push(number(q.subject), number(q.predicate), number(q.object));
    quads[at] = (quads.length - at - 1) / 3;
  }
  return { text, ends: Uint32Array.from(ends), quads: Uint32Array.from(quads) };
}

/** The records of {@link encodeRecords}, with terms and quads from `factory` (one term object per number). */
export function decodeRecords(encoded: EncodedRecords, factory: RDF.DataFactory): RDF.Quad[][] {
  const { text, ends, quads } = encoded;
  const terms: RDF.Term[] = new Array(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    terms[i] = decodeTermWith(text.slice(start, ends[i]), factory);
    start = ends[i]!;
  }
  const graph = factory.defaultGraph();
  const out: RDF.Quad[][] = [];
  for (let i = 0; i < quads.length;) {
    const n = quads[i++]!;
    const record: RDF.Quad[] = new Array(n);
    for (let j = 0; j < n; j++, i += 3)
      record[j] = factory.quad(
        terms[quads[i]!] as RDF.Quad_Subject,
        terms[quads[i + 1]!] as RDF.Quad_Predicate,
        terms[quads[i + 2]!] as RDF.Quad_Object,
        graph,
      );
    out.push(record);
  }
  return out;
}
