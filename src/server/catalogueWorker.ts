/**
 * Worker of {@link loadCatalogueInParallel}: reads and indexes one byte range
 * of an NDJSON catalogue and sends the result back as plain data (typed arrays
 * and chunk buffers transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ParseError } from '../errors.js';
import type { RawCatalogue } from './indexParts.js';
import { readCatalogueRange } from './readCatalogueFile.js';
import { transferables } from './transferables.js';

/** What the worker is given. */
export interface CatalogueWorkerData {
  path: string;
  start: number;
  end: number;
}

/** What the worker answers. */
export type CatalogueWorkerResult =
  { ok: true; parts: RawCatalogue } | { ok: false; message: string; line?: number; reason?: string };

if (parentPort) {
  const { path, start, end } = workerData as CatalogueWorkerData;
  let result: CatalogueWorkerResult;
  try {
    const parts = readCatalogueRange(path, start, end);
    result = { ok: true, parts };
    parentPort.postMessage(result, transferables(parts));
  } catch (err) {
    if (err instanceof ParseError) {
      const reason = err.message.replace(/^.*?:\d+(:\d+)?: /, '');
      result = { ok: false, message: err.message, reason, ...(err.line !== undefined ? { line: err.line } : {}) };
    } else {
      result = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    parentPort.postMessage(result);
  }
}
