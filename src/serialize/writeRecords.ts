import type * as RDF from '@rdfjs/types';
import type { Writable } from 'node:stream';
import { ToolkitError } from '../errors.js';
import type { RecordWriter } from './QuadSerializer.js';

/** Options of {@link writeRecords}. */
export interface WriteRecordsOptions {
  /** Stops writing (rejecting with code `aborted`) when aborted. Defaults to none. */
  signal?: AbortSignal;
  /** Text is gathered into writes of about this many characters. Defaults to 65536. */
  chunkSize?: number;
  /** End `out` when done and wait for it to finish (files); leave it open for stdout. Defaults to false. */
  end?: boolean;
}

/** What {@link writeRecords} wrote. */
export interface WriteRecordsResult {
  /** Groups (records) written. */
  groups: number;
  /** Quads written (as given; duplicates within a group are written once). */
  quads: number;
}

function abortError(signal: AbortSignal): ToolkitError {
  return new ToolkitError('writing was cancelled', 'aborted', { cause: signal.reason });
}

/**
 * Writes groups of quads (one group per record) with a record writer to a
 * stream: `writer.start()`, each group, `writer.end()`. Text is gathered into
 * writes of about 64 KB; when `out` asks to wait (backpressure), so does this.
 * Holds one group and one chunk in memory. Rejects on a serialisation error,
 * a stream error or an abort; `out` is then left as it is (not ended).
 */
export async function writeRecords(
  groups: AsyncIterable<readonly RDF.Quad[]> | Iterable<readonly RDF.Quad[]>,
  writer: RecordWriter,
  out: Writable,
  options: WriteRecordsOptions = {},
): Promise<WriteRecordsResult> {
  const { signal, chunkSize = 65536, end = false } = options;
  let streamError: Error | undefined;
  let wake: (() => void) | undefined;
  const onError = (e: Error): void => {
    streamError = e;
    wake?.();
  };
  const onAbort = (): void => wake?.();
  out.on('error', onError);
  signal?.addEventListener('abort', onAbort);
  const check = (): void => {
    if (streamError) throw streamError;
    if (signal?.aborted) throw abortError(signal);
  };
  const waitFor = (event: 'drain' | 'finish'): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        out.off(event, done);
        wake = undefined;
        resolve();
      };
      wake = done;
      out.on(event, done);
    });
  let buffer = '';
  const flush = async (): Promise<void> => {
    if (buffer === '') return;
    const text = buffer;
    buffer = '';
    if (!out.write(text)) {
      await waitFor('drain');
    }
    check();
  };
  let count = 0;
  let quads = 0;
  try {
    check();
    buffer += writer.start();
    if (Symbol.asyncIterator in groups) {
      for await (const group of groups) {
        check();
        buffer += writer.write(group);
        count++;
        quads += group.length;
        if (buffer.length >= chunkSize) await flush();
      }
    } else {
      // A synchronous source: no await per group, only per chunk.
      for (const group of groups) {
        buffer += writer.write(group);
        count++;
        quads += group.length;
        if (buffer.length >= chunkSize) await flush();
      }
    }
    check();
    buffer += writer.end();
    await flush();
    if (end) {
      const finished = waitFor('finish');
      out.end();
      await finished;
      check();
    }
    return { groups: count, quads };
  } finally {
    out.off('error', onError);
    signal?.removeEventListener('abort', onAbort);
  }
}
