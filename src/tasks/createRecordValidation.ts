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
  const validation = startRecordValidation(options);
  await validation.ready;
  return validation;
}

/**
 * {@link createRecordValidation} at once, its shapes loaded (and its workers started) meanwhile: `violations`
 * waits for them, and `ready` settles when they are loaded, rejecting as `createRecordValidation` would. A
 * pipeline maps its first records while a worker starts (about 0.4 s); it must await `ready` before it ends, so
 * that shapes it cannot use fail the run even when no record came.
 */
export function startRecordValidation(
  options: RecordValidationOptions = {},
): RecordValidation & { ready: Promise<void> } {
  const { workers = 0, ...validatorOptions } = options;
  const { shapes, dataClassTriples, ...posted } = validatorOptions;
  if (workers > 0 && !shapes && !dataClassTriples) {
    const parallel = ParallelRecordValidator.create({ ...posted, workers });
    return {
      batchSize: WORKER_BATCH,
      ready: settled(parallel),
      async violations(records) {
        const outcomes = await (await parallel).validateRecords(records);
        return outcomes.map(violationsToJson);
      },
      close: () =>
        parallel.then(
          (p) => p.close(),
          () => undefined,
        ),
    };
  }
  const validator = createRecordValidator(validatorOptions);
  return {
    batchSize: BATCH,
    ready: settled(validator),
    async violations(records) {
      const outcomes = await (await validator).validateRecords(records);
      return outcomes.map(violationsToJson);
    },
  };
}

/** A promise that settles with `p`, its rejection handled where nobody awaits it yet (the same error when awaited). */
function settled(p: Promise<unknown>): Promise<void> {
  const ready = p.then(() => undefined);
  ready.catch(() => undefined);
  return ready;
}
