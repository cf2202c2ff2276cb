import type * as RDF from '@rdfjs/types';

/**
 * The key of a literal: `"value"@language^^datatype`, with its base
 * direction `"value"@language--direction^^datatype` (RDF 1.2). Unambiguous:
 * a language tag holds no `"`, `--` or `^`, an IRI no `^`.
 */
export function literalKey(
  value: string,
  language: string,
  direction: string | null | undefined,
  datatype: string,
): string {
  return direction ? `"${value}"@${language}--${direction}^^${datatype}` : `"${value}"@${language}^^${datatype}`;
}

/**
 * The key of an RDF/JS term, for maps and sets: the same for equal terms
 * (RDF/JS `equals`, a literal's direction included), whatever made them, and
 * different for different ones. `N<iri>`, `B<label>`, a literal's
 * {@link literalKey}, `V<name>` for a variable, `D` for the default graph, a
 * quoted triple's `Q` and the JSON array of its four terms' keys.
 */
export function termKey(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `N${term.value}`;
    case 'BlankNode':
      return `B${term.value}`;
    case 'Literal':
      return literalKey(term.value, term.language, term.direction, term.datatype.value);
    case 'DefaultGraph':
      return 'D';
    case 'Variable':
      return `V${term.value}`;
    case 'Quad':
      return `Q${JSON.stringify([termKey(term.subject), termKey(term.predicate), termKey(term.object), termKey(term.graph)])}`;
  }
}
