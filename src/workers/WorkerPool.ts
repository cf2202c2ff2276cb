import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolkitError, type ErrorCode } from '../errors.js';

/** Options of {@link WorkerPool.start}. */
export interface WorkerPoolOptions {
  /** The worker script ({@link workerScript}). */
  script: URL;
  /** Each worker's `workerData`. */
  workerData: unknown;
  /** Worker threads (1 to 64). */
  workers: number;
  /** Each worker's young generation, MiB (work that allocates many short-lived objects spends less on GC in a larger one). */
  youngGenerationMb: number;
  /** What a worker is called in errors (`record worker` gives "record worker 2 failed: ..."). */
  name: string;
  /**
   * Whether each worker tells when it can work: its first message `{ ready: true, ... }` (given to
   * {@link WorkerPool.hello}), or `{ failed, code }`, which fails the start. Defaults to false.
   */
  ready?: boolean;
}

/** What an answer's reader returns: the answer, or undefined when the message is not one (the worker fails). */
export type AnswerReader<T> = (msg: Record<string, unknown>) => T | undefined;

interface Pending {
  take: (msg: Record<string, unknown>) => boolean;
  /** What its answer must hold (for the error when it does not). */
  what: string;
  reject: (err: Error) => void;
  load: number;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** The load of the requests in flight. */
  load: number;
  /** Why the worker cannot take more (it failed or exited), once it cannot. */
  failure?: ToolkitError;
}

function workerCount(options: WorkerPoolOptions): number {
  return Math.max(1, Math.min(options.workers, 64));
}

/**
 * The compiled worker script `file` of the room `room`: beside the module at `from` (its `import.meta.url`), else
 * in `dist/<room>/` (running from the sources: tests). Throws `internal` naming the build to run when neither is.
 */
export function workerScript(file: string, room: string, from: string): URL {
  const here = new URL(`./${file}`, from);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL(`../../dist/${room}/${file}`, from);
  if (existsSync(fileURLToPath(built))) return built;
  throw new ToolkitError(`worker threads need the built worker (dist/${room}/${file}): run npm run build`, 'internal');
}

/**
 * Worker threads that answer requests (`{ id, ... }` in, `{ id, ... }` out, in any order): the one pool of
 * `convert --jobs` (`RecordWorkerPool`) and `validate --jobs` (`ParallelRecordValidator`). A request goes to the
 * worker with the least load in flight; idle workers do not keep the process alive. A worker that fails, exits or
 * answers what is not an answer fails its requests (and later ones) with a `ToolkitError` (`internal`) naming it;
 * {@link close} ends them.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  /** The worker a message was last posted to ({@link post}). */
  private posted = 0;
  private closedBy: ToolkitError | undefined;
  /** The first message of the first worker, when workers tell they are ready (`ready`). */
  hello: Record<string, unknown> | undefined;

  private constructor(private readonly options: WorkerPoolOptions) {}

  /** Starts the workers, which do not tell when they are ready (else see {@link start}). */
  static create(options: WorkerPoolOptions): WorkerPool {
    if (options.ready)
      throw new ToolkitError('workers that tell when they are ready start with WorkerPool.start', 'internal');
    const pool = new WorkerPool(options);
    for (let i = 0; i < workerCount(options); i++) pool.spawn(i + 1);
    return pool;
  }

  /** Starts the workers and, with `ready`, waits until each can work (a failure ends them all). */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    if (!options.ready) return WorkerPool.create(options);
    const pool = new WorkerPool(options);
    try {
      // Started side by side: each loads what it needs (the shapes: about 0.3 s) on a core of its own.
      const slots = Array.from({ length: workerCount(options) }, (_, i) => pool.spawn(i + 1));
      const started = await Promise.allSettled(slots.map((slot, i) => pool.ready(slot, i + 1)));
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  /** Number of workers. */
  get workers(): number {
    return this.slots.length;
  }

  /** The least load in flight of a worker that can take requests (`Infinity` when none can). */
  get leastLoad(): number {
    let least = Infinity;
    for (const s of this.slots) if (!s.failure && s.load < least) least = s.load;
    return least;
  }

  /** Requests sent and not answered yet. */
  get inFlight(): number {
    let n = 0;
    for (const s of this.slots) n += s.pending.size;
    return n;
  }

  private spawn(number: number): Slot {
    const { script, workerData, youngGenerationMb } = this.options;
    // Flags only a main script can take (`--input-type`) would stop the worker; it inherits the others.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    const worker = new Worker(script, {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
      ...(execArgv.length < process.execArgv.length ? { execArgv } : {}),
    });
    const slot: Slot = { worker, pending: new Map(), load: 0 };
    this.slots.push(slot);
    const fail = (why: string, cause?: unknown): void => {
      slot.failure ??= new ToolkitError(
        `${this.options.name} ${number} ${why}`,
        'internal',
        cause !== undefined ? { cause } : {},
      );
      for (const p of slot.pending.values()) p.reject(slot.failure);
      slot.pending.clear();
      slot.load = 0;
    };
    worker.on('message', (msg: { id: number } & Record<string, unknown>) => {
      const p = slot.pending.get(msg.id);
      if (!p) return;
      slot.pending.delete(msg.id);
      slot.load -= p.load;
      if (slot.pending.size === 0) worker.unref();
      if (!p.take(msg)) {
        slot.pending.set(msg.id, p);
        fail(`sent an answer without ${p.what}`);
      }
    });
    worker.on('error', (err) => fail(`failed: ${err.message}`, err));
    worker.on('messageerror', (err) => fail(`sent an unreadable answer: ${err.message}`, err));
    worker.on('exit', (code) => fail(`stopped (exit code ${code})`));
    worker.unref();
    return slot;
  }

  /** Waits for a worker's first message: `{ ready: true }` (the first kept as {@link hello}), or `{ failed, code }`. */
  private async ready(slot: Slot, number: number): Promise<void> {
    const worker = slot.worker;
    worker.ref();
    try {
      await new Promise<void>((resolve, reject) => {
        const failed = (err: Error) => reject(err);
        worker.once('error', failed);
        worker.once('message', (msg: { ready?: boolean; failed?: string; code?: ErrorCode }) => {
          worker.off('error', failed);
          this.hello ??= msg;
          if (msg.ready) resolve();
          else
            reject(
              new ToolkitError(msg.failed ?? `${this.options.name} ${number} did not start`, msg.code ?? 'internal'),
            );
        });
      });
    } finally {
      worker.unref();
    }
  }

  /**
   * Sends a request to the worker with the least load in flight (`load`: what it counts for, 1 by default;
   * `transfer`: buffers moved to the worker, unusable here after). Resolves with `read` of its answer; rejects
   * with what `read` throws (that request alone fails). `what`: what an answer holds, for the error when one does not.
   */
  send<T>(
    message: object,
    read: AnswerReader<T>,
    options: { transfer?: ArrayBuffer[]; load?: number; what?: string } = {},
  ): Promise<T> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const alive = this.slots.filter((s) => !s.failure);
    if (alive.length === 0) return Promise.reject(this.slots[0]!.failure!);
    let slot = alive[0]!;
    for (const s of alive) if (s.load < slot.load) slot = s;
    const id = this.nextId++;
    const load = options.load ?? 1;
    return new Promise<T>((resolve, reject) => {
      const take = (msg: Record<string, unknown>): boolean => {
        let answer: T | undefined;
        try {
          answer = read(msg);
        } catch (err) {
          reject(err as Error);
          return true;
        }
        if (answer === undefined) return false;
        resolve(answer);
        return true;
      };
      slot.pending.set(id, { take, reject, load, what: options.what ?? 'what was asked' });
      slot.load += load;
      // Busy workers keep the process alive; idle ones do not.
      if (slot.pending.size === 1) slot.worker.ref();
      try {
        slot.worker.postMessage({ id, ...message }, options.transfer ?? []);
      } catch (err) {
        // What cannot be copied to a thread (not JSON data: a function, say).
        slot.pending.delete(id);
        slot.load -= load;
        if (slot.pending.size === 0) slot.worker.unref();
        reject(
          new ToolkitError(
            `${options.what ?? 'the request'} could not be sent to a ${this.options.name}: ${(err as Error).message}`,
            'internal',
            { cause: err },
          ),
        );
      }
    });
  }

  /** Posts a message that wants no answer to the workers in turn (a buffer given back, say); false when none can take it. */
  post(message: object, transfer: ArrayBuffer[] = []): boolean {
    if (this.closedBy) return false;
    const alive = this.slots.filter((s) => !s.failure);
    if (alive.length === 0) return false;
    this.posted = (this.posted + 1) % this.slots.length;
    const to = this.slots[this.posted]!.failure ? alive[0]! : this.slots[this.posted]!;
    to.worker.postMessage(message, transfer);
    return true;
  }

  /** Ends the workers; requests in flight fail with `reason` (default: `aborted`, "the <name>s were closed"). */
  async close(reason = new ToolkitError(`the ${this.options.name}s were closed`, 'aborted')): Promise<void> {
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
