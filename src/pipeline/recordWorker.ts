/**
 * The body of a record worker thread ({@link ParallelRecordSink}): creates a
 * record writer from `workerData` ({@link RecordWorkerData}), continued after
 * a record so that every record's text is position-independent, and answers
 * `{ id, jobs }` with `{ id, results, bytes }` ({@link convertRecords}), in
 * order; the bytes' buffer is transferred, not copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializerFor } from '../serialize/serializers.js';
import { type RecordJob, type RecordWorkerData, convertRecords } from './convertRecords.js';

const data = workerData as RecordWorkerData;
const port = parentPort!;
const writer = serializerFor(data.format).createWriter(data.serializer);
writer.continueAfter(1);

port.on('message', (msg: { id: number; jobs: RecordJob[] }) => {
  const { results, bytes } = convertRecords(msg.jobs, writer, data.map);
  port.postMessage({ id: msg.id, results, bytes }, [bytes.buffer as ArrayBuffer]);
});
