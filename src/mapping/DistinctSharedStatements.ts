import type * as RDF from '@rdfjs/types';
import { DistinctTriples } from '../rdf/DistinctTriples.js';
import { termsKey } from '../rdf/tripleKey.js';
import { SharedSubjects } from './sharedTriples.js';

/**
 * Counts the statements about shared entities of records (`isSharedTriple`: a journal's, a publisher's, an
 * ORCID person's, which every record naming the entity writes again) and the distinct ones among them, kept as
 * 53-bit keys (`termsKey`, in {@link DistinctTriples}: 16 to 32 bytes a distinct statement). Which subjects are
 * shared is asked once a subject term ({@link SharedSubjects}), never of the nodes the mapper marked as a record's
 * own. Nothing of a record is kept but the keys: remembering the statements of shared subjects to skip the keys of
 * repeats took fewer instructions but more CPU time (the objects kept for the collector to trace; docs/mapping.md).
 */
export class DistinctSharedStatements {
  private readonly keys = new DistinctTriples();
  /** Statements about shared entities counted. */
  count = 0;

  /** The distinct statements about shared entities counted. */
  get distinct(): number {
    return this.keys.size;
  }

  /** Counts the statements of `quads` (a record's, or a part of an RDF input) that are about shared entities. */
  add(quads: readonly RDF.Quad[]): void {
    const subjects = new SharedSubjects();
    // a record's statements come subject by subject: whether the subject is shared is asked once a run
    let subject: RDF.Term | undefined;
    let shared = false;
    for (let i = 0; i < quads.length; i++) {
      const q = quads[i]!;
      if (q.subject !== subject) {
        subject = q.subject;
        shared = subject.termType !== 'BlankNode' && subjects.of(subject) !== undefined;
      }
      if (!shared || q.object.termType === 'BlankNode') continue;
      this.count++;
      this.keys.addKey(termsKey(q));
    }
  }

  /** Counts statements about shared entities by their keys (`sharedTripleKeys`, as a worker thread made them). */
  addKeys(keys: readonly number[]): void {
    this.count += keys.length;
    for (let i = 0; i < keys.length; i++) this.keys.addKey(keys[i]!);
  }
}
