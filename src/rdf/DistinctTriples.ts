import type * as RDF from '@rdfjs/types';
import { tripleKey, tripleKeyOfRanges } from './tripleKey.js';

/**
 * Counts the distinct triples of shared entities a load reads ({@link isSharedTriple}: a journal's, a
 * person's, which every record naming them repeats), so that the count a graph must hold is exact:
 * statements read − shared statements read + distinct shared ones. Other statements are a record's own
 * and are not repeated by a dump (one record per DOI); a blank node is a new one in each chunk.
 *
 * Each triple is kept as a 53-bit key ({@link tripleKey}: two 32-bit FNV-1a hashes of its terms' text, with different
 * offsets), not as text, in a table of 8-byte slots at most half full: 16 to 32 bytes a distinct shared triple. Two distinct triples share a key with a
 * chance of n²/2^54 (n = 10 million: 0.6%), which makes the count one lower than the truth. Memory grows
 * with the shared entities of the dump (journals, publishers, persons), not with its records.
 */
export class DistinctTriples {
  /** Open addressing: each slot a key + 1 (0: empty), at most half of them taken. */
  private slots = new Float64Array(1024);
  private count = 0;

  /** Distinct triples added so far. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds the triple of an N-Triples line, its terms given as ranges of `buf`: the subject's and predicate's
   * IRI text (between `<` and `>`), the object's text (an IRI's between `<>`, a literal's quotes and tag included).
   */
  addRanges(buf: Uint8Array, s0: number, s1: number, p0: number, p1: number, o0: number, o1: number): void {
    this.addKey(tripleKeyOfRanges(buf, s0, s1, p0, p1, o0, o1));
  }

  /** Adds a parsed triple (with the same key as its plain N-Triples line: the IRIs' text, the object as N-Triples writes it). */
  addQuad(quad: RDF.Quad): void {
    this.addKey(tripleKey(quad));
  }

  /** Adds a triple by its key ({@link tripleKey}, as a worker thread computed it). */
  addKey(key: number): void {
    const stored = key + 1;
    const slots = this.slots;
    const mask = slots.length - 1;
    // the key's high 32 bits (a hash of its own) pick the slot
    for (let i = ((key / 2097152) >>> 0) & mask; ; i = (i + 1) & mask) {
      const at = slots[i]!;
      if (at === stored) return;
      if (at === 0) {
        slots[i] = stored;
        if (++this.count * 2 > slots.length) this.grow();
        return;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.count = 0;
    for (const stored of old) if (stored !== 0) this.addKey(stored - 1);
  }
}
