import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolkitError } from '../errors.js';
import type { PartJob, PartResult, RecordBatchResult, RecordJob, RecordWorkerData } from './convertRecords.js';

/** Options of {@link RecordWorkerPool}. */
export interface RecordWorkerPoolOptions {
  /** Worker threads. Defaults to 2. */
  workers?: number;
  /**
   * The worker script. Defaults to `recordWorker.js` beside this module, else
   * `dist/pipeline/recordWorker.js` (running from the sources: tests).
   */
  workerUrl?: URL;
}

interface Pending {
  /** Resolves with the answer; false when the message is not the answer it waits for. */
  take: (msg: Record<string, unknown>) => boolean;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Why the worker cannot take more (it failed or exited), once it cannot. */
  failure?: ToolkitError;
}

/** The compiled worker script: next to this module, or in dist/ when running from the sources. */
function workerScript(): URL {
  const here = new URL('./recordWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL('../../dist/pipeline/recordWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new ToolkitError(
    'converting in worker threads needs the built worker (dist/pipeline/recordWorker.js): run npm run build',
    'internal',
  );
}

/**
 * Record workers ({@link recordWorker}): each normalises, maps and writes
 * the batches of records it is sent, in order. A batch goes to the worker
 * with the fewest batches in flight. Idle workers do not keep the process
 * alive; {@link close} ends them. A worker that fails fails its batches (and
 * later ones) with a `ToolkitError` (`internal`).
 */
export class RecordWorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  /** The worker the last buffer was given back to. */
  private given = 0;
  private closedBy: ToolkitError | undefined;

  constructor(data: RecordWorkerData, options: RecordWorkerPoolOptions = {}) {
    const script = options.workerUrl ?? workerScript();
    const count = Math.max(1, Math.min(options.workers ?? 2, 64));
    for (let i = 0; i < count; i++) this.slots.push(this.startWorker(script, data, i + 1));
  }

  /** Number of workers. */
  get workers(): number {
    return this.slots.length;
  }

  /** Batches sent and not answered yet. */
  get inFlight(): number {
    let n = 0;
    for (const s of this.slots) n += s.pending.size;
    return n;
  }

  private startWorker(script: URL, data: RecordWorkerData, number: number): Slot {
    // Flags only a main script can take (`--input-type`) would stop the worker; it inherits the others.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    // A larger young generation: mapping allocates many short-lived objects (measured: about 20% less CPU than the
    // default). 32 MiB, not 64: two workers' peak RSS 257 against 323 MB (20k records, paired runs), CPU within noise.
    const resourceLimits = { maxYoungGenerationSizeMb: 32 };
    const worker = new Worker(script, {
      workerData: data,
      resourceLimits,
      ...(execArgv.length < process.execArgv.length ? { execArgv } : {}),
    });
    const slot: Slot = { worker, pending: new Map() };
    const fail = (why: string, cause?: unknown): void => {
      slot.failure ??= new ToolkitError(
        `record worker ${number} ${why}`,
        'internal',
        cause !== undefined ? { cause } : {},
      );
      for (const p of slot.pending.values()) p.reject(slot.failure);
      slot.pending.clear();
    };
    worker.on('message', (msg: { id: number } & Record<string, unknown>) => {
      const p = slot.pending.get(msg.id);
      if (!p) return;
      slot.pending.delete(msg.id);
      if (slot.pending.size === 0) worker.unref();
      if (!p.take(msg)) {
        slot.pending.set(msg.id, p);
        fail('sent an answer without its results and bytes');
      }
    });
    worker.on('error', (err) => fail(`failed: ${err.message}`, err));
    worker.on('messageerror', (err) => fail(`sent an unreadable answer: ${err.message}`, err));
    worker.on('exit', (code) => fail(`stopped (exit code ${code})`));
    worker.unref();
    return slot;
  }

  /** Sends a batch to the least busy worker; resolves with a result per job, in order, and the written text's bytes. */
  convert(jobs: RecordJob[]): Promise<RecordBatchResult> {
    if (jobs.length === 0 && !this.closedBy) return Promise.resolve({ results: [], bytes: new Uint8Array(0) });
    return this.send<RecordBatchResult>({ jobs }, [], (msg) =>
      Array.isArray(msg.results) && msg.bytes instanceof Uint8Array
        ? { results: msg.results as RecordBatchResult['results'], bytes: msg.bytes }
        : undefined,
    );
  }

  /**
   * Sends a part of an input to the least busy worker, its bytes transferred
   * (`part.bytes` is unusable here after); resolves with the worker's
   * {@link PartResult}, which gives the bytes back as `input`.
   */
  convertPart(part: PartJob): Promise<PartResult> {
    const buffer = part.bytes.buffer as ArrayBuffer;
    return this.send<PartResult>({ part }, [buffer], (msg) => {
      const answer = msg.part as PartResult | undefined;
      return answer &&
        Array.isArray(answer.entries) &&
        answer.bytes instanceof Uint8Array &&
        answer.input instanceof Uint8Array
        ? answer
        : undefined;
    });
  }

  /** Gives a worker back the buffer of an answer whose bytes were written out: it writes a later part into it (no new memory). */
  giveBack(buffer: ArrayBuffer): void {
    const slot = this.slots.find((s) => !s.failure && !this.closedBy);
    if (!slot || buffer.byteLength === 0) return;
    this.given = (this.given + 1) % this.slots.length;
    const to = this.slots[this.given]!.failure ? slot : this.slots[this.given]!;
    try {
      to.worker.postMessage({ spare: buffer }, [buffer]);
    } catch {
      // A buffer that can no longer be given (detached): it is collected as any other.
    }
  }

  private send<T>(
    message: object,
    transfer: ArrayBuffer[],
    read: (msg: Record<string, unknown>) => T | undefined,
  ): Promise<T> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const alive = this.slots.filter((s) => !s.failure);
    if (alive.length === 0) return Promise.reject(this.slots[0]!.failure!);
    let slot = alive[0]!;
    for (const s of alive) if (s.pending.size < slot.pending.size) slot = s;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const take = (msg: Record<string, unknown>): boolean => {
        const answer = read(msg);
        if (answer === undefined) return false;
        resolve(answer);
        return true;
      };
      slot.pending.set(id, { take, reject });
      // Busy workers keep the process alive; idle ones do not.
      if (slot.pending.size === 1) slot.worker.ref();
      try {
        slot.worker.postMessage({ id, ...message }, transfer);
      } catch (err) {
        // A record that cannot be copied to a thread (not JSON data: a function, say).
        slot.pending.delete(id);
        if (slot.pending.size === 0) slot.worker.unref();
        reject(
          new ToolkitError(`records could not be sent to a worker: ${(err as Error).message}`, 'internal', {
            cause: err,
          }),
        );
      }
    });
  }

  /** Ends the workers; batches in flight fail with `reason` (default: `aborted`, "the record workers were closed"). */
  async close(reason = new ToolkitError('the record workers were closed', 'aborted')): Promise<void> {
    if (this.closedBy) return;
    this.closedBy = reason;
    for (const slot of this.slots) {
      slot.failure ??= reason;
      for (const p of slot.pending.values()) p.reject(reason);
      slot.pending.clear();
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
