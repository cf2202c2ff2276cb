import type * as RDF from '@rdfjs/types';
import { NTriplesTermWriter } from '../rdf/NTriplesWriter.js';

/** 2^21: the second hash's share of a key. */
const LOW = 2097152;

/**
 * Counts the distinct triples of shared entities a load reads ({@link isSharedTriple}: a journal's, a
 * person's, which every record naming them repeats), so that the count a graph must hold is exact:
 * statements read − shared statements read + distinct shared ones. Other statements are a record's own
 * and are not repeated by a dump (one record per DOI); a blank node is a new one in each chunk.
 *
 * Each triple is kept as a 53-bit key (two 32-bit FNV-1a hashes of its terms' text, with different
 * offsets), not as text: about 40 bytes a distinct shared triple. Two distinct triples share a key with a
 * chance of n²/2^54 (n = 10 million: 0.6%), which makes the count one lower than the truth. Memory grows
 * with the shared entities of the dump (journals, publishers, persons), not with its records.
 */
export class DistinctTriples {
  private readonly keys = new Set<number>();
  private readonly terms = new NTriplesTermWriter();

  /** Distinct triples added so far. */
  get size(): number {
    return this.keys.size;
  }

  /**
   * Adds the triple of an N-Triples line, its terms given as ranges of `buf`: the subject's and predicate's
   * IRI text (between `<` and `>`), the object's text (an IRI's between `<>`, a literal's quotes and tag included).
   */
  addRanges(buf: Uint8Array, s0: number, s1: number, p0: number, p1: number, o0: number, o1: number): void {
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
    this.keys.add((a >>> 0) * LOW + ((b >>> 0) >>> 11));
  }

  /** Adds a parsed triple (with the same key as its plain N-Triples line: the IRIs' text, the object as N-Triples writes it). */
  addQuad(quad: RDF.Quad): void {
    const s = Buffer.from(quad.subject.value, 'utf8');
    const p = Buffer.from(quad.predicate.value, 'utf8');
    const o = Buffer.from(
      quad.object.termType === 'NamedNode' ? quad.object.value : this.terms.object(quad.object as RDF.Literal),
      'utf8',
    );
    const all = Buffer.concat([s, p, o]);
    this.addRanges(all, 0, s.length, s.length, s.length + p.length, s.length + p.length, all.length);
  }
}
