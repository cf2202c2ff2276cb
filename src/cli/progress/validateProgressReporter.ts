import type { ValidateProgress } from '../../tasks/validateDump.js';
import { ProgressReporter } from './ProgressReporter.js';
import type { StatusLine } from './StatusLine.js';
import { formatCount as n } from './format.js';

/**
 * The `onProgress` of a validation on the CLI: a bar by the bytes of the
 * input read (compressed ones as stored; their total, rate and ETA), with the
 * records validated; timestamped lines off a terminal. `end` removes the bar.
 */
export function validateProgressReporter(ctx: { status: StatusLine }): {
  onProgress: (progress: ValidateProgress) => void;
  end: () => void;
} {
  const reporter = new ProgressReporter({ label: 'validate', status: ctx.status, unit: 'bytes' });
  return {
    onProgress: (p) =>
      reporter.update({
        done: p.bytesRead,
        total: p.totalBytes,
        elapsedMs: p.elapsedMs,
        extra: `${n(p.records)} records${p.notConforming > 0 ? ` (${n(p.notConforming)} not conforming)` : ''}`,
      }),
    end: () => reporter.end(),
  };
}
