import { RecordValidator, type RecordValidatorOptions } from './RecordValidator.js';
import { type ValidationOutcome, type ValidationResult } from './reports/ValidationResult.js';
import { shapeLabel, termLabel } from './reports/ValidationSummary.js';
import { describeResultJson } from './reports/ValidationResultJson.js';
import type { ValidationResultJson } from './reports/ValidationResultJson.js';

export type { ValidationResultJson } from './reports/ValidationResultJson.js';

/**
 * Loads the shapes once and returns a validator for mapped records, for
 * `export --validate` and `convert --validate`:
 *
 * ```ts
 * const validator = await createRecordValidator();
 * const outcome = await validator.validateRecord(mapped.quads);
 * if (!outcome.conforms) rejects.write({ doi, violations: outcome.results.map(resultToJson) });
 * ```
 */
export function createRecordValidator(options: RecordValidatorOptions = {}): Promise<RecordValidator> {
  return RecordValidator.create(options);
}

/** {@link ValidationResult} as plain JSON. */
export function resultToJson(result: ValidationResult): ValidationResultJson {
  return {
    severity: result.severity,
    shape: shapeLabel(result.shape),
    focusNode: termLabel(result.focusNode),
    ...(result.path ? { path: result.path } : {}),
    ...(result.value ? { value: termLabel(result.value) } : {}),
    message: result.message,
  };
}

/** One line for a person: `Violation srsh:Work-doi <https://doi.org/...> bibo:doi: message`. */
export function describeResult(result: ValidationResult): string {
  return describeResultJson(resultToJson(result));
}

/** The violations of an outcome, one line each (warnings left out). */
export function describeViolations(outcome: ValidationOutcome): string[] {
  return outcome.results.filter((r) => r.severity === 'Violation').map(describeResult);
}

/** The violations of an outcome as JSON (warnings left out): what `export --validate` and `convert --validate` write to the rejects file. */
export function violationsToJson(outcome: ValidationOutcome): ValidationResultJson[] {
  return outcome.results.filter((r) => r.severity === 'Violation').map(resultToJson);
}
