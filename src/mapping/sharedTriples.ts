import type * as RDF from '@rdfjs/types';
import { HashedNamedNodeTerm } from '../rdf/dataFactory.js';
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

/** Whether the mapper marked a term as a node of a record's own (`RecordTriples.ownIri`): no shared entity. */
export function isOwnNode(term: RDF.Term): boolean {
  return (term as { sharedEntity?: boolean }).sharedEntity === false;
}

/** How many of `quads` are {@link isSharedTriple}. */
export function countSharedTriples(quads: readonly RDF.Quad[]): number {
  let shared = 0;
  for (const q of quads) if (isSharedTriple(q)) shared++;
  return shared;
}

/**
 * Follows the subjects of statements in a row (a record's come subject by subject): whether each is a shared
 * entity ({@link isSharedEntityIri}), the IRI of a node the mapper marked as a record's own ({@link isOwnNode}: most
 * subjects of a record) or as a shared entity's (`HashedNamedNodeTerm.entity`) never read. The last two other subject terms are kept with the answer (the mapper's work
 * comes back between its authors, files and container: asked once), and the last IRI asked (an RDF input has a
 * term for each statement).
 */
export class SharedSubjects {
  private term: RDF.Term | undefined;
  private result: string | undefined;
  private recent: RDF.Term | undefined;
  private recentResult: string | undefined;
  private before: RDF.Term | undefined;
  private beforeResult: string | undefined;
  private iri: string | undefined;
  private shared = false;

  /** The IRI of `subject` when it is a shared entity (the same string for a run of its statements), else undefined. */
  of(subject: RDF.Term): string | undefined {
    // the mapper gives a subject's statements one term: it is looked at only when the term changes
    if (subject === this.term) return this.result;
    this.term = subject;
    if (isOwnNode(subject)) return (this.result = undefined);
    // the mapper's IRIs of shared entities say so (`EntityIris`): their text is not tested
    if (subject instanceof HashedNamedNodeTerm && subject.entity) return (this.result = subject.value);
    if (subject === this.recent) return (this.result = this.recentResult);
    let result: string | undefined;
    if (subject === this.before) result = this.beforeResult;
    else {
      if (subject.value !== this.iri) {
        this.iri = subject.value;
        this.shared = isSharedEntityIri(this.iri);
      }
      result = this.shared ? this.iri : undefined;
    }
    this.before = this.recent;
    this.beforeResult = this.recentResult;
    this.recent = subject;
    this.recentResult = result;
    return (this.result = result);
  }
}

/** The keys ({@link termsKey}) of those of `quads` that are {@link isSharedTriple}: what a count of distinct statements keeps of a record. */
export function sharedTripleKeys(quads: readonly RDF.Quad[]): number[] {
  const keys: number[] = [];
  const subjects = new SharedSubjects();
  for (const q of quads) {
    if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') continue;
    if (subjects.of(q.subject) !== undefined) keys.push(termsKey(q));
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
