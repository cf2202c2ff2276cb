import type { BulkLoadProgress } from '../../tasks/bulkLoad.js';
import type { LoadProgress } from '../../tasks/loadDump.js';
import type { UpsertBatchEvent } from '../../tasks/upsertDump.js';
import { ProgressReporter, type ProgressReporterOptions, type ProgressUpdate } from './ProgressReporter.js';
import type { StatusLine } from './StatusLine.js';
import { formatCount as n } from './format.js';

/** A callback of a task that draws its events as progress (`label`, `unit`) by `update`. */
function reporting<T>(
  ctx: { status: StatusLine },
  label: string,
  unit: ProgressReporterOptions['unit'],
  update: (event: T) => ProgressUpdate,
): (event: T) => void {
  const reporter = new ProgressReporter({ label, status: ctx.status, unit });
  return (event) => reporter.update(update(event));
}

/**
 * The `onProgress` of a load on the CLI: a bar by the bytes of the input read
 * (their total, rate and ETA), with the triples read and loaded (acknowledged
 * by the store); timestamped lines off a terminal.
 */
export function loadProgressReporter(ctx: { status: StatusLine }): (progress: LoadProgress) => void {
  return reporting<LoadProgress>(ctx, 'load', 'bytes', (p) => ({
    done: p.bytesRead,
    total: p.totalBytes,
    elapsedMs: p.elapsedMs,
    extra: `${n(p.triplesRead)} triples read, ${n(p.triplesAcked)} loaded`,
  }));
}

/** The `onProgress` of `load --bulk`: a bar by the bytes of the files done (as stored), with the files loaded, failed and loading. */
export function bulkProgressReporter(ctx: { status: StatusLine }): (progress: BulkLoadProgress) => void {
  return reporting<BulkLoadProgress>(ctx, 'bulk', 'bytes', (p) => ({
    done: p.bytesDone,
    total: p.totalBytes,
    elapsedMs: p.elapsedMs,
    extra: `${n(p.filesLoaded)}/${n(p.filesTotal)} files loaded${p.filesFailed > 0 ? `, ${n(p.filesFailed)} failed` : ''}, ${n(p.filesLoading)} loading`,
  }));
}

/** The `onBatch` of `load --upsert`: the record graphs replaced (or skipped by --resume), with the batch and the triples. */
export function upsertProgressReporter(ctx: { status: StatusLine }): (event: UpsertBatchEvent) => void {
  return reporting<UpsertBatchEvent>(ctx, 'upsert', 'records', (e) => ({
    done: e.totalGraphs,
    total: null,
    elapsedMs: e.elapsedMs,
    extra: `batch ${n(e.batch)}${e.skipped ? ' (done before)' : ''}, ${n(e.totalTriples)} triples`,
  }));
}
