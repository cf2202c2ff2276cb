/**
 * The body of a validation worker thread ({@link ParallelRecordValidator}):
 * builds a {@link RecordValidator} from `workerData` and answers
 * `{ id, encoded }` (records of quads, `encodeRecords`) and `{ id, texts }` (N-Triples or N-Quads
 * lines, parsed here) with `{ id, outcomes }` ({@link packOutcomes}), `{ id, part }`
 * (a part of a dump, read here: {@link validateRecordPart}) with `{ id, part }` (its outcomes packed), or with
 * `{ id, error }` (`parse` too for a syntax error).
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { ParseError } from '../errors.js';
import { RecordValidator } from './RecordValidator.js';
import type { RecordValidatorOptions } from './RecordValidator.js';
import type { RecordText } from '../group/RecordText.js';
import type { EncodedRecords } from './reports/termCodec.js';
import { validateRecordPart, type RecordPartJob } from './validateRecordPart.js';
import { packOutcomes } from './PackedOutcomes.js';
import type { WorkerAnswer } from './ParallelRecordValidator.js';
import { timeline } from './validationTimeline.js';

timeline?.mark('boot', { origin: performance.timeOrigin });

// V8 lets a heap grow to about four times what is alive before a full collection: each worker's old generation
// reached 100 MB with 23 MB alive (validate --jobs 2: 340 MB of RSS). Doubled at most, the process stays near 255 MB
// for 2 % more CPU (60 %: 240 MB, 14 % more). The setting is the process's; it is a growth step, not a limit.
setFlagsFromString('--heap-growing-percent=100');

const options = workerData as Pick<RecordValidatorOptions, 'shapesDir' | 'sparql' | 'schemaScheme' | 'checkScope'>;
const port = parentPort!;

RecordValidator.create(options).then(
  (validator) => {
    timeline?.mark('ready');
    port.on('message', (msg: { id: number; encoded?: EncodedRecords; texts?: RecordText[]; part?: RecordPartJob }) => {
      // Each request is a run of its own: the reading thread filters the copies told of shared nodes in input order.
      validator.forgetCopies();
      if (timeline) timeline.mark('take', msg.part ? { start: msg.part.start, end: msg.part.end } : {});
      const answer: Promise<Omit<WorkerAnswer, 'id'>> = msg.part
        ? validateRecordPart(validator, msg.part).then(({ outcomes, ...p }) => ({
            part: { ...p, packed: packOutcomes(outcomes) },
          }))
        : (msg.texts
            ? validator.validateTexts(msg.texts)
            : msg.encoded
              ? validator.validateEncoded(msg.encoded)
              : Promise.resolve([])
          ).then((o) => ({ outcomes: packOutcomes(o) }));
      answer.then(
        (a) => {
          // The outcomes' numbers are transferred, not copied.
          const numbers = (a.part?.packed ?? a.outcomes)!.numbers.buffer as ArrayBuffer;
          if (timeline) timeline.mark('done', msg.part ? { start: msg.part.start, records: a.part!.keys.length } : {});
          port.postMessage({ id: msg.id, ...a } satisfies WorkerAnswer, [numbers]);
        },
        (err: Error) =>
          port.postMessage({
            id: msg.id,
            error: err.message,
            ...(err instanceof ParseError
              ? { parse: { message: err.reason, source: err.source, line: err.line, column: err.column } }
              : {}),
          } satisfies WorkerAnswer),
      );
    });
    port.postMessage({ ready: true, reasons: validator.scope.reasons });
  },
  (err: Error) => port.postMessage({ failed: err.message, code: (err as { code?: string }).code }),
);
