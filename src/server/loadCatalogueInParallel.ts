import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ParseError, ToolkitError } from '../errors.js';
import { Catalogue } from './Catalogue.js';
import { catalogueIsArray } from './readCatalogueFile.js';
import type { CatalogueWorkerData, CatalogueWorkerResult } from './catalogueWorker.js';

/** Options of {@link loadCatalogueInParallel}. */
export interface LoadCatalogueOptions {
  /**
   * Threads that read and index parts of the file. Defaults to the available
   * parallelism, at most 4, when it is 4 or more, else 1 (on a 2-vCPU machine
   * two workers measured no faster than one thread).
   */
  workers?: number;
  /** Files smaller than this are read on the calling thread. Defaults to 32 MiB. */
  minBytesPerWorker?: number;
}

const WORKER_URL = new URL('./catalogueWorker.js', import.meta.url);

/**
 * Loads and indexes a catalogue file like `loadCatalogue`, reading parts of a
 * large NDJSON file on worker threads (one per core, at most 4, on machines
 * with 4 cores or more) and joining the parts. Falls back to the calling thread for JSON arrays, small files,
 * or when the worker script is not available (running from sources).
 */
export async function loadCatalogueInParallel(path: string, options: LoadCatalogueOptions = {}): Promise<Catalogue> {
  const minBytes = options.minBytesPerWorker ?? 32 * 1024 * 1024;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new ToolkitError(`cannot read the catalogue ${path}: ${(err as Error).message}`, 'io', { cause: err });
  }
  let ranges: [number, number][];
  try {
    const size = fstatSync(fd).size;
    const cores = availableParallelism();
    const wanted = options.workers ?? (cores >= 4 ? Math.min(4, cores) : 1);
    const workers = Math.max(1, Math.min(wanted, Math.floor(size / minBytes)));
    if (workers < 2 || catalogueIsArray(fd, size) || !existsSync(fileURLToPath(WORKER_URL)))
      return Catalogue.fromFile(path);
    ranges = splitAtLines(fd, size, workers);
  } finally {
    closeSync(fd);
  }
  const results = await Promise.all(ranges.map(([start, end]) => runWorker({ path, start, end })));
  const failed = results.findIndex((r) => !r.ok);
  if (failed >= 0) {
    const r = results[failed] as Extract<CatalogueWorkerResult, { ok: false }>;
    if (r.line !== undefined && r.reason !== undefined) {
      throw new ParseError(r.reason, path, linesBefore(path, ranges[failed]![0]) + r.line);
    }
    // a worker could not run: read on this thread (which reports any error of the file itself)
    return Catalogue.fromFile(path);
  }
  return Catalogue.fromParts(results.map((r) => (r as Extract<CatalogueWorkerResult, { ok: true }>).parts));
}

/** Byte ranges of about equal size that start at line starts. */
function splitAtLines(fd: number, size: number, parts: number): [number, number][] {
  const cuts = [0];
  const probe = Buffer.alloc(64 * 1024);
  for (let k = 1; k < parts; k++) {
    let at = Math.max(cuts[cuts.length - 1]!, Math.floor((size * k) / parts));
    for (;;) {
      const read = readSync(fd, probe, 0, probe.length, at);
      if (read === 0) {
        at = size;
        break;
      }
      const nl = probe.subarray(0, read).indexOf(10);
      if (nl >= 0) {
        at += nl + 1;
        break;
      }
      at += read;
    }
    if (at < size && at > cuts[cuts.length - 1]!) cuts.push(at);
  }
  cuts.push(size);
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++) ranges.push([cuts[i]!, cuts[i + 1]!]);
  return ranges;
}

/** Number of lines before byte `offset` (only for error messages). */
function linesBefore(path: string, offset: number): number {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    let lines = 0;
    for (let pos = 0; pos < offset;) {
      const read = readSync(fd, buf, 0, Math.min(buf.length, offset - pos), pos);
      if (read === 0) break;
      for (let i = 0; i < read; i++) if (buf[i] === 10) lines++;
      pos += read;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}

function runWorker(data: CatalogueWorkerData): Promise<CatalogueWorkerResult> {
  return new Promise((resolve) => {
    // flags only the main script can take (such as --input-type) would stop the worker;
    // without them, the worker inherits the process's flags
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, {
        workerData: data,
        ...(execArgv.length < process.execArgv.length ? { execArgv } : {}),
      });
    } catch (err) {
      resolve({ ok: false, message: err instanceof Error ? err.message : String(err) });
      return;
    }
    let settled = false;
    const settle = (r: CatalogueWorkerResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
      void worker.terminate();
    };
    worker.once('message', (r: CatalogueWorkerResult) => settle(r));
    worker.once('error', (err) => settle({ ok: false, message: err.message }));
    worker.once('exit', (code) => settle({ ok: false, message: `worker stopped with code ${code}` }));
  });
}
