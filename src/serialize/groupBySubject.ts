import type * as RDF from '@rdfjs/types';
import { termKey } from '../rdf/termKey.js';

/** A predicate of a subject and its objects. */
export interface SubjectProperty {
  predicate: RDF.Quad_Predicate;
  objects: RDF.Quad_Object[];
}

/** The statements about one subject: its predicates in order of first appearance, each with its objects. */
export interface SubjectGroup {
  subject: RDF.Quad_Subject;
  graph: RDF.Quad_Graph;
  /** Predicate IRI -> the predicate and its objects, in order of first appearance. */
  properties: Map<string, SubjectProperty>;
  /** The values of {@link properties} in their order, as an array (read without an iterator). */
  list: SubjectProperty[];
}

/**
 * Subject groups found by a term: named nodes and blank nodes by their value
 * (no key is built for them), any other term by {@link termKey}.
 */
export class SubjectIndex {
  private readonly named = new Map<string, SubjectGroup>();
  private readonly blank = new Map<string, SubjectGroup>();
  private readonly other = new Map<string, SubjectGroup>();

  /** The group of `term`, if there is one. */
  get(term: RDF.Term): SubjectGroup | undefined {
    if (term.termType === 'NamedNode') return this.named.get(term.value);
    if (term.termType === 'BlankNode') return this.blank.get(term.value);
    return this.other.get(termKey(term));
  }

  set(term: RDF.Term, group: SubjectGroup): void {
    if (term.termType === 'NamedNode') this.named.set(term.value, group);
    else if (term.termType === 'BlankNode') this.blank.set(term.value, group);
    else this.other.set(termKey(term), group);
  }
}

/**
 * Groups one record's quads by graph and subject, keeping the order in which
 * subjects, predicates and objects first appear (so output is deterministic).
 * Duplicate triples are kept (they denote the same graph; finding them would
 * cost more than writing them).
 */
export function groupBySubject(quads: readonly RDF.Quad[]): SubjectGroup[] {
  const groups: SubjectGroup[] = [];
  // The default graph's subjects (nearly all) by term; those of named graphs by a key of graph and subject.
  const inDefault = new SubjectIndex();
  const inNamed = new Map<string, SubjectGroup>();
  let last: SubjectGroup | undefined;
  // The first subject (a record's work) comes back after each of its nodes, the very same term: found without a lookup.
  let first: SubjectGroup | undefined;
  for (let i = 0; i < quads.length; i++) {
    const q = quads[i]!;
    const s = q.subject;
    const g = q.graph;
    let group: SubjectGroup | undefined;
    // Quads of one subject usually come together (mostly the very same term): reuse the last group when subject and graph are the same.
    if (
      last &&
      ((last.subject === s && last.graph === g) ||
        (last.subject.value === s.value &&
          last.subject.termType === s.termType &&
          last.graph.value === g.value &&
          last.graph.termType === g.termType))
    ) {
      group = last;
    } else if (first && first.subject === s && first.graph === g) {
      group = last = first;
    } else {
      const key = g.termType === 'DefaultGraph' ? undefined : `${termKey(g)} ${termKey(s)}`;
      group = key === undefined ? inDefault.get(s) : inNamed.get(key);
      if (!group) {
        group = { subject: s, graph: g, properties: new Map(), list: [] };
        groups.push(group);
        first ??= group;
        if (key === undefined) inDefault.set(s, group);
        else inNamed.set(key, group);
      }
      last = group;
    }
    const pkey = q.predicate.value;
    const prop = group.properties.get(pkey);
    if (prop) prop.objects.push(q.object);
    else {
      const added = { predicate: q.predicate, objects: [q.object] };
      group.properties.set(pkey, added);
      group.list.push(added);
    }
  }
  return groups;
}
