import { availableParallelism } from 'node:os';
import { PassThrough } from 'node:stream';
import { ToolkitError } from '../errors.js';
import { FileTarget } from '../output/FileTarget.js';
import { LineFile } from '../output/LineFile.js';
import { openTarget } from '../output/openTarget.js';
import { ConvertStats, type ConvertSummary } from '../pipeline/ConvertStats.js';
import { IdentityConflicts } from '../pipeline/IdentityConflicts.js';
import { ParallelRecordSink, type RecordPlace, type WrittenOutline } from '../pipeline/ParallelRecordSink.js';
import { describeRejection, rejectionLine } from '../pipeline/Rejection.js';
import { serializerFor } from '../serialize/serializers.js';
import { convertInput } from './convertInput.js';
import { type ConvertFilesOptions, planConvert } from './convertOptions.js';
import { makeSink, serializerOptions } from './convertSink.js';
import { storedBytes } from './inputSizes.js';
import { ProgressTicker } from './ProgressTicker.js';

export type { ConvertFilesOptions, ConvertProgress } from './convertOptions.js';

/**
 * Converts saved responses of the service to one RDF output: reads every
 * input record by record, and passes each through the record pipeline
 * (normalise, map, validate, de-duplicate, write). An input that is an RDF
 * document (any of the five formats, by extension or content: see
 * {@link classifyInput}) is re-serialised statement by statement instead. Memory does not grow with
 * the number of records. A run that fails leaves no partial output file (an
 * existing one stays as it was). Rejected records are in the summary's count,
 * the rejects file and `onRejected`, never lost.
 */
export async function convertFiles(options: ConvertFilesOptions): Promise<ConvertSummary> {
  const { toFile, format, naming, limits, rejectsPath } = await planConvert(options);
  const stats = new ConvertStats(Boolean(options.graphPerRecord));
  const fallback = options.stream ?? new PassThrough();
  const rejects = rejectsPath ? new LineFile(rejectsPath, fallback) : undefined;
  const notes = options.notesPath ? new LineFile(options.notesPath, fallback) : undefined;
  // SHACL (its engine and shapes) is loaded only for a run that validates.
  // Its shapes load (in a worker) while the first records are read and mapped: `ready` is awaited before the end.
  const validation = options.validate
    ? (await import('./createRecordValidation.js')).startRecordValidation({
        ...(options.shapesDir ? { shapesDir: options.shapesDir } : {}),
        schemaScheme: options.schemaScheme ?? 'http',
        // Validated in a worker while this thread maps and writes (validation costs about what conversion does),
        // unless told one thread (`jobs: 1`: on a machine whose cores are busy, the worker's cost is not repaid).
        workers: options.jobs !== 1 && availableParallelism() > 1 ? 1 : 0,
      })
    : undefined;
  const writer = serializerFor(format).createWriter(serializerOptions(options));
  const target = await openTarget({
    path: toFile ? options.output : undefined,
    stream: fallback,
    format,
    writer,
    shards: naming && limits ? { naming, limits } : undefined,
    signal: options.signal,
  });
  const conflicts = new IdentityConflicts();
  // A record's notes, with the conflicts it brings with the records before it (naming both; counted as notes too).
  // A promise only when a line is written (a record with no notes passes on without a turn of the microtasks).
  const noteLine = (
    item: RecordPlace,
    doi: string,
    mappedNotes: readonly string[],
    found: readonly string[],
  ): Promise<void> | undefined => {
    const recordNotes = found.length ? [...mappedNotes, ...found] : mappedNotes;
    stats.notes += found.length;
    if (recordNotes.length === 0 || !notes) return undefined;
    const where = { source: item.source, index: item.index, ...(item.line !== undefined ? { line: item.line } : {}) };
    return notes.append(`${JSON.stringify({ ...where, recordId: doi, notes: recordNotes })}\n`);
  };
  const observed = (doi: string, written: Pick<WrittenOutline, 'identities'>): string[] =>
    conflicts.observe(doi, written.identities).map((c) => c.note);
  const sink = await makeSink(target.writer, options, format, validation, {
    onRejected: async (rejection) => {
      stats.addRejected(rejection);
      // A DOI met again with different content: a conflict, noted on the rejected record's line.
      if (rejection.conflict !== undefined && rejection.index !== undefined) {
        conflicts.add(rejection.conflict);
        await noteLine(rejection as RecordPlace, rejection.recordId, [], [rejection.conflict]);
      }
      options.onRejected?.(rejection);
      await rejects?.append(rejectionLine(rejection));
      if (options.strict)
        throw new ToolkitError(
          `\`strict\`: stopped at the first rejected record: ${describeRejection(rejection)}`,
          'records-rejected',
        );
    },
    onWritten: async ({ item, mapped }) => {
      stats.addMapped(mapped);
      target.written(mapped.quads, mapped.doi);
      await noteLine(item, mapped.doi, mapped.notes, observed(mapped.doi, mapped));
    },
    // With `jobs` (no shards: see checkOptions): the quads stayed in a worker, the outline says what to count.
    onWrittenInWorker: ({ item, mapped }) => {
      stats.addWritten(mapped);
      return noteLine(item, mapped.doi, mapped.notes, observed(mapped.doi, mapped));
    },
  });
  // The workers' buffers go back to them once written out (their next parts are written into them).
  if (sink instanceof ParallelRecordSink && target instanceof FileTarget)
    target.onWritten = (bytes) => sink.release(bytes);
  let manifestPath: string | null;
  let closed: PromiseSettledResult<unknown>[];
  const read = { bytes: 0 };
  const totalBytes = storedBytes(options.inputs);
  const progress = new ProgressTicker(
    options.onProgress &&
      ((elapsedMs) =>
        options.onProgress!({
          bytesRead: read.bytes,
          totalBytes,
          records: stats.read,
          rejected: stats.rejected,
          statements: stats.triples,
          elapsedMs,
        })),
  );
  const onRead = (bytes: number): void => {
    read.bytes += bytes;
    progress.tick();
  };
  try {
    await target.add(sink.start());
    for (const path of options.inputs) await convertInput(path, options, sink, target, stats, onRead);
    progress.flush();
    await validation?.ready;
    manifestPath = await target.finish(await sink.end());
  } catch (err) {
    // Never leave a half-written file that looks complete (a cut Turtle file is still valid Turtle).
    await target.discard();
    throw err;
  } finally {
    if (sink instanceof ParallelRecordSink) await sink.close();
    await validation?.close?.();
    // Both side files are closed, whatever happened (a failure of the conversion itself goes on as it was).
    closed = await Promise.allSettled([rejects?.close(), notes?.close()]);
  }
  // A side file that could not be written is an error after the output is in place.
  const failed = closed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return {
    ...stats.toSummary(),
    ...conflicts.summary(),
    format,
    output: toFile ? options.output! : null,
    manifestPath,
    rejectsPath: rejects && rejects.lines > 0 ? rejectsPath! : null,
    notesPath: notes && notes.lines > 0 ? options.notesPath! : null,
  };
}
