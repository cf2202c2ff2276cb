// What the differential tests compare: the SHACL Core engine of our own against the validation of today
// (RecordValidator without its fast walk: shacl-engine with the native SPARQL constraints), result by result.
import type * as RDF from '@rdfjs/types';
import type { ValidationResult } from '../../../src/shacl/reports/ValidationResult.js';

function text(t: RDF.Term | undefined): string {
  if (!t) return '-';
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  if (t.termType === 'Literal') return `${JSON.stringify(t.value)}@${t.language}^^${t.datatype.value}`;
  return t.value;
}

/** A result as one line of everything a report says of it. */
export function resultLine(r: ValidationResult): string {
  const path =
    r.resultPath
      ?.map((s) => `${s.inverse ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`)
      .join('/') ?? '-';
  return [
    text(r.focusNode),
    text(r.shape),
    path,
    r.severity,
    text(r.value),
    text(r.constraintComponent),
    text(r.sourceConstraint),
    JSON.stringify(r.message),
  ].join(' ');
}
