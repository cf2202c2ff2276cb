import type { ShapesScope } from './analyseShapes.js';
import type { Severity } from '../reports/ValidationResult.js';

/** How a dump is validated: each record alone (flat memory), or all of it as one graph in memory. */
export type ValidationModeName = 'record' | 'graph';

/** The mode a run used, and why (for a person). */
export interface ValidationMode {
  mode: ValidationModeName;
  why: string;
}

/**
 * The mode for some shapes: `auto` validates record by record when the
 * shapes read nothing beyond a record ({@link ShapesScope.reasons} empty),
 * else the whole graph; `record` and `graph` are taken as asked.
 */
export function chooseMode(
  requested: 'auto' | ValidationModeName,
  scope: Pick<ShapesScope, 'reasons'>,
): ValidationMode {
  const reason = scope.reasons[0];
  const more = scope.reasons.length > 1 ? ` (and ${scope.reasons.length - 1} more)` : '';
  if (requested === 'graph') return { mode: 'graph', why: 'asked for (`mode` graph)' };
  if (requested === 'record') {
    return {
      mode: 'record',
      why: reason
        ? `asked for (\`mode\` record), though the shapes reach beyond a record: ${reason}${more}; the results may differ from SHACL on the whole graph`
        : 'asked for (`mode` record); records not checked for what they name beyond themselves',
    };
  }
  if (reason) return { mode: 'graph', why: `the shapes reach beyond a record: ${reason}${more}` };
  return {
    mode: 'record',
    why: 'the shapes read only what a record holds (its own nodes and the shared nodes written with it), and each record was checked for that',
  };
}

/** Which results make a run fail: those of this severity or a more severe one (the shapes' own severities always do). */
export type FailOn = 'violation' | 'warning' | 'info';

/** Counts of results by severity (a `ValidationSummary`). */
export interface SeverityCounts {
  violations: number;
  warnings: number;
  infos: number;
  others: number;
  /** The shapes' own severities met. */
  otherSeverities: ReadonlySet<Severity>;
}

/** The severities a run found, most severe first: `Violation`, the shapes' own (`<iri>`), `Warning`, `Info`. */
export function severitiesFound(counts: SeverityCounts): Severity[] {
  return [
    ...(counts.violations ? ['Violation' as const] : []),
    ...counts.otherSeverities,
    ...(counts.warnings ? ['Warning' as const] : []),
    ...(counts.infos ? ['Info' as const] : []),
  ];
}

/** Whether results of these counts fail a run with `failOn`. */
export function failsOn(failOn: FailOn, counts: SeverityCounts): boolean {
  if (counts.violations > 0 || counts.others > 0) return true;
  if (failOn === 'violation') return false;
  if (counts.warnings > 0) return true;
  return failOn === 'info' && counts.infos > 0;
}

/** The verdict of a run ({@link runVerdict}). */
export interface RunVerdict {
  /** SHACL's answer: no result of any severity (each record whole, exactly); an empty input conforms, as SHACL (and Jena) say. */
  conforms: boolean;
  /** Whether the run fails: results of `failOn`'s severity or worse, records split, or results not exact. */
  failed: boolean;
  /** The severities found, most severe first. */
  severities: Severity[];
}

/** The verdict of a run from its summary's counts: split records and inexact results fail it whatever `failOn` says. */
export function runVerdict(
  summary: SeverityCounts & { records: number; otherGroups: number; splitRecords: number; notExact: readonly string[] },
  failOn: FailOn,
): RunVerdict {
  const validated = summary.splitRecords === 0 && summary.notExact.length === 0;
  const results = summary.violations + summary.warnings + summary.infos + summary.others;
  return {
    conforms: validated && results === 0,
    failed: !validated || failsOn(failOn, summary),
    severities: severitiesFound(summary),
  };
}

/** The values of `failOn`. */
export const FAIL_ON: readonly FailOn[] = ['violation', 'warning', 'info'];
