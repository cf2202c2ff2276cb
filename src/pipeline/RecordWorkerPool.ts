import { WorkerPool, workerScript } from '../workers/WorkerPool.js';
import type { PartJob, PartResult, RecordBatchResult, RecordJob, RecordWorkerData } from './convertRecords.js';
import { isShared } from './SharedBuffers.js';

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

/**
 * Record workers ({@link recordWorker}) in a {@link WorkerPool}: each normalises, maps and writes the batches of
 * records and the parts of inputs it is sent. A batch goes to the worker with the fewest batches in flight. Idle
 * workers do not keep the process alive; {@link close} ends them. A worker that fails fails its batches (and
 * later ones) with a `ToolkitError` (`internal`).
 */
export class RecordWorkerPool {
  private readonly pool: WorkerPool;

  constructor(data: RecordWorkerData, options: RecordWorkerPoolOptions = {}) {
    this.pool = WorkerPool.create({
      script: options.workerUrl ?? workerScript('recordWorker.js', 'pipeline', import.meta.url),
      workerData: data,
      workers: options.workers ?? 2,
      // A larger young generation: mapping allocates many short-lived objects (measured: about 20% less CPU than the
      // default). 24 MiB, not 32 or 64: with parts of 128 KiB, 100k records (N-Triples, 2 pairs, load 6), peak RSS
      // 246-254 against 288-303 MB; CPU 1.00x at 30k records (4 pairs, 0.87-1.06), 0.95-1.05x at 100k (load moved).
      // 64 against 32 had been 323 against 257 MB at 20k records; 16 cost 7% more CPU than 32.
      youngGenerationMb: 24,
      name: 'record worker',
    });
  }

  /** Number of workers. */
  get workers(): number {
    return this.pool.workers;
  }

  /** The fewest batches in flight of a worker (`Infinity` when none can take more). */
  get leastLoad(): number {
    return this.pool.leastLoad;
  }

  /** Batches sent and not answered yet. */
  get inFlight(): number {
    return this.pool.inFlight;
  }

  /** Sends a batch to the least busy worker; resolves with a result per job, in order, and the written text's bytes. */
  convert(jobs: RecordJob[]): Promise<RecordBatchResult> {
    return this.pool.send<RecordBatchResult>(
      { jobs },
      (msg) =>
        Array.isArray(msg.results) && msg.bytes instanceof Uint8Array
          ? { results: msg.results as RecordBatchResult['results'], bytes: msg.bytes }
          : undefined,
      { what: 'its results and bytes' },
    );
  }

  /**
   * Sends a part of an input to the least busy worker, its bytes shared (in
   * shared memory) or transferred (`part.bytes` is unusable here after);
   * resolves with the worker's {@link PartResult}, which gives the bytes back
   * as `input`.
   */
  convertPart(part: PartJob): Promise<PartResult> {
    return this.pool.send<PartResult>(
      { part },
      (msg) => {
        const answer = msg.part as PartResult | undefined;
        return answer &&
          answer.entries?.numbers instanceof Float64Array &&
          answer.bytes instanceof Uint8Array &&
          answer.input instanceof Uint8Array
          ? answer
          : undefined;
      },
      { transfer: isShared(part.bytes) ? [] : [part.bytes.buffer as ArrayBuffer], what: 'its results and bytes' },
    );
  }

  /** Ends the workers; batches in flight fail with `reason` (default: `aborted`, "the record workers were closed"). */
  close(reason?: Parameters<WorkerPool['close']>[0]): Promise<void> {
    return this.pool.close(reason);
  }
}
