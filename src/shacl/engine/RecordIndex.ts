import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { RDF_TYPE, RDFS_SUBCLASS_OF } from './vocabulary.js';

const EMPTY: readonly RDF.Term[] = [];

/** The length of a subject's flat list of pairs above which its objects are looked up by predicate (not scanned). */
const BY_PREDICATE_FROM = 256;

/**
 * The distinct triples of one record, indexed once: each subject's predicates and objects (in the record's
 * order), and, when first asked, each object's subjects. Terms are interned (one object per term, the shapes'
 * own objects for the terms the shapes name), so every look-up compares by identity.
 */
export class RecordIndex {
  /** Each subject's triples as a flat list: predicate, object, predicate, object... */
  private readonly out: Map<RDF.Term, RDF.Term[]>;
  private readonly byPredicate = new Map<RDF.Term, Map<RDF.Term, RDF.Term[]>>();
  /** For each predicate asked about, the subjects of its triples by object (built when first asked: a few predicates are). */
  private readonly inverse = new Map<RDF.Term, Map<RDF.Term, RDF.Term[]>>();
  /** The `rdf:type` triples as subject, class pairs, in order. */
  readonly typed: RDF.Term[] = [];
  /** Whether the record says `rdfs:subClassOf` itself (classes are then read from it too). */
  readonly hasSubclassTriples: boolean;

  /**
   * `triples`: distinct triples with interned terms; `pairs`: each subject's triples as predicate, object pairs in
   * their order, when the caller has them ({@link RecordTriples}: not built again).
   */
  constructor(
    readonly triples: readonly RDF.Quad[],
    pairs?: Map<RDF.Term, RDF.Term[]>,
  ) {
    let subclass = false;
    const out = pairs ?? new Map<RDF.Term, RDF.Term[]>();
    this.out = out;
    for (const q of triples) {
      if (!pairs) {
        const list = out.get(q.subject);
        if (list) list.push(q.predicate, q.object);
        else out.set(q.subject, [q.predicate, q.object]);
      }
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
    // Most look-ups find none or one (a work's property shapes): one pass finds the first and whether there is a
    // second; more are counted, then copied into a list of that length (a list grown by `push` is made for 17 terms).
    let i = 0;
    while (i < list.length && list[i] !== predicate) i += 2;
    if (i >= list.length) return EMPTY;
    const first = i;
    let count = 1;
    for (i += 2; i < list.length; i += 2) if (list[i] === predicate) count++;
    if (count === 1) return [list[first + 1]!];
    const found = new Array<RDF.Term>(count);
    for (let j = first, n = 0; n < count; j += 2) if (list[j] === predicate) found[n++] = list[j + 1]!;
    return found;
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

/** A record's distinct triples, in their first order, with each subject's predicate, object pairs ({@link distinctRecord}). */
export interface RecordTriples {
  readonly triples: RDF.Quad[];
  readonly pairs: Map<RDF.Term, RDF.Term[]>;
}

/** The pairs of a subject scanned for a repeat before they are looked up by predicate and object. */
const SCAN_PAIRS_UP_TO = 128;

/**
 * The distinct triples of quads whose terms are interned (one object per term: compared by identity), graphs
 * ignored, with the pairs {@link RecordIndex} reads (made in the same pass). `intern` gives a quad with interned
 * terms (the quad itself when it has them).
 */
export function distinctRecord(quads: Iterable<RDF.Quad>, intern?: (quad: RDF.Quad) => RDF.Quad): RecordTriples {
  const pairs = new Map<RDF.Term, RDF.Term[]>();
  // Subjects of many triples (past SCAN_PAIRS_UP_TO pairs): their objects by predicate, to find a repeat.
  let large: Map<RDF.Term, Map<RDF.Term, Set<RDF.Term>>> | undefined;
  const triples: RDF.Quad[] = [];
  for (const quad of quads) {
    const q = intern ? intern(quad) : quad;
    const s = q.subject;
    const p = q.predicate;
    const o = q.object;
    const list = pairs.get(s);
    if (!list) pairs.set(s, [p, o]);
    else if (list.length < SCAN_PAIRS_UP_TO) {
      let i = 0;
      while (i < list.length && (list[i] !== p || list[i + 1] !== o)) i += 2;
      if (i < list.length) continue;
      list.push(p, o);
    } else {
      large ??= new Map();
      let byPredicate = large.get(s);
      if (!byPredicate) {
        large.set(s, (byPredicate = new Map()));
        for (let i = 0; i < list.length; i += 2) {
          const objects = byPredicate.get(list[i]!);
          if (objects) objects.add(list[i + 1]!);
          else byPredicate.set(list[i]!, new Set([list[i + 1]!]));
        }
      }
      const objects = byPredicate.get(p);
      if (!objects) byPredicate.set(p, new Set([o]));
      else if (objects.has(o)) continue;
      else objects.add(o);
      list.push(p, o);
    }
    triples.push(q);
  }
  return { triples, pairs };
}
