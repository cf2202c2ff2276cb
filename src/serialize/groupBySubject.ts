import type * as RDF from '@rdfjs/types';

/** The statements about one subject: its predicates in order of first appearance, each with its objects. */
export interface SubjectGroup {
  subject: RDF.Quad_Subject;
  graph: RDF.Quad_Graph;
  /** Predicate IRI -> the predicate and its objects, in order of first appearance. */
  properties: Map<string, { predicate: RDF.Quad_Predicate; objects: RDF.Quad_Object[] }>;
}

/** A key that tells terms apart by type and value (literals: value, language, datatype). */
export function termKey(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode': return `<${term.value}`;
    case 'BlankNode': return `_${term.value}`;
    case 'DefaultGraph': return '';
    case 'Literal': return `"${term.value}"${term.language}^${term.datatype.value}`;
    default: return `${term.termType}:${term.value}`;
  }
}

/**
 * Groups one record's quads by graph and subject, keeping the order in which
 * subjects, predicates and objects first appear (so output is deterministic).
 * Duplicate triples are kept (they denote the same graph; finding them would
 * cost more than writing them).
 */
export function groupBySubject(quads: readonly RDF.Quad[]): SubjectGroup[] {
  const groups = new Map<string, SubjectGroup>();
  let last: SubjectGroup | undefined;
  for (let i = 0; i < quads.length; i++) {
    const q = quads[i]!;
    let group: SubjectGroup | undefined;
    // Quads of one subject usually come together: reuse the last group when subject and graph are the same.
    if (
      last &&
      last.subject.value === q.subject.value &&
      last.subject.termType === q.subject.termType &&
      last.graph.value === q.graph.value &&
      last.graph.termType === q.graph.termType
    ) {
      group = last;
    } else {
      const key = q.graph.termType === 'DefaultGraph' ? termKey(q.subject) : `${termKey(q.graph)} ${termKey(q.subject)}`;
      group = groups.get(key);
      if (!group) {
        group = { subject: q.subject, graph: q.graph, properties: new Map() };
        groups.set(key, group);
      }
      last = group;
    }
    const pkey = q.predicate.value;
    const prop = group.properties.get(pkey);
    if (prop) prop.objects.push(q.object);
    else group.properties.set(pkey, { predicate: q.predicate, objects: [q.object] });
  }
  return [...groups.values()];
}
