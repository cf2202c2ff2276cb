import type * as RDF from '@rdfjs/types';
import { groupNTriplesInput } from '../group/groupNTriplesInput.js';
import type { NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import type { GroupNTriplesInputOptions } from '../group/groupNTriplesInput.js';
import { groupRecords } from '../group/groupRecords.js';
import type { GroupRecordsOptions, RecordGroup } from '../group/groupRecords.js';
import { parseRecordText } from '../group/RecordText.js';
import type { RdfInput } from '../parse/RdfInput.js';
import type { ValidationOutcome } from './reports/ValidationResult.js';
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
   * with a {@link ParallelRecordValidator}, one message to a worker. Defaults to 16.
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
  const validate = (groups: RecordGroup[]) => validator.validateRecords(groups.map((g) => g.quads));
  for await (const { group, outcome } of inOrder(groupRecords(quads, options), validate, options)) {
    yield { key: group.key, quads: group.quads, outcome };
  }
}

/** The outcome of one record of an N-Triples or N-Quads dump ({@link validateNTriples}). */
export interface RecordTextValidation {
  /** The record's DOI as written in its IRIs, or `undefined` for quads that belong to no record. */
  key: string | undefined;
  outcome: ValidationOutcome;
  /** The statements (lines of a triple or quad) of the group. */
  statements: number;
}

/** Options of {@link validateNTriples}. */
export interface ValidateNTriplesOptions
  extends ValidateStreamOptions, Pick<GroupNTriplesInputOptions, 'maxDocumentChars' | 'release'> {
  /** Defaults to `ntriples`. */
  format?: 'ntriples' | 'nquads';
  /** The name of the input in error messages. Defaults to `<input>`. */
  source?: string;
}

/**
 * {@link validateStream} for an N-Triples or N-Quads dump given as bytes or
 * text: the dump is cut into the lines of each record
 * ({@link groupNTriplesRecords}) and each batch is parsed where it is
 * validated, so that with a {@link ParallelRecordValidator} the parsing runs
 * in the workers too and the reading thread is no bottleneck. Same outcomes,
 * same order, flat memory. A syntax error throws a `ParseError` with the
 * input line when its record's turn comes.
 */
export async function* validateNTriples(
  input: RdfInput,
  validator: RecordValidating,
  options: ValidateNTriplesOptions = {},
): AsyncGenerator<RecordTextValidation, void, undefined> {
  yield* validateRecordTexts(groupNTriplesInput(input, options), validator, options);
}

/**
 * Validates records given as the lines of each ({@link groupNTriplesRecords},
 * or {@link regroupRecords} after it), parsing each batch where it is
 * validated; outcomes in the order of the groups.
 */
export async function* validateRecordTexts(
  groups: AsyncIterable<NTriplesRecordGroup>,
  validator: RecordValidating,
  options: ValidateStreamOptions = {},
): AsyncGenerator<RecordTextValidation, void, undefined> {
  const validate = async (batch: NTriplesRecordGroup[]) =>
    validator.validateTexts
      ? validator.validateTexts(batch)
      : validator.validateRecords(batch.map((record) => parseRecordText(record)));
  for await (const { group, outcome } of inOrder(groups, validate, options))
    yield { key: group.key, outcome, statements: group.lines.length };
}

/**
 * Validates groups in batches (records together, a group of no record
 * alone), `concurrency` batches at a time, and yields each group with its
 * outcome in input order.
 */
async function* inOrder<G extends { key: string | undefined }>(
  groups: AsyncIterable<G>,
  validate: (batch: G[]) => Promise<ValidationOutcome[]>,
  options: ValidateStreamOptions,
): AsyncGenerator<{ group: G; outcome: ValidationOutcome }, void, undefined> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const batchSize = Math.max(1, options.batch ?? 16);
  type Done = { group: G; outcome: ValidationOutcome };
  const queue: Promise<{ done: Done[]; failed?: { error: unknown } }>[] = [];
  let batch: G[] = [];
  const run = async (groups: G[]) => (await validate(groups)).map((outcome, i) => ({ group: groups[i]!, outcome }));
  const send = (groups: G[]) => {
    queue.push(
      run(groups).then(
        (done) => ({ done }),
        async (error: unknown) => {
          // A batch that fails (a syntax error in one record): the records before that one still count.
          const done: Done[] = [];
          if (groups.length > 1) {
            for (const group of groups) {
              try {
                done.push(...(await run([group])));
              } catch (err) {
                return { done, failed: { error: err } };
              }
            }
          }
          return { done, failed: { error } };
        },
      ),
    );
  };
  async function* next(): AsyncGenerator<Done, void, undefined> {
    const { done, failed } = await queue.shift()!;
    yield* done;
    if (failed) throw failed.error;
  }
  for await (const group of groups) {
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
    while (queue.length >= concurrency) yield* next();
  }
  if (batch.length) send(batch);
  while (queue.length) yield* next();
}
