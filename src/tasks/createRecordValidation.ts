import type { RecordValidation } from '../pipeline/RecordValidation.js';
import { createRecordValidator, violationsToJson } from '../shacl/createRecordValidator.js';
import type { RecordValidatorOptions } from '../shacl/RecordValidator.js';

/** Records validated in one call (one: the SHACL validator gains nothing from more). */
const BATCH = 1;

/**
 * The record pipeline's validation by SHACL: loads the shapes once (the
 * shipped ones unless `shapesDir`/`shapes` say otherwise) and gives each
 * record's violations (warnings do not reject a record).
 */
export async function createRecordValidation(options: RecordValidatorOptions = {}): Promise<RecordValidation> {
  const validator = await createRecordValidator(options);
  return {
    batchSize: BATCH,
    async violations(records) {
      const outcomes = await validator.validateRecords(records);
      return outcomes.map(violationsToJson);
    },
  };
}
