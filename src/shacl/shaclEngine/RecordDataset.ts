import type * as RDF from '@rdfjs/types';
import { termKey as key } from '../engine/TermInterner.js';

/**
 * A small, read-mostly RDF/JS `DatasetCore` for the quads of one record,
 * indexed by subject and by object. The validator asks it tens of thousands
 * of `match()` questions per second: n3's `Store` answers each with a new
 * store and stream, which cost more than the validation itself. Graphs are
 * ignored (every quad is read as a triple of the default graph).
 */
export class RecordDataset implements RDF.DatasetCore {
  private quads: RDF.Quad[];
  private bySubject: Map<string, RDF.Quad[]> | undefined;
  /** Each subject's quads by predicate (filled as asked: `match(subject, predicate)` is the engine's most frequent question). */
  private bySubjectPredicate: Map<string, Map<string, RDF.Quad[]>> | undefined;
  private byObject: Map<string, RDF.Quad[]> | undefined;
  private byPredicate: Map<string, RDF.Quad[]> | undefined;
  /** Whether `quads` is another's (an index's list, for a match): copied before a change. */
  private shared = false;

  constructor(quads: Iterable<RDF.Quad> = []) {
    this.quads = Array.isArray(quads) ? (quads as RDF.Quad[]) : [...quads];
  }

  /** A dataset over a list it must not change (the answer of a match, with no copy of the list). */
  private static over(quads: RDF.Quad[]): RecordDataset {
    const dataset = new RecordDataset(quads);
    dataset.shared = true;
    return dataset;
  }

  /** Makes the list this dataset's own before a change. */
  private own(): void {
    if (this.shared) {
      this.quads = this.quads.slice();
      this.shared = false;
    }
  }

  get size(): number {
    return this.quads.length;
  }

  add(quad: RDF.Quad): this {
    if (!this.has(quad)) {
      this.own();
      this.quads.push(quad);
      this.bySubject = undefined;
      this.bySubjectPredicate = undefined;
      this.byObject = undefined;
      this.byPredicate = undefined;
    }
    return this;
  }

  delete(quad: RDF.Quad): this {
    const i = this.quads.findIndex(
      (q) => q.subject.equals(quad.subject) && q.predicate.equals(quad.predicate) && q.object.equals(quad.object),
    );
    if (i >= 0) {
      this.own();
      this.quads.splice(i, 1);
      this.bySubject = undefined;
      this.bySubjectPredicate = undefined;
      this.byObject = undefined;
      this.byPredicate = undefined;
    }
    return this;
  }

  has(quad: RDF.Quad): boolean {
    for (const q of this.match(quad.subject, quad.predicate, quad.object)) if (q) return true;
    return false;
  }

  match(
    subject?: RDF.Term | null,
    predicate?: RDF.Term | null,
    object?: RDF.Term | null,
    _graph?: RDF.Term | null,
  ): RDF.DatasetCore {
    if (subject && predicate && !object) {
      // An index's list, shared with the answer (copied before the answer changes).
      return RecordDataset.over(this.withPredicate(subject, predicate));
    }
    let candidates: RDF.Quad[];
    if (subject) {
      if (!this.bySubject) this.bySubject = index(this.quads, (q) => q.subject);
      candidates = this.bySubject.get(key(subject)) ?? EMPTY;
    } else if (object && object.termType !== 'Literal') {
      if (!this.byObject) this.byObject = index(this.quads, (q) => q.object, true);
      candidates = this.byObject.get(key(object)) ?? EMPTY;
    } else if (object) {
      // Literals are left out of the index (their keys hold their whole text); asked for rarely.
      candidates = this.quads.filter((q) => q.object.equals(object));
    } else if (predicate) {
      // An index's list, shared with the answer.
      return RecordDataset.over(this.withPredicateOnly(predicate) as RDF.Quad[]);
    } else {
      candidates = this.quads;
    }
    // An index's list (or a new one) is shared with the answer; the dataset's own list is copied (it changes with it).
    if (!predicate && !(subject && object))
      return candidates === this.quads ? new RecordDataset(candidates.slice()) : RecordDataset.over(candidates);
    const out: RDF.Quad[] = [];
    for (const q of candidates) {
      if (predicate && !q.predicate.equals(predicate)) continue;
      if (subject && object && !q.object.equals(object)) continue;
      out.push(q);
    }
    return out.length ? new RecordDataset(out) : RecordDataset.over(EMPTY);
  }

  /** The quads of a subject and a predicate, in the dataset's order (a list of the index: not to be changed). */
  withSubjectPredicate(subject: RDF.Term, predicate: RDF.Term): readonly RDF.Quad[] {
    return this.withPredicate(subject, predicate);
  }

  /** The quads of a subject, in the dataset's order (a list of the index: not to be changed). */
  withSubject(subject: RDF.Term): readonly RDF.Quad[] {
    if (!this.bySubject) this.bySubject = index(this.quads, (q) => q.subject);
    return this.bySubject.get(key(subject)) ?? EMPTY;
  }

  /** The quads of a predicate, in the dataset's order (a list of the index: not to be changed). */
  withPredicateOnly(predicate: RDF.Term): readonly RDF.Quad[] {
    if (!this.byPredicate) this.byPredicate = index(this.quads, (q) => q.predicate);
    return this.byPredicate.get(key(predicate)) ?? EMPTY;
  }

  /** The quads of a predicate and an object, in the dataset's order. */
  withPredicateObject(predicate: RDF.Term, object: RDF.Term): RDF.Quad[] {
    let candidates: readonly RDF.Quad[];
    if (object.termType === 'Literal') candidates = this.quads;
    else {
      if (!this.byObject) this.byObject = index(this.quads, (q) => q.object, true);
      candidates = this.byObject.get(key(object)) ?? EMPTY;
    }
    const out: RDF.Quad[] = [];
    for (const q of candidates) if (q.predicate.equals(predicate) && q.object.equals(object)) out.push(q);
    return out;
  }

  private withPredicate(subject: RDF.Term, predicate: RDF.Term): RDF.Quad[] {
    const subjectKey = key(subject);
    this.bySubjectPredicate ??= new Map();
    let byPredicate = this.bySubjectPredicate.get(subjectKey);
    if (!byPredicate) {
      if (!this.bySubject) this.bySubject = index(this.quads, (q) => q.subject);
      byPredicate = index(this.bySubject.get(subjectKey) ?? EMPTY, (q) => q.predicate);
      this.bySubjectPredicate.set(subjectKey, byPredicate);
    }
    return byPredicate.get(key(predicate)) ?? EMPTY;
  }

  [Symbol.iterator](): Iterator<RDF.Quad> {
    return this.quads[Symbol.iterator]();
  }
}

const EMPTY: RDF.Quad[] = [];

function index(
  quads: readonly RDF.Quad[],
  by: (q: RDF.Quad) => RDF.Term,
  skipLiterals = false,
): Map<string, RDF.Quad[]> {
  const map = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const term = by(q);
    if (skipLiterals && term.termType === 'Literal') continue;
    const k = key(term);
    const list = map.get(k);
    if (list) list.push(q);
    else map.set(k, [q]);
  }
  return map;
}
