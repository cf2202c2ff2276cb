import type { RecordValidation } from '../pipeline/RecordValidation.js';
import { createRecordValidator, violationsToJson } from '../shacl/createRecordValidator.js';
import { ParallelRecordValidator } from '../shacl/ParallelRecordValidator.js';
import type { RecordValidatorOptions } from '../shacl/RecordValidator.js';

/** Records validated in one call in this thread (one: the SHACL validator gains nothing from more). */
const BATCH = 1;

/**
 * Records validated in one call in a worker: one message each way for them. 32 records are about 3,600 quads; the
 * thread that maps the next 32 meanwhile is rarely kept waiting.
 */
const WORKER_BATCH = 32;

/** Options of {@link createRecordValidation}. */
export interface RecordValidationOptions extends RecordValidatorOptions {
  /**
   * Validate in this many worker threads (0: in the calling thread; shapes given as `shapes` or
   * `dataClassTriples`, which a worker cannot be sent, are validated in the calling thread too). With workers, a
   * pipeline that maps the next records while the last ones are validated (`RecordSink`) uses two cores; call
   * `close()` at the end. Defaults to 0.
   */
  workers?: number;
}

/**
 * The record pipeline's validation by SHACL: loads the shapes once (the
 * shipped ones unless `shapesDir`/`shapes` say otherwise) and gives each
 * record's violations (warnings do not reject a record).
 */
export async function createRecordValidation(options: RecordValidationOptions = {}): Promise<RecordValidation> {
  const { workers = 0, ...validatorOptions } = options;
  const { shapes, dataClassTriples, ...posted } = validatorOptions;
  if (workers > 0 && !shapes && !dataClassTriples) {
    const parallel = await ParallelRecordValidator.create({ ...posted, workers });
    return {
      batchSize: WORKER_BATCH,
      async violations(records) {
        const outcomes = await parallel.validateRecords(records);
        return outcomes.map(violationsToJson);
      },
      close: () => parallel.close(),
    };
  }
  const validator = await createRecordValidator(validatorOptions);
  return {
    batchSize: BATCH,
    async violations(records) {
      const outcomes = await validator.validateRecords(records);
      return outcomes.map(violationsToJson);
    },
  };
}
