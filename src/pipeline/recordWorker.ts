/**
 * The body of a record worker thread ({@link ParallelRecordSink}): creates a
 * record writer from `workerData` ({@link RecordWorkerData}), continued after
 * a record so that every record's text is position-independent, and answers,
 * in order, `{ id, jobs }` (records) with `{ id, results, bytes }`
 * ({@link convertRecords}) and `{ id, part }` (a part of an input, as bytes)
 * with `{ id, part: PartResult }` ({@link convertPart}). Bytes in shared
 * memory (a part's input and the output it is given to write into) are shared,
 * others transferred: never copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializerFor } from '../serialize/serializers.js';
import { type PartJob, type RecordJob, type RecordWorkerData, convertPart, convertRecords } from './convertRecords.js';
import { isShared } from './SharedBuffers.js';

const data = workerData as RecordWorkerData;
const port = parentPort!;
const writer = serializerFor(data.format).createWriter(data.serializer);
writer.continueAfter(1);

port.on('message', (msg: { id: number; jobs: RecordJob[] } | { id: number; part: PartJob }) => {
  if ('part' in msg) {
    const part = convertPart(msg.part, writer, data.map, data.read);
    port.postMessage({ id: msg.id, part }, transferable([part.bytes, part.input, part.entries.numbers]));
    return;
  }
  const { results, bytes } = convertRecords(msg.jobs, writer, data.map);
  port.postMessage({ id: msg.id, results, bytes }, [bytes.buffer as ArrayBuffer]);
});

/** The distinct buffers of typed arrays not in shared memory (a buffer listed twice cannot be transferred, a shared one is shared). */
function transferable(arrays: ArrayBufferView[]): ArrayBuffer[] {
  return [...new Set(arrays.filter((a) => !isShared(a)).map((a) => a.buffer as ArrayBuffer))];
}
