import type * as RDF from '@rdfjs/types';
import { groupRecords } from './groupRecords.js';
import type { GroupRecordsOptions, RecordGroup } from './groupRecords.js';
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
   * Batches validated at once (useful with a {@link ParallelRecordValidator}:
   * about twice its workers). Outcomes are still yielded in input order.
   * Defaults to 1.
   */
  concurrency?: number;
  /**
   * Records given to the validator at once ({@link RecordValidating.validateRecords}):
   * records that share no node are validated in one run of the engine, which
   * costs less per record. Defaults to 16.
   */
  batch?: number;
}

/**
 * Validates a stream of quads record by record ({@link groupRecords}): each
 * record's work and the nodes it owns are validated together, then dropped,
 * so memory stays flat whatever the size of the dump (at most `concurrency`
 * batches plus the grouping window are held). Yields one outcome per
 * record, in input order (and groups of quads that belong to no record,
 * each validated alone).
 */
export async function* validateStream(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  validator: RecordValidating,
  options: ValidateStreamOptions = {},
): AsyncGenerator<RecordValidation, void, undefined> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const batchSize = Math.max(1, options.batch ?? 16);
  const queue: Promise<RecordValidation[]>[] = [];
  let batch: RecordGroup[] = [];
  const send = (groups: RecordGroup[]) => {
    const pending = validator
      .validateRecords(groups.map((g) => g.quads))
      .then((outcomes) => groups.map((g, i) => ({ key: g.key, quads: g.quads, outcome: outcomes[i]! })));
    pending.catch(() => undefined); // awaited below, in order
    queue.push(pending);
  };
  for await (const group of groupRecords(quads, options)) {
    options.signal?.throwIfAborted();
    if (group.key === undefined) {
      // Quads of no record: alone, after the records before them.
      if (batch.length) send(batch);
      batch = [];
      send([group]);
    } else {
      batch.push(group);
      if (batch.length >= batchSize) {
        send(batch);
        batch = [];
      }
    }
    while (queue.length >= concurrency) yield* await queue.shift()!;
  }
  if (batch.length) send(batch);
  while (queue.length) yield* await queue.shift()!;
}
