import type * as RDF from '@rdfjs/types';
import { termsKey } from '../rdf/tripleKey.js';
import { isSharedEntityIri } from './entityIris.js';

/**
 * Whether a statement counts in `sharedTriples` (a manifest's, a load's):
 * its subject is a shared entity ({@link isSharedEntityIri}: a journal, a
 * publisher, a person with an ORCID iD, ...) and no blank node is in it.
 * Another record may write the same triple again, and a store holds it once;
 * a triple with a blank node is a new one in a store every time.
 */
export function isSharedTriple(quad: RDF.Quad): boolean {
  return (
    quad.subject.termType !== 'BlankNode' &&
    quad.object.termType !== 'BlankNode' &&
    isSharedEntityIri(quad.subject.value)
  );
}

/** How many of `quads` are {@link isSharedTriple}. */
export function countSharedTriples(quads: readonly RDF.Quad[]): number {
  let shared = 0;
  for (const q of quads) if (isSharedTriple(q)) shared++;
  return shared;
}

/** The keys ({@link termsKey}) of those of `quads` that are {@link isSharedTriple}: what a count of distinct statements keeps of a record. */
export function sharedTripleKeys(quads: readonly RDF.Quad[]): number[] {
  const keys: number[] = [];
  // a record's statements come subject by subject: whether a subject is shared is asked once a run of them
  let subjectTerm: RDF.Term | undefined;
  let subject: string | undefined;
  let shared = false;
  for (const q of quads) {
    if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') continue;
    // the mapper gives a subject's statements one term: its text is compared only when the term changes
    if (q.subject !== subjectTerm) {
      subjectTerm = q.subject;
      if (subjectTerm.value !== subject) {
        subject = subjectTerm.value;
        shared = isSharedEntityIri(subject);
      }
    }
    if (shared) keys.push(termsKey(q));
  }
  return keys;
}

/**
 * The fewest distinct triples a store may hold of `triples` statements of
 * which `shared` are {@link isSharedTriple}: the shared ones may all repeat
 * one another, but at least one of them is there. The Graph Store load and
 * the bulk load check the count against it.
 */
export function minimumDistinctTriples(triples: number, shared: number): number {
  return triples - shared + Math.min(1, shared);
}
