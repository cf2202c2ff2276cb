import type * as RDF from '@rdfjs/types';
import { XSD_STRING } from './vocabulary.js';

/** A term in a message: `<iri>`, `_:label`, `"text"`, `"text"@lang`, `"text"^^<datatype>`. */
export function termText(t: RDF.Term): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  if (t.termType !== 'Literal') return t.value;
  const text = JSON.stringify(t.value);
  if (t.language) return `${text}@${t.language}`;
  return t.datatype.value === XSD_STRING ? text : `${text}^^<${t.datatype.value}>`;
}

/** Fills `{$name}` in a message with a constraint's parameters. */
export function fillParameters(template: string, parameters: Readonly<Record<string, string>>): string {
  return template.includes('{$')
    ? template.replace(/\{\$([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => parameters[name] ?? all)
    : template;
}

/** The message of each constraint component whose shape gives none, by the component's local name (`{$param}` filled). */
export const DEFAULT_MESSAGES: Readonly<Record<string, string>> = {
  MinCount: 'Less than {$minCount} values',
  MaxCount: 'More than {$maxCount} values',
  Datatype: 'Value does not have datatype {$datatype}',
  NodeKind: 'Value does not have node kind {$nodeKind}',
  In: 'Value is not in {$in}',
  HasValue: 'Missing expected value {$hasValue}',
  MinLength: 'Value has less than {$minLength} characters',
  MaxLength: 'Value has more than {$maxLength} characters',
  Pattern: 'Value does not match pattern {$pattern}',
  LanguageIn: 'Language does not match any of {$languageIn}',
  UniqueLang: 'Language {$lang} used more than once',
  Equals: 'Must have same values as {$equals}',
  Disjoint: 'Value node must not also be one of the values of {$disjoint}',
  LessThan: 'Value is not less than value of {$lessThan}',
  LessThanOrEquals: 'Value is not less than or equal to value of {$lessThanOrEquals}',
  MinInclusive: 'Value is not greater than or equal to {$minInclusive}',
  MaxInclusive: 'Value is not less than or equal to {$maxInclusive}',
  MinExclusive: 'Value is not greater than {$minExclusive}',
  MaxExclusive: 'Value is not less than {$maxExclusive}',
  Node: 'Value does not have shape {$node}',
  Not: 'Value does have shape {$not}',
  QualifiedMinCount: 'Less than {$qualifiedMinCount} values have shape {$qualifiedValueShape}',
  QualifiedMaxCount: 'More than {$qualifiedMaxCount} values have shape {$qualifiedValueShape}',
  Closed: 'Predicate is not allowed (closed shape)',
};
