import type * as RDF from '@rdfjs/types';
import { escapeLiteral } from '../../rdf/escape.js';
import { blankNodeLabel } from './blankNodeLabel.js';
import type { PathStep, ValidationResult } from './ValidationResult.js';
import { SHAPES_NS } from '../engine/nativeConstraints.js';
import { NS } from '../../rdf/namespaces.js';

const SH = NS.sh;
const XSD = NS.xsd;

const PREFIXES: Readonly<Record<string, string>> = {
  sh: SH,
  srsh: SHAPES_NS,
  rdf: NS.rdf,
  xsd: XSD,
  schema: NS.schemaHttp,
  bibo: NS.bibo,
  dcterms: NS.dcterms,
  prism: NS.prism,
  void: NS.void,
  dcat: NS.dcat,
  prov: NS.prov,
};
const LOCAL = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function iri(value: string): string {
  for (const [prefix, ns] of Object.entries(PREFIXES)) {
    if (value.startsWith(ns) && LOCAL.test(value.slice(ns.length))) return `${prefix}:${value.slice(ns.length)}`;
  }
  // Characters no IRI may hold are percent-encoded so that the report stays valid Turtle.
  return `<${value.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => encodeURIComponent(c))}>`;
}

function term(t: RDF.Term): string {
  switch (t.termType) {
    case 'NamedNode':
      return iri(t.value);
    case 'BlankNode':
      return blankNodeLabel(t.value);
    case 'Literal': {
      const text = `"${escapeLiteral(t.value.replace(/[\uD800-\uDFFF]/g, (c, i: number, s: string) => (isPaired(s, i) ? c : '\uFFFD')))}"`;
      if (t.language) return `${text}@${t.language}`;
      if (t.datatype.value === `${XSD}string`) return text;
      return `${text}^^${iri(t.datatype.value)}`;
    }
    default:
      return `"${escapeLiteral(t.value)}"`;
  }
}

function isPaired(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c <= 0xdbff) return i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
  return i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
}

function step(s: PathStep): string {
  let base =
    s.predicates.length > 1
      ? `[ sh:alternativePath ( ${s.predicates.map((p) => iri(p.value)).join(' ')} ) ]`
      : iri(s.predicates[0]!.value);
  if (s.inverse) base = `[ sh:inversePath ${base} ]`;
  switch (s.quantifier) {
    case 'zeroOrMore':
      return `[ sh:zeroOrMorePath ${base} ]`;
    case 'oneOrMore':
      return `[ sh:oneOrMorePath ${base} ]`;
    case 'zeroOrOne':
      return `[ sh:zeroOrOnePath ${base} ]`;
    default:
      return base;
  }
}

/** A SHACL property path in Turtle (`schema:name`, `( bibo:authorList [ sh:zeroOrMorePath rdf:rest ] rdf:first )`). */
export function pathToTurtle(steps: readonly PathStep[]): string {
  return steps.length === 1 ? step(steps[0]!) : `( ${steps.map(step).join(' ')} )`;
}

/**
 * Writes a SHACL validation report (`sh:ValidationReport`) in Turtle, a
 * group of results at a time, as strings (like `RecordWriter`): memory stays
 * that of one group. `end()` writes `sh:conforms`, which follows SHACL: true
 * only when there was no result of any severity.
 */
export class ValidationReportWriter {
  private count = 0;

  /** The prefixes. */
  start(): string {
    return `${Object.entries(PREFIXES)
      .map(([p, ns]) => `@prefix ${p}: <${ns}> .`)
      .join('\n')}\n\n`;
  }

  /** The results of one record. */
  write(results: readonly ValidationResult[]): string {
    let out = '';
    for (const r of results) {
      const id = `_:r${++this.count}`;
      const lines = [
        `_:report sh:result ${id} .`,
        `${id} a sh:ValidationResult ;`,
        `  sh:focusNode ${term(r.focusNode)} ;`,
        `  sh:resultSeverity ${r.severity.startsWith('<') ? term({ termType: 'NamedNode', value: r.severity.slice(1, -1) } as RDF.NamedNode) : `sh:${r.severity}`} ;`,
        `  sh:sourceShape ${term(r.shape)} ;`,
        `  sh:sourceConstraintComponent ${term(r.constraintComponent)} ;`,
      ];
      if (r.sourceConstraint) lines.push(`  sh:sourceConstraint ${term(r.sourceConstraint)} ;`);
      if (r.resultPath) lines.push(`  sh:resultPath ${pathToTurtle(r.resultPath)} ;`);
      if (r.value) lines.push(`  sh:value ${term(r.value)} ;`);
      lines.push(
        `  sh:resultMessage ${term({ termType: 'Literal', value: r.message, language: '', datatype: { termType: 'NamedNode', value: `${XSD}string` } } as RDF.Literal)} .`,
      );
      out += `${lines.join('\n')}\n`;
    }
    return out;
  }

  /** Results written so far. */
  get results(): number {
    return this.count;
  }

  /** The report node with `sh:conforms` (true when no result was written). */
  end(): string {
    return `\n_:report a sh:ValidationReport ;\n  sh:conforms ${this.count === 0 ? 'true' : 'false'} .\n`;
  }
}
