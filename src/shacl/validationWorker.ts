/**
 * The body of a validation worker thread ({@link ParallelRecordValidator}):
 * builds a {@link RecordValidator} from `workerData` and answers
 * `{ id, records }` messages with `{ id, outcomes }` (terms encoded).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordValidator } from './RecordValidator.js';
import type { RecordValidatorOptions } from './RecordValidator.js';
import { decodeQuads } from './termCodec.js';
import { encodeOutcome } from './ParallelRecordValidator.js';

const options = workerData as Pick<RecordValidatorOptions, 'shapesDir' | 'sparql'>;
const port = parentPort!;

RecordValidator.create(options).then(
  (validator) => {
    port.on('message', (msg: { id: number; records: string[][] }) => {
      validator.validateRecords(msg.records.map(decodeQuads)).then(
        (outcomes) => port.postMessage({ id: msg.id, outcomes: outcomes.map(encodeOutcome) }),
        (err: Error) => port.postMessage({ id: msg.id, error: err.message }),
      );
    });
    port.postMessage({ ready: true });
  },
  (err: Error) => port.postMessage({ failed: err.message, code: (err as { code?: string }).code }),
);
