import type * as RDF from '@rdfjs/types';
import { NTriplesTermWriter } from './NTriplesWriter.js';
import { RDF_TYPE } from './prefixes.js';
import { hashText } from './textHash.js';
import { HashedNamedNodeTerm } from './dataFactory.js';

/** 2^21: the second hash's share of a key. */
const LOW = 2097152;

/**
 * A 53-bit key of a triple (two 32-bit FNV-1a hashes of its terms' text, with different offsets), its terms
 * given as ranges of `buf`: the subject's and predicate's IRI text (between `<` and `>`), the object's text
 * (an IRI's between `<>`, a literal's quotes and tag included). Two distinct triples share a key with a
 * chance of n²/2^54 among n triples (n = 10 million: 0.6%).
 */
export function tripleKeyOfRanges(
  buf: Uint8Array,
  s0: number,
  s1: number,
  p0: number,
  p1: number,
  o0: number,
  o1: number,
): number {
  let a = 0x811c9dc5;
  let b = 0x2b7e1516;
  for (const [from, to] of [
    [s0, s1],
    [p0, p1],
    [o0, o1],
  ] as const) {
    for (let i = from; i < to; i++) {
      const byte = buf[i]!;
      a = Math.imul(a ^ byte, 0x01000193);
      b = Math.imul(b ^ byte, 0x01000193);
    }
    a = Math.imul(a ^ 0xff, 0x01000193);
    b = Math.imul(b ^ 0xfe, 0x01000193);
  }
  return (a >>> 0) * LOW + ((b >>> 0) >>> 11);
}

const terms = new NTriplesTermWriter();
const encoder = new TextEncoder();
let scratch = new Uint8Array(1024);

/**
 * {@link tripleKeyOfRanges} of a parsed triple without a blank node: the same key as its plain N-Triples
 * line's (the IRIs' text, the object as N-Triples writes it).
 */
export function tripleKey(quad: RDF.Quad): number {
  const o = quad.object.termType === 'NamedNode' ? quad.object.value : terms.object(quad.object as RDF.Literal);
  const s = quad.subject.value;
  const p = quad.predicate.value;
  // UTF-8 takes at most 3 bytes a UTF-16 unit
  const most = 3 * (s.length + p.length + o.length);
  if (scratch.length < most) scratch = new Uint8Array(Math.max(most, 2 * scratch.length));
  const s1 = encoder.encodeInto(s, scratch).written;
  const p1 = s1 + encoder.encodeInto(p, scratch.subarray(s1)).written;
  const o1 = p1 + encoder.encodeInto(o, scratch.subarray(p1)).written;
  return tripleKeyOfRanges(scratch, 0, s1, s1, p1, p1, o1);
}

/** Hashes of the texts met again and again (predicates, datatypes): a few hundred at most. */
const often = new Map<string, Uint32Array>();
const OFTEN_MAX = 4096;
const scratchHashes = new Uint32Array(8);
let lastSubject: string | undefined;
let lastSubjectTerm: RDF.Term | undefined;

function oftenHash(text: string): Uint32Array {
  let h = often.get(text);
  if (h === undefined) {
    if (often.size >= OFTEN_MAX) often.clear();
    h = new Uint32Array(2);
    hashText(text, h, 0);
    often.set(text, h);
  }
  return h;
}

/** murmur3's finaliser: every bit of the result depends on every bit of `h`. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 53-bit key of a triple without a blank node, as {@link tripleKey} but made of hashes of its terms' UTF-16
 * text as it is (no N-Triples text, no UTF-8), the subject's hashed once for the triples of one subject in a
 * row and the predicate's and a literal's datatype's kept, an IRI's the mapper made with its hash
 * ({@link HashedNamedNodeTerm}) not read: several times as fast, for counts kept within one
 * run (a convert's, an export's). The same triple always has the same key; it is not the key of its
 * N-Triples line. Two triples that differ in one term only never share a key.
 */
export function termsKey(quad: RDF.Quad): number {
  const h = scratchHashes;
  const s = quad.subject;
  if (s !== lastSubjectTerm) {
    lastSubjectTerm = s;
    const subject = s.value;
    if (s instanceof HashedNamedNodeTerm) {
      // the mapper's IRIs of shared entities come with their hash (made from parts whose hashes it kept)
      h[0] = s.hashA;
      h[1] = s.hashB;
      lastSubject = subject;
    } else if (subject !== lastSubject) {
      hashText(subject, h, 0);
      lastSubject = subject;
    }
  }
  const pt = quad.predicate;
  const predicate = pt.value;
  let pA: number;
  let pB: number;
  if (pt instanceof HashedNamedNodeTerm) {
    pA = pt.hashA;
    pB = pt.hashB;
  } else {
    const p = oftenHash(predicate);
    pA = p[0]!;
    pB = p[1]!;
  }
  const o = quad.object;
  if (o instanceof HashedNamedNodeTerm) {
    h[2] = o.hashA;
    h[3] = o.hashB;
  } else if (predicate === RDF_TYPE && o.termType === 'NamedNode') {
    // classes recur in every record: their hashes are kept as the predicates' (the same hash)
    const c = oftenHash(o.value);
    h[2] = c[0]!;
    h[3] = c[1]!;
  } else hashText(o.value, h, 2);
  let tagA = 0x9e3779b9;
  let tagB = 0x7f4a7c15;
  if (o.termType === 'Literal') {
    const datatype = o.datatype;
    if (!o.language && datatype instanceof HashedNamedNodeTerm) {
      tagA = datatype.hashA;
      tagB = datatype.hashB;
    } else {
      const tag = o.language
        ? oftenHash(`@${o.language}${(o as { direction?: string }).direction ?? ''}`)
        : oftenHash(datatype.value);
      tagA = tag[0]!;
      tagB = tag[1]!;
    }
  }
  let a = Math.imul(0x811c9dc5 ^ h[0]!, 0x01000193);
  let b = Math.imul(0x2b7e1516 ^ h[1]!, 0x01000193);
  a = Math.imul(a ^ pA, 0x01000193);
  b = Math.imul(b ^ pB, 0x01000193);
  a = Math.imul(a ^ h[2]!, 0x01000193);
  b = Math.imul(b ^ h[3]!, 0x01000193);
  a = Math.imul(a ^ tagA, 0x01000193);
  b = Math.imul(b ^ tagB, 0x01000193);
  return fmix(a) * LOW + (fmix(b) >>> 11);
}
