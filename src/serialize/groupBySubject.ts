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
 * Exact duplicate triples within the group are written once.
 */
export function groupBySubject(quads: readonly RDF.Quad[]): SubjectGroup[] {
  const groups = new Map<string, SubjectGroup>();
  const seen = new Set<string>();
  for (const q of quads) {
    const key = `${termKey(q.graph)} ${termKey(q.subject)}`;
    let group = groups.get(key);
    if (!group) {
      group = { subject: q.subject, graph: q.graph, properties: new Map() };
      groups.set(key, group);
    }
    const pkey = q.predicate.value;
    let prop = group.properties.get(pkey);
    if (!prop) {
      prop = { predicate: q.predicate, objects: [] };
      group.properties.set(pkey, prop);
    }
    const tripleKey = `${key} ${pkey} ${termKey(q.object)}`;
    if (seen.has(tripleKey)) continue;
    seen.add(tripleKey);
    prop.objects.push(q.object);
  }
  return [...groups.values()];
}
