import type * as RDF from '@rdfjs/types';
import { groupRecords } from './groupRecords.js';
import type { GroupRecordsOptions } from './groupRecords.js';
import type { RecordValidator, ValidationOutcome } from './RecordValidator.js';

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
}

/**
 * Validates a stream of quads record by record ({@link groupRecords}): each
 * record's work and the nodes it owns are validated together, then dropped,
 * so memory stays flat whatever the size of the dump. Yields one outcome per
 * record, in input order (and groups of quads that belong to no record).
 */
export async function* validateStream(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  validator: RecordValidator,
  options: ValidateStreamOptions = {},
): AsyncGenerator<RecordValidation, void, undefined> {
  for await (const group of groupRecords(quads, options)) {
    options.signal?.throwIfAborted();
    const outcome = await validator.validateRecord(group.quads);
    yield { key: group.key, quads: group.quads, outcome };
  }
}
