import type * as RDF from '@rdfjs/types';
import { availableParallelism } from 'node:os';
import { ParseError, ToolkitError } from '../errors.js';
import { WorkerPool, workerScript } from '../workers/WorkerPool.js';
import type { RecordValidatorOptions, ValidationOutcome } from './RecordValidator.js';
import { encodeRecords } from './reports/termCodec.js';
import type { EncodedRecords } from './reports/termCodec.js';
import { unpackOutcomes, type PackedOutcomes } from './PackedOutcomes.js';
import type { RecordText } from '../group/RecordText.js';
import type { RecordPartJob, RecordPartOutcome } from './validateRecordPart.js';

/** Anything that validates records: {@link RecordValidator} in process, {@link ParallelRecordValidator} in workers. */
export interface RecordValidating {
  validateRecord(quads: Iterable<RDF.Quad>): Promise<ValidationOutcome>;
  /** The outcomes of several records, in order (as {@link validateRecord} of each gives them). */
  validateRecords(records: readonly Iterable<RDF.Quad>[]): Promise<ValidationOutcome[]>;
  /**
   * The outcomes of records given as N-Triples or N-Quads lines, parsed where they are validated; a syntax
   * error rejects with a `ParseError`. Optional: without it `validateNTriples` parses them
   * ({@link parseRecordText}) and calls {@link validateRecords}.
   */
  validateTexts?(records: readonly RecordText[]): Promise<ValidationOutcome[]>;
}

/** @internal What a worker answers: outcomes, or the error of the request (a `ParseError` with its position). */
export interface WorkerAnswer {
  id: number;
  outcomes?: PackedOutcomes;
  part?: Omit<RecordPartOutcome, 'outcomes'> & { packed: PackedOutcomes };
  error?: string;
  parse?: { message: string; source: string; line?: number; column?: number };
}

/** Options of {@link ParallelRecordValidator.create}. */
export interface ParallelRecordValidatorOptions extends Pick<
  RecordValidatorOptions,
  'shapesDir' | 'sparql' | 'schemaScheme' | 'checkScope'
> {
  /** Worker threads. Defaults to the machine's available parallelism (at most 8). */
  workers?: number;
}

/** The load a part counts for in {@link ParallelRecordValidator}'s choice of a worker (a record counts 1). */
const PART_LOAD = 64;

/**
 * Validates records in worker threads (a {@link WorkerPool}), each with its own
 * {@link RecordValidator}: validation is CPU-bound, so a machine with N cores
 * validates up to N times as many records per second. Records go to the
 * worker with the fewest records in flight. Call {@link close} at the end.
 */
export class ParallelRecordValidator implements RecordValidating {
  private closed = false;

  private constructor(
    private readonly pool: WorkerPool,
    /** Why validating record by record could differ from the whole graph, as the workers read the shapes (`RecordValidator.scope`). */
    readonly reasons: readonly string[],
  ) {}

  /** Starts the workers and waits until each has loaded the shapes. */
  static async create(options: ParallelRecordValidatorOptions = {}): Promise<ParallelRecordValidator> {
    const pool = await WorkerPool.start({
      script: workerScript('validationWorker.js', 'shacl', import.meta.url),
      workerData: {
        ...(options.shapesDir ? { shapesDir: options.shapesDir } : {}),
        ...(options.sparql ? { sparql: options.sparql } : {}),
        ...(options.schemaScheme ? { schemaScheme: options.schemaScheme } : {}),
        ...(options.checkScope ? { checkScope: true } : {}),
      },
      workers: options.workers ?? Math.min(8, availableParallelism()),
      // A young generation of 16 MiB: two workers' peak RSS 337 MB on 20k records against 396 with 32 MiB (365
      // against 292 with 96 on 5k); CPU within the noise of this loaded machine (16.1 s against 15.2–16.5 s).
      youngGenerationMb: 16,
      name: 'validation worker',
      ready: true,
    });
    return new ParallelRecordValidator(pool, (pool.hello?.['reasons'] as string[] | undefined) ?? []);
  }

  /** Number of workers. */
  get workers(): number {
    return this.pool.workers;
  }

  async validateRecord(quads: Iterable<RDF.Quad>): Promise<ValidationOutcome> {
    return (await this.validateRecords([quads]))[0]!;
  }

  /** Validates the records in one worker (one message; the worker validates them one by one). */
  async validateRecords(records: readonly Iterable<RDF.Quad>[]): Promise<ValidationOutcome[]> {
    if (records.length === 0 && !this.closed) return [];
    return unpackOutcomes((await this.request(records.length, { encoded: encodeRecords(records) })).outcomes!);
  }

  /** Parses and validates the records in one worker: the calling thread only posts their text. */
  async validateTexts(records: readonly RecordText[]): Promise<ValidationOutcome[]> {
    if (records.length === 0 && !this.closed) return [];
    return unpackOutcomes((await this.request(records.length, { texts: records })).outcomes!);
  }

  /**
   * Reads, groups and validates a part of a dump in one worker ({@link validateRecordPart}): the calling thread
   * posts where the part lies, and gets its groups' keys, outcomes and boundary back.
   */
  async validatePart(job: RecordPartJob): Promise<RecordPartOutcome> {
    // Counted as a few dozen records in flight: parts and batches share the workers.
    const { packed, ...part } = (await this.request(PART_LOAD, { part: job })).part!;
    return { ...part, outcomes: unpackOutcomes(packed) };
  }

  private request(
    count: number,
    body: { encoded: EncodedRecords } | { texts: readonly RecordText[] } | { part: RecordPartJob },
  ): Promise<WorkerAnswer> {
    if (this.closed) return Promise.reject(new ToolkitError('the validator is closed', 'internal'));
    return this.pool.send<WorkerAnswer>(
      body,
      (msg) => {
        const answer = msg as unknown as WorkerAnswer;
        if (answer.outcomes || answer.part) return answer;
        if (answer.parse)
          throw new ParseError(answer.parse.message, answer.parse.source, answer.parse.line, answer.parse.column);
        if (answer.error !== undefined) throw new ToolkitError(`validation failed: ${answer.error}`, 'internal');
        return undefined;
      },
      { load: count, what: 'its outcomes' },
    );
  }

  /** Stops the workers (records in flight fail). */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close(new ToolkitError('the validator is closed', 'internal'));
  }
}
