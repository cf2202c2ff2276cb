import { distinctNote } from '../../pipeline/ConvertStats.js';
import { conflictLines } from '../conflictLines.js';
import type { ExportProgress, ExportSummary } from '../../export/exportOptions.js';
import { ProgressReporter, type ProgressReporterOptions } from './ProgressReporter.js';
import type { StatusLine } from './StatusLine.js';
import { formatCount as n } from './format.js';

/** Options of {@link ExportReporter}. */
export interface ExportReporterOptions extends Pick<ProgressReporterOptions, 'logIntervalMs' | 'now' | 'estimator'> {
  /** Where the bar is drawn and the lines written. */
  status: StatusLine;
}

/** Records of the query the export has been through: written, rejected, or dropped as a repeat of an earlier DOI. */
export function recordsDone(p: Pick<ExportProgress, 'counts'>): number {
  return p.counts.records + p.counts.rejects + p.counts.duplicates;
}

/**
 * Shows an export's progress on stderr: a bar redrawn in place on a terminal
 * (records / the query's total, rate, ETA, retries so far), timestamped
 * lines otherwise (at the first page, every few seconds and at each new date
 * window), and a one-line summary at the end. The total may come later than
 * the first page ({@link setTotal}: an export split into date windows learns
 * the query's total apart).
 */
export class ExportReporter {
  private readonly progressReporter: ProgressReporter;
  private total: number | null = null;

  constructor(private readonly options: ExportReporterOptions) {
    this.progressReporter = new ProgressReporter({ ...options, label: 'export', unit: 'records', logFirst: true });
  }

  /** The query's total, learnt apart from the pages. */
  setTotal(total: number): void {
    this.total = total;
  }

  /** Reports one page's progress. */
  progress(p: ExportProgress): void {
    this.total = p.total ?? this.total;
    this.progressReporter.update({
      done: recordsDone(p),
      total: this.total,
      elapsedMs: p.elapsedMs,
      extra: `retries ${p.counts.retries}`,
      ...(p.window ? { topic: `window ${p.window.from}..${p.window.to}` } : {}),
    });
  }

  /** Writes a warning on its own line. */
  warn(message: string): void {
    this.options.status.line(`warning: ${message}`);
  }

  /** Writes the final summary. */
  summary(s: ExportSummary, target: string): void {
    this.progressReporter.end();
    if (s.alreadyComplete) {
      this.options.status.line(`export: ${target} is already complete (${n(s.counts.records)} records); nothing to do`);
      return;
    }
    const c = s.counts;
    this.options.status.line(
      `export: ${n(c.records)} records, ${n(c.triples)} statements${distinctNote(c.triples, c.distinctTriples, c.distinctExact === false, n)} from ${n(c.pages)} pages to ${target} in ${(s.elapsedMs / 1000).toFixed(1)} s` +
        `${s.resumed ? ' (resumed)' : ''}; ${n(c.duplicates)} duplicates dropped, ${n(c.rejects)} rejects, ${n(c.retries)} retries` +
        (s.conflicts ? `, ${n(s.conflicts)} conflicts` : ''),
    );
    for (const line of conflictLines('export', s, ' (the first 100 are listed)')) this.options.status.line(line);
    // An empty result (since 2026 the service's "No data was found" 404) is a result: said, not an error.
    if (c.records + c.rejects + c.duplicates === 0)
      this.options.status.line(
        s.since !== undefined ? `export: nothing new since ${s.since}` : 'export: the query matches no records',
      );
  }
}
