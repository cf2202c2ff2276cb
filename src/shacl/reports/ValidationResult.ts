import type * as RDF from '@rdfjs/types';
import { DEFAULT_PREFIXES } from '../../rdf/prefixes.js';
import { SHAPES_NS } from '../engine/nativeConstraints.js';
import type { RecordScope } from '../scope/recordScope.js';
import { NS } from '../../rdf/namespaces.js';

const SH = NS.sh;

/**
 * Severity of a validation result: `sh:Violation`, `sh:Warning`, `sh:Info` by their local names, any other
 * (a shape's own `sh:severity ex:Minor`) as its IRI in angle brackets, kept as the shape gives it.
 */
export type Severity = 'Violation' | 'Warning' | 'Info' | `<${string}>`;

/** One step of a result path: one predicate (or alternatives), maybe inverse, maybe repeated. */
export interface PathStep {
  predicates: RDF.NamedNode[];
  inverse: boolean;
  quantifier: 'one' | 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne';
}

/** One SHACL validation result, in plain data. */
export interface ValidationResult {
  /** The node that does not conform (the work, a person, a list cell, ...). */
  focusNode: RDF.Term;
  /** The shape whose constraint failed (`sh:sourceShape`): a named property or node shape of `shapes/`. */
  shape: RDF.Term;
  /** The path, in SPARQL property-path syntax with the usual prefixes (`schema:pageStart`, `bibo:authorList/rdf:first`, with `*` `+` `?` `^` as in SPARQL), when the shape has one. */
  path: string | undefined;
  /** The same path as steps (for reports). */
  resultPath: readonly PathStep[] | undefined;
  severity: Severity;
  /** What is wrong, for a person (`sh:resultMessage`). */
  message: string;
  /** The offending value (`sh:value`), when there is one. */
  value: RDF.Term | undefined;
  /** `sh:sourceConstraintComponent`, e.g. `sh:MaxCountConstraintComponent`. */
  constraintComponent: RDF.NamedNode;
  /** `sh:sourceConstraint` of SPARQL constraints. */
  sourceConstraint: RDF.Term | undefined;
}

/** The outcome of validating one record (or any group of quads). */
export interface ValidationOutcome {
  /**
   * True when no result has severity `Violation` or a severity of the shapes' own (warnings and infos do not
   * make a record fail). SHACL's `sh:conforms` is stricter: false on any result (see `ValidationReportWriter`).
   */
  conforms: boolean;
  results: ValidationResult[];
  /** Number of `Violation` results. */
  violations: number;
  /** Number of `Warning` results. */
  warnings: number;
  /** Number of `Info` results. */
  infos?: number;
  /** Number of results of other severities (the shapes' own). */
  others?: number;
  /** @internal What validating the record alone may have missed (`checkScope`). */
  scope?: RecordScope;
}

/** The outcome of some results: it conforms when none is a `Violation` or of another severity than warning and info. */
export function outcomeOf(results: ValidationResult[]): ValidationOutcome {
  let violations = 0;
  let warnings = 0;
  let infos = 0;
  let others = 0;
  for (const r of results) {
    if (r.severity === 'Violation') violations++;
    else if (r.severity === 'Warning') warnings++;
    else if (r.severity === 'Info') infos++;
    else others++;
  }
  return {
    conforms: violations === 0 && others === 0,
    results,
    violations,
    warnings,
    ...(infos ? { infos } : {}),
    ...(others ? { others } : {}),
  };
}

const SHACL_SEVERITIES = new Set([`${SH}Violation`, `${SH}Warning`, `${SH}Info`]);

/** The {@link Severity} of a severity IRI. */
export function severityOf(iri: string): Severity {
  return SHACL_SEVERITIES.has(iri) ? (iri.slice(SH.length) as Severity) : `<${iri}>`;
}

/** A compact name of an IRI with the toolkit's prefixes (`schema:name`), else `<iri>`. */
export function compactIri(iri: string): string {
  for (const [prefix, ns] of Object.entries(DEFAULT_PREFIXES)) {
    if (iri.startsWith(ns) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(iri.slice(ns.length)))
      return `${prefix}:${iri.slice(ns.length)}`;
  }
  if (iri.startsWith(SHAPES_NS) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(iri.slice(SHAPES_NS.length)))
    return `srsh:${iri.slice(SHAPES_NS.length)}`;
  if (iri.startsWith(SH)) return `sh:${iri.slice(SH.length)}`;
  return `<${iri}>`;
}

/** A path in SPARQL property-path syntax: `schema:name`, `^schema:author`, `(rdf:rest)*` written without parentheses. */
export function pathToString(steps: readonly PathStep[]): string {
  return steps
    .map((s) => {
      const names = s.predicates.map((p) => compactIri(p.value));
      let text = names.length > 1 ? `(${names.join('|')})` : names[0]!;
      if (s.inverse) text = `^${text}`;
      const q =
        s.quantifier === 'zeroOrMore'
          ? '*'
          : s.quantifier === 'oneOrMore'
            ? '+'
            : s.quantifier === 'zeroOrOne'
              ? '?'
              : '';
      return q && (s.inverse || names.length > 1) ? `(${text})${q}` : `${text}${q}`;
    })
    .join('/');
}
