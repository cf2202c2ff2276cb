import { availableParallelism } from 'node:os';
import type { FormatName } from '../formats.js';
import { readLimitsOf } from '../parse/limits.js';
import { ParallelRecordSink, type ParallelRecordSinkOptions } from '../pipeline/ParallelRecordSink.js';
import type { RecordSink, RecordSinkOptions } from '../pipeline/RecordSink.js';
import type { RecordValidation } from '../pipeline/RecordValidation.js';
import { NS } from '../rdf/namespaces.js';
import { DEFAULT_PREFIXES } from '../rdf/prefixes.js';
import type { RecordWriter, SerializerOptions } from '../serialize/QuadSerializer.js';
import type { ConvertFilesOptions } from './convertOptions.js';
import { estimatedTextBytes } from './inputSizes.js';

/**
 * The record pipeline of a conversion: the one place it is made (in worker
 * threads with `jobs` above 1; the mapping is then loaded by the workers only).
 */
export async function makeSink(
  writer: RecordWriter,
  options: ConvertFilesOptions,
  format: FormatName,
  validation: RecordValidation | undefined,
  on: Pick<RecordSinkOptions, 'onRejected' | 'onWritten'> & {
    onWrittenInWorker: ParallelRecordSinkOptions['onWritten'];
  },
): Promise<RecordSink | ParallelRecordSink> {
  const mapOptions = {
    ...(options.base ? { base: options.base } : {}),
    schemaScheme: options.schemaScheme ?? 'http',
    ...(options.graphPerRecord ? { graphPerRecord: true } : {}),
  } as const;
  const jobs = Math.min(options.jobs ?? defaultJobs(options), availableParallelism());
  if (jobs > 1) {
    const signal = options.signal ? { signal: options.signal } : {};
    return new ParallelRecordSink({
      ...mapOptions,
      ...readLimitsOf(options),
      format,
      serializer: serializerOptions(options),
      jobs,
      ...signal,
      onRejected: on.onRejected,
      onWritten: on.onWrittenInWorker,
    });
  }
  const { RecordSink } = await import('../pipeline/RecordSink.js');
  return new RecordSink(writer, {
    ...mapOptions,
    format,
    ...(validation ? { validation } : {}),
    // The records' text as the bytes it is written as, where the writer gives them (cheaper to write out).
    binary: writer.writeBinary !== undefined,
    onRejected: on.onRejected,
    onWritten: on.onWritten,
  });
}

/** Inputs of this much text or more are converted in worker threads unless `jobs` says otherwise (docs/scale.md: the crossover). */
const AUTO_JOBS_BYTES = 16 * 2 ** 20;

/** `jobs` when not given: one per core (at most 8) for a large input that can go to workers, else 1. */
function defaultJobs(options: ConvertFilesOptions): number {
  if (options.validate || options.shardRecords !== undefined || options.shardBytes !== undefined) return 1;
  return estimatedTextBytes(options.inputs) >= AUTO_JOBS_BYTES ? Math.min(availableParallelism(), 8) : 1;
}

export function serializerOptions(options: ConvertFilesOptions): SerializerOptions {
  return {
    prefixes: options.schemaScheme === 'https' ? { ...DEFAULT_PREFIXES, schema: NS.schemaHttps } : DEFAULT_PREFIXES,
    ...(options.graph ? { graph: options.graph } : {}),
    ...(options.jsonldContext ? { jsonldContext: options.jsonldContext } : {}),
  };
}
