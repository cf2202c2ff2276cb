import type { ConvertProgress } from '../../tasks/convertFiles.js';
import { ProgressReporter } from './ProgressReporter.js';
import type { StatusLine } from './StatusLine.js';
import { formatCount as n } from './format.js';

/**
 * The `onProgress` of a conversion on the CLI, as export's and validate's: a
 * bar by the bytes of the inputs read (their total, rate and ETA when their
 * size is known: not stdin), with the records and statements; timestamped
 * lines off a terminal. `end` removes the bar.
 */
export function convertProgressReporter(ctx: { status: StatusLine }): {
  onProgress: (progress: ConvertProgress) => void;
  end: () => void;
} {
  const reporter = new ProgressReporter({ label: 'convert', status: ctx.status, unit: 'bytes' });
  return {
    onProgress: (p) =>
      reporter.update({
        done: p.bytesRead,
        total: p.totalBytes,
        elapsedMs: p.elapsedMs,
        extra: `${n(p.records)} records${p.rejected > 0 ? ` (${n(p.rejected)} rejected)` : ''}, ${n(p.statements)} statements`,
      }),
    end: () => reporter.end(),
  };
}
