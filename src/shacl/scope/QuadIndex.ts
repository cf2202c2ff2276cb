import type * as RDF from '@rdfjs/types';
import { termKey } from '../../rdf/termKey.js';

/** The questions the readers of a shapes graph ask of it: those of n3's `Store` (which is one); `null` matches any term. */
export interface QuadLookup {
  getQuads(
    subject: RDF.Term | null,
    predicate: RDF.Term | null,
    object: RDF.Term | null,
    graph: RDF.Term | null,
  ): RDF.Quad[];
  countQuads(
    subject: RDF.Term | null,
    predicate: RDF.Term | null,
    object: RDF.Term | null,
    graph: RDF.Term | null,
  ): number;
  /** The distinct subjects of the matching quads. */
  getSubjects(predicate: RDF.Term | null, object: RDF.Term | null, graph: RDF.Term | null): RDF.Term[];
  /** The distinct objects of the matching quads. */
  getObjects(subject: RDF.Term | null, predicate: RDF.Term | null, graph: RDF.Term | null): RDF.Term[];
}

interface Entry {
  quad: RDF.Quad;
  s: string;
  p: string;
  o: string;
  g: string;
}

/**
 * A {@link QuadLookup} of a list of distinct quads, indexed by subject, predicate and object once: the answers come
 * in the list's order (a distinct term at its first quad). Given an n3 `Store`'s `getQuads` of everything, that is
 * the store's own order for every question but the quads and objects of a predicate alone (the store orders them by
 * object first). An n3 `Store` reads each answer out of objects keyed by term numbers: a shapes graph of about 1,200
 * triples took 6-50 ms a `getQuads` of everything, and the thousands of questions that compile shapes took about a
 * third of a validation worker's start.
 */
export class QuadIndex implements QuadLookup {
  private readonly entries: Entry[] = [];
  private readonly bySubject = new Map<string, Entry[]>();
  private readonly byPredicate = new Map<string, Entry[]>();
  private readonly byObject = new Map<string, Entry[]>();

  constructor(quads: readonly RDF.Quad[]) {
    for (const quad of quads) {
      const e: Entry = {
        quad,
        s: termKey(quad.subject),
        p: termKey(quad.predicate),
        o: termKey(quad.object),
        g: termKey(quad.graph),
      };
      this.entries.push(e);
      push(this.bySubject, e.s, e);
      push(this.byPredicate, e.p, e);
      push(this.byObject, e.o, e);
    }
  }

  getQuads(
    subject: RDF.Term | null,
    predicate: RDF.Term | null,
    object: RDF.Term | null,
    graph: RDF.Term | null,
  ): RDF.Quad[] {
    return this.match(subject, predicate, object, graph).map((e) => e.quad);
  }

  countQuads(
    subject: RDF.Term | null,
    predicate: RDF.Term | null,
    object: RDF.Term | null,
    graph: RDF.Term | null,
  ): number {
    return this.match(subject, predicate, object, graph).length;
  }

  getSubjects(predicate: RDF.Term | null, object: RDF.Term | null, graph: RDF.Term | null): RDF.Term[] {
    return distinct(this.match(null, predicate, object, graph), (e) => e.s, 'subject');
  }

  getObjects(subject: RDF.Term | null, predicate: RDF.Term | null, graph: RDF.Term | null): RDF.Term[] {
    return distinct(this.match(subject, predicate, null, graph), (e) => e.o, 'object');
  }

  /** The entries of the quads that match, in order. */
  private match(
    subject: RDF.Term | null,
    predicate: RDF.Term | null,
    object: RDF.Term | null,
    graph: RDF.Term | null,
  ): Entry[] {
    const s = subject && termKey(subject);
    const p = predicate && termKey(predicate);
    const o = object && termKey(object);
    const g = graph && termKey(graph);
    // The shortest list that holds every match: a subject's or an object's, else a predicate's, else all.
    const from = s ? this.bySubject.get(s) : o ? this.byObject.get(o) : p ? this.byPredicate.get(p) : this.entries;
    if (!from) return [];
    return from.filter((e) => (!s || e.s === s) && (!p || e.p === p) && (!o || e.o === o) && (!g || e.g === g));
  }
}

function push(map: Map<string, Entry[]>, key: string, e: Entry): void {
  const list = map.get(key);
  if (list) list.push(e);
  else map.set(key, [e]);
}

/** The distinct terms of a position of the entries, each at its first entry. */
function distinct(entries: readonly Entry[], key: (e: Entry) => string, position: 'subject' | 'object'): RDF.Term[] {
  const seen = new Set<string>();
  const out: RDF.Term[] = [];
  for (const e of entries) {
    const k = key(e);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e.quad[position]);
  }
  return out;
}
