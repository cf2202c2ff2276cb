import { ToolkitError } from '../errors.js';
import type { ReadItem } from '../record/readRecords.js';
import { type RecordPartOptions, type RecordPartPlace, readRecordPart } from '../record/readRecordPart.js';
import type { PartResult, RecordResult } from './convertRecords.js';
import type { RecordPlace } from './ParallelRecordSinkOptions.js';
import { unpackEntries } from './PackedEntries.js';
import type { Rejection } from './Rejection.js';
import type { RecordItem } from './sinkRejections.js';

/** One item of a batch, as {@link ParallelRecordSink} passes it on. */
export type Unit =
  | { kind: 'problem'; item: Extract<ReadItem, { kind: 'problem' }> }
  | { kind: 'record'; place: RecordPlace; result: RecordResult; record: () => RecordItem; remake: boolean };

/** The units of a batch of items: a worker's result for each record, in order. */
export function* unitsOfItems(items: readonly ReadItem[], results: readonly RecordResult[]): Generator<Unit> {
  let next = 0;
  for (const item of items) {
    if (item.kind === 'problem') yield { kind: 'problem', item };
    else yield { kind: 'record', place: item, result: results[next++]!, record: () => item, remake: false };
  }
}

/**
 * The units of a part: numbered in the input (`base`: items of its parts
 * before). A record a rejection needs is read again here from the part's
 * bytes (once per part: rejections are rare), and its rejection made again
 * (it names the record by its number in the input).
 */
export function* unitsOfPart(
  answer: PartResult,
  place: RecordPartPlace,
  base: number,
  limits: RecordPartOptions,
): Generator<Unit> {
  let items: Map<number, RecordItem> | undefined;
  const recordAt = (index: number): RecordItem => {
    items ??= new Map(
      [...readRecordPart(answer.input, place, limits)].flatMap((i) =>
        i.kind === 'record' ? [[i.index, i] as const] : [],
      ),
    );
    const item = items.get(index);
    if (!item)
      throw new ToolkitError(
        `record ${place.source}#${index + base}: read again, the part no longer holds it`,
        'internal',
      );
    return { ...item, index: index + base };
  };
  for (const entry of unpackEntries(answer.entries)) {
    if (entry.kind === 'problem') {
      const { problem } = entry;
      yield {
        kind: 'problem',
        item: problem.index !== undefined ? { ...problem, index: problem.index + base } : problem,
      };
      continue;
    }
    const local = entry.index;
    yield {
      kind: 'record',
      place: { source: place.source, index: local + base, ...(entry.line !== undefined ? { line: entry.line } : {}) },
      result: entry as RecordResult,
      record: () => recordAt(local),
      remake: true,
    };
  }
}

/**
 * The rejection of a record whose mapping failed in a worker, made again here
 * (the same as `RecordSink`'s). The mapping is loaded on first use: this
 * thread maps nothing else.
 */
export async function remadeRejection(item: RecordItem): Promise<Rejection> {
  const { mapItem } = await import('./mapItem.js');
  const outcome = mapItem(item);
  if (outcome.kind !== 'rejected')
    throw new ToolkitError(`record ${item.source}#${item.index}: rejected in a worker, mapped here`, 'internal');
  return outcome.rejection;
}
