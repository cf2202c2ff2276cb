import type { ErrorCode } from '../errors.js';
import type { RecordIdentities } from '../mapping/recordIdentities.js';
import type { ReadItem } from '../record/readRecords.js';
import type { Rejection } from './Rejection.js';

/**
 * The outcome of one record in a worker, in a form `postMessage` copies cheaply:
 * - `written`: the record's text, as a writer writes it after earlier records (JSON-LD: `,\n` first),
 *   as `bytes` UTF-8 bytes of the batch's (`RecordBatchResult`) or part's (`PartResult`) `bytes`;
 * - `unwritable`: mapped, but the format cannot carry it (the writer's `serialization` message);
 * - `rejected`: normalising or mapping failed (`hadRecord`: the rejection carried the raw record, left out here);
 * - `failed`: an error that fails the run (a bug, not a bad record).
 */
export type RecordResult =
  | {
      kind: 'written';
      doi: string;
      /** The digest of the record's content (`recordDigest`). */
      digest: [number, number];
      bytes: number;
      quadCount: number;
      /** The keys of its statements about shared entities (`sharedTripleKeys`). */
      sharedKeys: number[];
      notes: string[];
      unknownFields: string[];
      identities: RecordIdentities;
    }
  | { kind: 'unwritable'; doi: string; digest: [number, number]; reason: string }
  | { kind: 'rejected'; rejection: Omit<Rejection, 'record'>; hadRecord: boolean }
  | { kind: 'failed'; message: string; code: ErrorCode };

/**
 * The outcome of one item of a part: a problem of the reader (numbered within
 * the part), or a record's {@link RecordResult} with its place (`index`
 * within the part, `line` in the input).
 */
export type PartEntry =
  | { kind: 'problem'; problem: Extract<ReadItem, { kind: 'problem' }> }
  | (RecordResult & { index: number; line?: number });
