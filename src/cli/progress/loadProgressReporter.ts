import type { LoadProgress } from '../../tasks/loadDump.js';
import { ProgressReporter } from './ProgressReporter.js';
import type { StatusLine } from './StatusLine.js';
import { formatCount as n } from './format.js';

/**
 * The `onProgress` of a load on the CLI: a bar by the bytes of the input read
 * (their total, rate and ETA), with the triples read and loaded (acknowledged
 * by the store); timestamped lines off a terminal.
 */
export function loadProgressReporter(ctx: { status: StatusLine }): (progress: LoadProgress) => void {
  const reporter = new ProgressReporter({ label: 'load', status: ctx.status, unit: 'bytes' });
  return (p) =>
    reporter.update({
      done: p.bytesRead,
      total: p.totalBytes,
      elapsedMs: p.elapsedMs,
      extra: `${n(p.triplesRead)} triples read, ${n(p.triplesAcked)} loaded`,
    });
}
