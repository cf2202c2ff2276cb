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
 * Records of quads as one message ({@link encodeRecords}): the texts of all their terms as one string (one copy to
 * post, not thousands), what each term is, and each record's quads as term numbers (graphs dropped).
 */
export interface EncodedRecords {
  /** The terms' texts, one after the other: a term's value, then its language tag or datatype IRI if it has one. */
  text: string;
  /** Where each text ends in {@link text}. */
  ends: Uint32Array;
  /** What each term is: {@link KIND_IRI}, {@link KIND_BLANK}, {@link KIND_STRING} (one text), {@link KIND_LANG}, {@link KIND_TYPED} (two). */
  kinds: Uint8Array;
  /** For each record: its number of quads, then subject, predicate, object numbers for each. */
  quads: Uint32Array;
}

const KIND_IRI = 0;
const KIND_BLANK = 1;
const KIND_STRING = 2;
const KIND_LANG = 3;
const KIND_TYPED = 4;

/**
 * The records in the form of {@link EncodedRecords}: each node and predicate object once (a mapper's vocabulary
 * terms and a record's nodes are the same objects quad after quad), literals as met (the receiving interner finds
 * equal ones the same), their strings as they are, joined once.
 */
export function encodeRecords(records: readonly Iterable<RDF.Quad>[]): EncodedRecords {
  const numbers = new Map<RDF.Term, number>();
  const texts: string[] = [];
  const kinds: number[] = [];
  const quads: number[] = [];
  const literal = (t: RDF.Literal): number => {
    texts.push(t.value);
    if (t.language) {
      texts.push(t.language);
      return kinds.push(KIND_LANG) - 1;
    }
    if (t.datatype.value !== XSD_STRING) {
      texts.push(t.datatype.value);
      return kinds.push(KIND_TYPED) - 1;
    }
    return kinds.push(KIND_STRING) - 1;
  };
  const number = (t: RDF.Term): number => {
    if (t.termType === 'Literal') return literal(t);
    let n = numbers.get(t);
    if (n === undefined) {
      texts.push(t.value);
      numbers.set(t, (n = kinds.push(t.termType === 'BlankNode' ? KIND_BLANK : KIND_IRI) - 1));
    }
    return n;
  };
  for (const record of records) {
    const at = quads.length;
    quads.push(0);
    for (const q of record) quads.push(number(q.subject), number(q.predicate), number(q.object));
    quads[at] = (quads.length - at - 1) / 3;
  }
  const ends = new Uint32Array(texts.length);
  let end = 0;
  for (let i = 0; i < texts.length; i++) ends[i] = end += texts[i]!.length;
  return { text: texts.join(''), ends, kinds: Uint8Array.from(kinds), quads: Uint32Array.from(quads) };
}

/** The records of {@link encodeRecords}, with terms and quads from `factory`. */
export function decodeRecords(encoded: EncodedRecords, factory: RDF.DataFactory): RDF.Quad[][] {
  const { text, ends, kinds, quads } = encoded;
  const terms: RDF.Term[] = new Array(kinds.length);
  let part = 0;
  let start = 0;
  const next = (): string => {
    const s = text.slice(start, ends[part]);
    start = ends[part++]!;
    return s;
  };
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i];
    const value = next();
    terms[i] =
      kind === KIND_IRI
        ? factory.namedNode(value)
        : kind === KIND_BLANK
          ? factory.blankNode(value)
          : kind === KIND_STRING
            ? factory.literal(value)
            : kind === KIND_LANG
              ? factory.literal(value, next())
              : factory.literal(value, factory.namedNode(next()));
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
