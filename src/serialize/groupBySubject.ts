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
  /**
   * Its predicates (one entry a predicate IRI) with their objects, in order of first appearance: found by a look
   * through the list, not a map (a subject has few predicates, and a statement's mostly comes with the one before:
   * a map a subject cost more to make and ask; callgrind, Turtle).
   */
  list: SubjectProperty[];
  /** The entry of {@link list} the last statement went to. */
  last: SubjectProperty | undefined;
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
        group = { subject: s, graph: g, list: [], last: undefined };
        groups.push(group);
        first ??= group;
        if (key === undefined) inDefault.set(s, group);
        else inNamed.set(key, group);
      }
      last = group;
    }
    const p = q.predicate;
    let prop = group.last;
    if (prop === undefined || (prop.predicate !== p && prop.predicate.value !== p.value)) {
      prop = propertyOf(group.list, p);
      if (prop === undefined) {
        group.list.push((group.last = { predicate: p, objects: [q.object] }));
        continue;
      }
      group.last = prop;
    }
    prop.objects.push(q.object);
  }
  return groups;
}

/** The entry of `list` for the predicate IRI of `p`, if there is one: the very same term first, else the same IRI. */
function propertyOf(list: readonly SubjectProperty[], p: RDF.Quad_Predicate): SubjectProperty | undefined {
  for (let k = 0; k < list.length; k++) if (list[k]!.predicate === p) return list[k];
  const value = p.value;
  for (let k = 0; k < list.length; k++) if (list[k]!.predicate.value === value) return list[k];
  return undefined;
}
