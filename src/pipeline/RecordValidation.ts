import type * as RDF from '@rdfjs/types';

/** One violation of a record, as plain JSON (what a rejects file keeps). */
export interface RecordViolation {
  severity: string;
  /** The shape, compact (`srsh:Work-doi`). */
  shape: string;
  focusNode: string;
  path?: string;
  value?: string;
  message: string;
}

/**
 * What the record pipeline asks of a validator: the violations of each record
 * of a batch (none: the record conforms). The SHACL validator of `shacl/`
 * gives one (`createRecordValidation`); a pipeline may bring its own.
 */
export interface RecordValidation {
  /** Records given together in one call (a validator that runs records in parallel may want several). */
  readonly batchSize: number;
  /**
   * The violations of each record, in the order given (none given: an empty answer; `RecordSink` asks for every
   * batch, so that a validation that cannot load its shapes fails the run). Calls may overlap (a pipeline maps the
   * next records while the last ones are validated elsewhere): answers come for each call's records.
   */
  violations(records: readonly (readonly RDF.Quad[])[]): Promise<readonly (readonly RecordViolation[])[]>;
  /** Frees what it holds (worker threads): called once, at the end of the run. Optional: none to free. */
  close?(): Promise<void>;
}

/** One line for a person: `Violation srsh:Work-doi <https://doi.org/...> bibo:doi: message`. */
export function describeViolation(v: RecordViolation): string {
  return `${v.severity} ${v.shape} ${v.focusNode}${v.path ? ` ${v.path}` : ''}${v.value ? ` = ${v.value}` : ''}: ${v.message}`;
}
