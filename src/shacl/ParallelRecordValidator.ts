import type * as RDF from '@rdfjs/types';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DataFactory } from 'n3';
import { ParseError, ToolkitError } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import type { RecordValidatorOptions, Severity, ValidationOutcome, ValidationResult } from './RecordValidator.js';
import { decodeTerm, encodeQuads, encodeTerm } from './reports/termCodec.js';
import type { EncodedTerm } from './reports/termCodec.js';
import type { RecordText } from '../group/RecordText.js';
import type { RecordScope } from './scope/recordScope.js';

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
  outcomes?: EncodedOutcome[];
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

interface EncodedResult {
  f: EncodedTerm;
  s: EncodedTerm;
  p?: string;
  rp?: { p: string[]; i: boolean; q: string }[];
  sev: Severity;
  m: string;
  v?: EncodedTerm;
  c: string;
  sc?: EncodedTerm;
}

/** An outcome in a form workers can post. */
export interface EncodedOutcome {
  conforms: boolean;
  violations: number;
  warnings: number;
  infos?: number;
  others?: number;
  results: EncodedResult[];
  scope?: RecordScope;
}

/** @internal Encodes an outcome for `postMessage`. */
export function encodeOutcome(o: ValidationOutcome): EncodedOutcome {
  return {
    conforms: o.conforms,
    violations: o.violations,
    warnings: o.warnings,
    ...(o.infos ? { infos: o.infos } : {}),
    ...(o.others ? { others: o.others } : {}),
    ...(o.scope ? { scope: o.scope } : {}),
    results: o.results.map((r) => ({
      f: encodeTerm(r.focusNode),
      s: encodeTerm(r.shape),
      ...(r.path !== undefined ? { p: r.path } : {}),
      ...(r.resultPath
        ? { rp: r.resultPath.map((st) => ({ p: st.predicates.map((x) => x.value), i: st.inverse, q: st.quantifier })) }
        : {}),
      sev: r.severity,
      m: r.message,
      ...(r.value ? { v: encodeTerm(r.value) } : {}),
      c: r.constraintComponent.value,
      ...(r.sourceConstraint ? { sc: encodeTerm(r.sourceConstraint) } : {}),
    })),
  };
}

function decodeOutcome(o: EncodedOutcome): ValidationOutcome {
  return {
    conforms: o.conforms,
    violations: o.violations,
    warnings: o.warnings,
    ...(o.infos ? { infos: o.infos } : {}),
    ...(o.others ? { others: o.others } : {}),
    ...(o.scope ? { scope: o.scope } : {}),
    results: o.results.map((r): ValidationResult => ({
      focusNode: decodeTerm(r.f),
      shape: decodeTerm(r.s),
      path: r.p,
      resultPath: r.rp?.map((st) => ({
        predicates: st.p.map((x) => DataFactory.namedNode(x)),
        inverse: st.i,
        quantifier: st.q as 'one',
      })),
      severity: r.sev,
      message: r.m,
      value: r.v === undefined ? undefined : decodeTerm(r.v),
      constraintComponent: DataFactory.namedNode(r.c),
      sourceConstraint: r.sc === undefined ? undefined : decodeTerm(r.sc),
    })),
  };
}

/** The compiled worker script: next to this module, or in dist/ when running from the sources (tests). */
function workerScript(): URL {
  const here = new URL('./validationWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL('../../dist/shacl/validationWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new ToolkitError(
    'parallel validation needs the built worker (dist/shacl/validationWorker.js): run npm run build',
    'internal',
  );
}

interface Slot {
  worker: Worker;
  /** Requests in flight (one record or a batch) and how many records each holds. */
  pending: Map<number, { resolve: (o: ValidationOutcome[]) => void; reject: (e: Error) => void; records: number }>;
  /** Records in flight. */
  load: number;
}

/**
 * Validates records in worker threads, each with its own
 * {@link RecordValidator}: validation is CPU-bound, so a machine with N cores
 * validates up to N times as many records per second. Records go to the
 * worker with the fewest records in flight. Call {@link close} at the end.
 */
export class ParallelRecordValidator implements RecordValidating {
  private nextId = 0;
  private closed = false;

  private constructor(
    private readonly slots: Slot[],
    /** Why validating record by record could differ from the whole graph, as the workers read the shapes (`RecordValidator.scope`). */
    readonly reasons: readonly string[],
  ) {}

  /** Starts the workers and waits until each has loaded the shapes. */
  static async create(options: ParallelRecordValidatorOptions = {}): Promise<ParallelRecordValidator> {
    const count = Math.max(1, Math.min(options.workers ?? Math.min(8, availableParallelism()), 64));
    const script = workerScript();
    const data = {
      ...(options.shapesDir ? { shapesDir: options.shapesDir } : {}),
      ...(options.sparql ? { sparql: options.sparql } : {}),
      ...(options.schemaScheme ? { schemaScheme: options.schemaScheme } : {}),
      ...(options.checkScope ? { checkScope: true } : {}),
    };
    const slots: Slot[] = [];
    let reasons: string[] | undefined;
    try {
      for (let i = 0; i < count; i++) {
        // A larger young generation: validation allocates many short-lived objects (about 25% faster).
        const worker = new Worker(script, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 96 } });
        const slot: Slot = { worker, pending: new Map(), load: 0 };
        slots.push(slot);
        await new Promise<void>((resolve, reject) => {
          const onMessage = (msg: { ready?: boolean; reasons?: string[]; failed?: string; code?: ErrorCode }) => {
            worker.off('error', reject);
            reasons ??= msg.reasons;
            if (msg.ready) resolve();
            else reject(new ToolkitError(msg.failed ?? 'the validation worker did not start', msg.code ?? 'internal'));
          };
          worker.once('message', onMessage);
          worker.once('error', reject);
        });
        worker.on('message', (msg: WorkerAnswer) => {
          const p = slot.pending.get(msg.id);
          if (!p) return;
          slot.pending.delete(msg.id);
          slot.load -= p.records;
          if (slot.pending.size === 0) worker.unref();
          if (msg.outcomes) p.resolve(msg.outcomes.map(decodeOutcome));
          else if (msg.parse)
            p.reject(new ParseError(msg.parse.message, msg.parse.source, msg.parse.line, msg.parse.column));
          else p.reject(new ToolkitError(`validation failed: ${msg.error}`, 'internal'));
        });
        worker.on('error', (err) => {
          for (const p of slot.pending.values()) p.reject(err);
          slot.pending.clear();
          slot.load = 0;
        });
        worker.unref();
      }
    } catch (err) {
      await Promise.all(slots.map((s) => s.worker.terminate()));
      throw err;
    }
    return new ParallelRecordValidator(slots, reasons ?? []);
  }

  /** Number of workers. */
  get workers(): number {
    return this.slots.length;
  }

  async validateRecord(quads: Iterable<RDF.Quad>): Promise<ValidationOutcome> {
    return (await this.validateRecords([quads]))[0]!;
  }

  /** Validates the records in one worker (one message; the worker validates them one by one). */
  validateRecords(records: readonly Iterable<RDF.Quad>[]): Promise<ValidationOutcome[]> {
    return this.request(records.length, { records: records.map(encodeQuads) });
  }

  /** Parses and validates the records in one worker: the calling thread only posts their text. */
  validateTexts(records: readonly RecordText[]): Promise<ValidationOutcome[]> {
    return this.request(records.length, { texts: records });
  }

  private request(
    count: number,
    body: { records: EncodedTerm[][] } | { texts: readonly RecordText[] },
  ): Promise<ValidationOutcome[]> {
    if (this.closed) return Promise.reject(new ToolkitError('the validator is closed', 'internal'));
    if (count === 0) return Promise.resolve([]);
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.load < slot.load) slot = s;
    const id = this.nextId++;
    return new Promise<ValidationOutcome[]>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject, records: count });
      slot.load += count;
      // Idle workers do not keep the process alive; busy ones do.
      if (slot.pending.size === 1) slot.worker.ref();
      slot.worker.postMessage({ id, ...body });
    });
  }

  /** Stops the workers (records in flight fail). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
