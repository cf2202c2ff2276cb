import type * as RDF from '@rdfjs/types';
import { groupRecords } from './groupRecords.js';
import type { GroupRecordsOptions } from './groupRecords.js';
import type { ValidationOutcome } from './RecordValidator.js';
import type { RecordValidating } from './ParallelRecordValidator.js';

/** The outcome of one group of a stream. */
export interface RecordValidation {
  /** The record's DOI as written in its IRIs, or `undefined` for quads that belong to no record. */
  key: string | undefined;
  /** The quads validated. */
  quads: RDF.Quad[];
  outcome: ValidationOutcome;
}

/** Options of {@link validateStream}. */
export interface ValidateStreamOptions extends GroupRecordsOptions {
  /** Stops the validation: the iteration throws the signal's reason. Defaults to none. */
  signal?: AbortSignal;
  /**
   * Records validated at once (useful with a {@link ParallelRecordValidator}:
   * about twice its workers). Outcomes are still yielded in input order.
   * Defaults to 1.
   */
  concurrency?: number;
}

/**
 * Validates a stream of quads record by record ({@link groupRecords}): each
 * record's work and the nodes it owns are validated together, then dropped,
 * so memory stays flat whatever the size of the dump (at most `concurrency`
 * records plus the grouping window are held). Yields one outcome per
 * record, in input order (and groups of quads that belong to no record).
 */
export async function* validateStream(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  validator: RecordValidating,
  options: ValidateStreamOptions = {},
): AsyncGenerator<RecordValidation, void, undefined> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const queue: Promise<RecordValidation>[] = [];
  for await (const group of groupRecords(quads, options)) {
    options.signal?.throwIfAborted();
    const pending = validator.validateRecord(group.quads).then((outcome) => ({ key: group.key, quads: group.quads, outcome }));
    pending.catch(() => undefined); // awaited below, in order
    queue.push(pending);
    if (queue.length >= concurrency) yield await queue.shift()!;
  }
  while (queue.length) yield await queue.shift()!;
}
