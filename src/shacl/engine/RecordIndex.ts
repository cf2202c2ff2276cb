import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { RDF_TYPE, RDFS_SUBCLASS_OF } from './vocabulary.js';

const EMPTY: readonly RDF.Term[] = [];

/** The length of a subject's flat list of pairs above which its objects are looked up by predicate (not scanned). */
const BY_PREDICATE_FROM = 32;

/**
 * The distinct triples of one record, indexed once: each subject's predicates and objects (in the record's
 * order), and, when first asked, each object's subjects. Terms are interned (one object per term, the shapes'
 * own objects for the terms the shapes name), so every look-up compares by identity.
 */
export class RecordIndex {
  /** Each subject's triples as a flat list: predicate, object, predicate, object... */
  private readonly out = new Map<RDF.Term, RDF.Term[]>();
  private readonly byPredicate = new Map<RDF.Term, Map<RDF.Term, RDF.Term[]>>();
  /** For each predicate asked about, the subjects of its triples by object (built when first asked: a few predicates are). */
  private readonly inverse = new Map<RDF.Term, Map<RDF.Term, RDF.Term[]>>();
  /** The `rdf:type` triples as subject, class pairs, in order. */
  readonly typed: RDF.Term[] = [];
  /** Whether the record says `rdfs:subClassOf` itself (classes are then read from it too). */
  readonly hasSubclassTriples: boolean;

  /** `triples`: distinct triples with interned terms. */
  constructor(readonly triples: readonly RDF.Quad[]) {
    let subclass = false;
    for (const q of triples) {
      const list = this.out.get(q.subject);
      if (list) list.push(q.predicate, q.object);
      else this.out.set(q.subject, [q.predicate, q.object]);
      const p = q.predicate.value;
      if (p === RDF_TYPE) this.typed.push(q.subject, q.object);
      else if (p === RDFS_SUBCLASS_OF) subclass = true;
    }
    this.hasSubclassTriples = subclass;
  }

  get size(): number {
    return this.triples.length;
  }

  /** The objects of `subject`'s triples of `predicate`, in order. */
  objects(subject: RDF.Term, predicate: RDF.Term): readonly RDF.Term[] {
    const list = this.out.get(subject);
    if (!list) return EMPTY;
    if (list.length > BY_PREDICATE_FROM) return this.byPredicateOf(subject, list).get(predicate) ?? EMPTY;
    let found: RDF.Term[] | undefined;
    for (let i = 0; i < list.length; i += 2) {
      if (list[i] === predicate) (found ??= []).push(list[i + 1]!);
    }
    return found ?? EMPTY;
  }

  /** A subject's objects by predicate, in order (made when first asked: for subjects with many triples, such as a work). */
  private byPredicateOf(subject: RDF.Term, list: readonly RDF.Term[]): Map<RDF.Term, RDF.Term[]> {
    let map = this.byPredicate.get(subject);
    if (map) return map;
    map = new Map();
    for (let i = 0; i < list.length; i += 2) {
      const objects = map.get(list[i]!);
      if (objects) objects.push(list[i + 1]!);
      else map.set(list[i]!, [list[i + 1]!]);
    }
    this.byPredicate.set(subject, map);
    return map;
  }

  /** Whether `subject` has a triple of `predicate`. */
  has(subject: RDF.Term, predicate: RDF.Term): boolean {
    const list = this.out.get(subject);
    if (!list) return false;
    for (let i = 0; i < list.length; i += 2) if (list[i] === predicate) return true;
    return false;
  }

  /** The subjects of the triples of `predicate` whose object is `object`, in order. */
  subjects(object: RDF.Term, predicate: RDF.Term): readonly RDF.Term[] {
    return this.inverseOf(predicate).get(object) ?? EMPTY;
  }

  /** `subject`'s triples as predicate, object pairs (a flat list). */
  pairsOf(subject: RDF.Term): readonly RDF.Term[] {
    return this.out.get(subject) ?? EMPTY;
  }

  private inverseOf(predicate: RDF.Term): Map<RDF.Term, RDF.Term[]> {
    let inverse = this.inverse.get(predicate);
    if (inverse) return inverse;
    inverse = new Map<RDF.Term, RDF.Term[]>();
    for (const q of this.triples) {
      if (q.predicate !== predicate) continue;
      const list = inverse.get(q.object);
      if (list) list.push(q.subject);
      else inverse.set(q.object, [q.subject]);
    }
    this.inverse.set(predicate, inverse);
    return inverse;
  }

  /**
   * The record's triples as an RDF/JS `match` answers them, for subject and predicate patterns (the native
   * implementations of SPARQL constraints read the record through it).
   */
  match(subject?: RDF.Term | null, predicate?: RDF.Term | null, object?: RDF.Term | null): RDF.Quad[] {
    const out: RDF.Quad[] = [];
    const visit = (s: RDF.Term, list: readonly RDF.Term[]) => {
      for (let i = 0; i < list.length; i += 2) {
        const p = list[i]!;
        const o = list[i + 1]!;
        if ((!predicate || p.equals(predicate)) && (!object || o.equals(object))) {
          out.push(DataFactory.quad(s as RDF.Quad_Subject, p as RDF.Quad_Predicate, o as RDF.Quad_Object));
        }
      }
    };
    if (subject) {
      const list = this.out.get(subject);
      if (list) visit(subject, list);
    } else for (const [s, list] of this.out) visit(s, list);
    return out;
  }
}
