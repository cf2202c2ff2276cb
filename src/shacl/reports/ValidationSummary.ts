import type * as RDF from '@rdfjs/types';
import { compactIri, type ValidationOutcome, type ValidationResult } from './ValidationResult.js';
import { detachedString, detachedTerm } from '../../rdf/detached.js';
import { XSD_STRING } from '../../rdf/namespaces.js';
import { blankNodeLabel } from './blankNodeLabel.js';

/** Results counted under one shape and path. */
export interface ShapeCount {
  /** The shape, compact (`srsh:Work-doi`). */
  shape: string;
  path: string | undefined;
  severity: ValidationResult['severity'];
  /** Results. */
  count: number;
  /** Records with at least one such result. */
  records: number;
  /** The message of the first result. */
  message: string;
}

/** A first example of a failing record. */
export interface ValidationExample {
  record: string;
  result: ValidationResult;
}

/** Options of {@link ValidationSummary}. */
export interface ValidationSummaryOptions {
  /** How many example results to keep. Defaults to 5. */
  maxExamples?: number;
}

/**
 * Counts the outcome of a validation run in bounded memory: records,
 * conforming records, results by shape and path, and the first few examples.
 */
export class ValidationSummary {
  /** Records validated (groups of quads that belong to a record). */
  records = 0;
  /** Records without a `Violation`. */
  conforming = 0;
  /** Records with warnings but no violation. */
  withWarningsOnly = 0;
  /** Groups of quads that belong to no record (e.g. the dataset description). */
  otherGroups = 0;
  /** Whether those other quads conform. */
  otherConforms = true;
  violations = 0;
  warnings = 0;
  infos = 0;
  /** Results of the shapes' own severities (neither violation, warning nor info). */
  others = 0;
  /** Those severities. */
  readonly otherSeverities = new Set<ValidationResult['severity']>();
  /** Records whose quads were not together in the input: their results are wrong (a failure, unless regrouped). */
  splitRecords = 0;
  /**
   * Why the results of this record-by-record run may differ from SHACL on the whole graph (records that name
   * other records' nodes, shared nodes written differently...): a failure. Set by the caller. Defaults to none.
   */
  notExact: string[] = [];
  readonly examples: ValidationExample[] = [];
  private readonly counts = new Map<string, ShapeCount>();
  private readonly maxExamples: number;

  constructor(options: ValidationSummaryOptions = {}) {
    this.maxExamples = options.maxExamples ?? 5;
  }

  /** Whether every record (and every other quad) conforms: no `Violation` anywhere. */
  get conforms(): boolean {
    return this.violations === 0;
  }

  /** Adds the outcome of one group. `record` is its label (the DOI), `undefined` for quads of no record. */
  add(record: string | undefined, outcome: ValidationOutcome): void {
    if (record === undefined) {
      this.otherGroups++;
      if (!outcome.conforms) this.otherConforms = false;
    } else {
      this.records++;
      if (outcome.conforms) {
        this.conforming++;
        if (outcome.warnings > 0) this.withWarningsOnly++;
      }
    }
    this.violations += outcome.violations;
    this.warnings += outcome.warnings;
    this.infos += outcome.infos ?? 0;
    this.others += outcome.others ?? 0;
    const seen = new Set<string>();
    let exampleTaken = false;
    for (const r of outcome.results) {
      if (r.severity.startsWith('<') && !this.otherSeverities.has(r.severity))
        this.otherSeverities.add(detachedString(r.severity) as ValidationResult['severity']);
      const shape = shapeLabel(r.shape);
      const id = `${shape} ${r.path ?? ''} ${r.severity}`;
      let c = this.counts.get(id);
      if (!c) {
        c = { shape, path: r.path, severity: r.severity, count: 0, records: 0, message: detachedString(r.message) };
        this.counts.set(id, c);
      }
      c.count++;
      if (!seen.has(id)) {
        seen.add(id);
        c.records++;
      }
      if (
        !exampleTaken &&
        (r.severity === 'Violation' || r.severity.startsWith('<')) &&
        this.examples.length < this.maxExamples
      ) {
        // Copies: the parsed terms and texts would keep their input chunks alive for the whole run.
        const result: ValidationResult = {
          ...r,
          focusNode: detachedTerm(r.focusNode),
          value: r.value && detachedTerm(r.value),
          message: detachedString(r.message),
        };
        this.examples.push({ record: detachedString(record ?? termLabel(r.focusNode)), result });
        exampleTaken = true;
      }
    }
  }

  /** Results by shape and path, violations first, most frequent first. */
  byShape(): ShapeCount[] {
    // The shapes' own severities fail a run whatever `failOn` says: after violations.
    const rank = (s: ValidationResult['severity']) =>
      s === 'Violation' ? 0 : s === 'Warning' ? 2 : s === 'Info' ? 3 : 1;
    return [...this.counts.values()].sort(
      (a, b) => rank(a.severity) - rank(b.severity) || b.count - a.count || a.shape.localeCompare(b.shape),
    );
  }

  /** The summary as lines of text for a person. */
  toLines(): string[] {
    const lines = [
      `records: ${this.records}, conforming: ${this.conforming}, not conforming: ${this.records - this.conforming}` +
        (this.withWarningsOnly ? ` (${this.withWarningsOnly} conforming with warnings)` : '') +
        // The first line is all `validate -q` prints: it must not read as success when other quads fail.
        (this.otherConforms ? '' : '; other quads do not conform'),
      `violations: ${this.violations}, warnings: ${this.warnings}` +
        (this.infos ? `, infos: ${this.infos}` : '') +
        (this.others ? `, results of other severities: ${this.others}` : ''),
    ];
    if (this.records === 0) {
      lines.push(
        this.otherGroups
          ? 'warning: no record in the input (no work with a bibo:doi and the nodes it owns): only other quads were validated'
          : 'note: the input holds no quads: it conforms (no results, as SHACL says of an empty graph), but nothing was checked',
      );
    }
    if (this.otherGroups)
      lines.push(
        `other quads (no record, e.g. the dataset description): ${this.otherConforms ? 'conform' : 'do not conform'}`,
      );
    if (this.splitRecords) {
      lines.push(
        `error: the quads of ${this.splitRecords} record(s) were not together in the input (a dump sorted by subject?): they were validated in pieces, ` +
          'so their results are wrong (missing nodes look like violations, violations across nodes go unseen); validate again with `regroup`',
      );
    }
    if (this.notExact.length) {
      lines.push(
        `error: record by record, the results may differ from SHACL on the whole graph: ${this.notExact.join('; ')}; validate with \`mode\` graph (raising \`maxGraphTriples\` if needed)`,
      );
    }
    const shapes = this.byShape();
    if (shapes.length) {
      lines.push('', 'by shape and path:');
      for (const c of shapes) {
        lines.push(
          `  ${c.severity.padEnd(9)} ${String(c.count).padStart(7)} in ${String(c.records).padStart(7)} record(s)  ${c.shape}${c.path ? `  ${c.path}` : ''}`,
        );
      }
    }
    if (this.examples.length) {
      lines.push('', 'first examples:');
      for (const { record, result } of this.examples) {
        lines.push(
          `  ${record}: ${termLabel(result.focusNode)}${result.path ? ` ${result.path}` : ''}${result.value ? ` = ${termLabel(result.value)}` : ''}`,
        );
        lines.push(`    ${shapeLabel(result.shape)}: ${result.message}`);
      }
    }
    return lines;
  }
}

/**
 * A shape for a person: compact when named (`srsh:Work-doi`), a blank shape as the report writes it
 * ({@link blankNodeLabel}: `_:bs1_b0`), so each blank shape is a row of its own and found in the report by its text.
 */
export function shapeLabel(term: RDF.Term): string {
  return term.termType === 'NamedNode' ? compactIri(term.value) : blankNodeLabel(term.value);
}

/** A term for a person: `<iri>`, `"text"@en`, `"1"^^xsd:integer`, a blank node as the report writes it ({@link blankNodeLabel}). */
export function termLabel(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType === 'BlankNode') return blankNodeLabel(term.value);
  if (term.termType === 'Literal') {
    const text = JSON.stringify(term.value.length > 80 ? `${term.value.slice(0, 77)}...` : term.value);
    if (term.language) return `${text}@${term.language}`;
    if (term.datatype.value !== XSD_STRING) return `${text}^^${compactIri(term.datatype.value)}`;
    return text;
  }
  return term.value;
}
