import type * as RDF from '@rdfjs/types';
import type { ConvertTarget } from '../output/ConvertTarget.js';
import { decodeUtf8 } from '../parse/decodeUtf8.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { readLimitsOf } from '../parse/limits.js';
import type { ConvertStats } from '../pipeline/ConvertStats.js';
import { ParallelRecordSink } from '../pipeline/ParallelRecordSink.js';
import type { RecordSink } from '../pipeline/RecordSink.js';
import { readRecords, type ReadItem } from '../record/readRecords.js';
import { classifyInput } from './classifyInput.js';
import { HeadKept } from './HeadKept.js';
import type { ConvertFilesOptions } from './convertOptions.js';

/** Reads one input into the sink: records batch by batch (or, in worker threads, part by part), or an RDF document's statements. */
export async function convertInput(
  path: string,
  options: ConvertFilesOptions,
  sink: RecordSink | ParallelRecordSink,
  target: ConvertTarget,
  stats: ConvertStats,
  onRead: (bytes: number) => void,
): Promise<void> {
  const file = await openRdfFile(path, options.stdin, onRead, options.maxDocumentChars);
  // The records are read from the bytes (the head the sniffer read, then the rest), not from its text.
  const bytes = new HeadKept(file.input);
  const input = await classifyInput(path, bytes.chunks());
  if (input.kind === 'rdf') {
    bytes.forget();
    // An RDF document is re-serialised as it is, streaming (as riot does): its statements, not records.
    for await (const group of subjectGroups(
      // Decoded here, each read given back once decoded: the reads of a line over the limit are not left to the collector.
      parseRdfQuads(decodeUtf8(input.input, file.release), {
        format: input.format,
        source: file.source,
        ...readLimitsOf(options),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    )) {
      // After the records in flight: ParallelRecordSink writes the group itself, in order.
      if (sink instanceof ParallelRecordSink) await target.add(await sink.writeQuads(group));
      else await target.statements(group);
      stats.addStatements(group);
    }
    return;
  }
  if (sink instanceof ParallelRecordSink) {
    // The workers read the input's bytes themselves, part by part: this thread neither decodes nor parses it.
    // One write in flight: the next parts go to the workers while the output takes the last text (a worker done
    // with its parts is not left waiting for the disk); the text after waits for it (memory stays bounded).
    let writing: Promise<void> | undefined;
    try {
      for await (const text of sink.takeInput(bytes.again(), file.source, file.release)) {
        await writing;
        writing = target.add(text);
      }
      await writing;
    } finally {
      // A failure before the write in flight was awaited: its outcome (the same failure, or nothing) is dropped.
      writing?.catch(() => undefined);
    }
    return;
  }
  let batch: ReadItem[] = [];
  const read = { source: file.source, release: file.release, ...readLimitsOf(options) };
  const add = (text: string): Promise<void> => (sink.binary ? target.addBinary(text) : target.add(text));
  // One batch in flight: the next is read and mapped while the sink's validation (in a worker) checks the last.
  let inFlight: Promise<string> | undefined;
  try {
    for await (const item of readRecords(bytes.again(), read)) {
      batch.push(item);
      if (batch.length < sink.batchSize) continue;
      const taken = sink.take(batch);
      batch = [];
      const last = inFlight;
      inFlight = taken;
      if (last) await add(await last);
    }
    const taken = sink.take(batch);
    const last = inFlight;
    inFlight = taken;
    if (last) await add(await last);
    inFlight = undefined;
    await add(await taken);
  } finally {
    // A failure before the batch in flight was awaited: its answer (the same failure, or text not wanted) is dropped.
    inFlight?.catch(() => undefined);
  }
}

/** Consecutive quads of one subject and graph, in groups of at most 1,000 (what a record writer writes best). */
async function* subjectGroups(quads: AsyncIterable<RDF.Quad>): AsyncGenerator<RDF.Quad[]> {
  let group: RDF.Quad[] = [];
  for await (const q of quads) {
    const last = group[group.length - 1];
    if (last && (group.length >= 1000 || !last.subject.equals(q.subject) || !last.graph.equals(q.graph))) {
      yield group;
      group = [];
    }
    group.push(q);
  }
  if (group.length > 0) yield group;
}
