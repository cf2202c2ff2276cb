/**
 * The body of a record worker thread ({@link ParallelRecordSink}): creates a
 * record writer from `workerData` ({@link RecordWorkerData}), continued after
 * a record so that every record's text is position-independent, and answers,
 * in order, `{ id, jobs }` (records) with `{ id, results, bytes }`
 * ({@link convertRecords}) and `{ id, part }` (a part of an input, as bytes)
 * with `{ id, part: PartResult }` ({@link convertPart}); bytes are
 * transferred both ways, never copied. `{ spare }` gives back the buffer of
 * an answer written out, to write a later part into.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializerFor } from '../serialize/serializers.js';
import { type PartJob, type RecordJob, type RecordWorkerData, convertPart, convertRecords } from './convertRecords.js';

const data = workerData as RecordWorkerData;
const port = parentPort!;
const writer = serializerFor(data.format).createWriter(data.serializer);
writer.continueAfter(1);

/** Buffers of answers given back (`{ spare }`), to write the next parts into: the largest last. */
const spares: ArrayBuffer[] = [];

port.on(
  'message',
  (msg: { id: number; jobs: RecordJob[] } | { id: number; part: PartJob } | { spare: ArrayBuffer }) => {
    if ('spare' in msg) {
      spares.push(msg.spare);
      spares.sort((a, b) => a.byteLength - b.byteLength);
      if (spares.length > MAX_SPARES) spares.shift();
      return;
    }
    if ('part' in msg) {
      const part = convertPart(msg.part, writer, data.map, data.read, spares.pop());
      port.postMessage({ id: msg.id, part }, transferable([part.bytes, part.input, part.entries.numbers]));
      return;
    }
    const { results, bytes } = convertRecords(msg.jobs, writer, data.map);
    port.postMessage({ id: msg.id, results, bytes }, [bytes.buffer as ArrayBuffer]);
  },
);

/** Buffers given back kept at most. */
const MAX_SPARES = 2;

/** The distinct buffers of typed arrays (a buffer listed twice cannot be transferred). */
function transferable(arrays: ArrayBufferView[]): ArrayBuffer[] {
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}
