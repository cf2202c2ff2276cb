import { RateEstimator, type RateEstimatorOptions } from './RateEstimator.js';
import type { StatusLine } from './StatusLine.js';
import { formatBytes, formatCount, formatDuration, timestamp } from './format.js';

/** Options of {@link ProgressReporter}. */
export interface ProgressReporterOptions {
  /** The name that starts a plain line (`export`, `validate`, `load`). */
  label: string;
  /** Where the bar is drawn and the lines written. */
  status: StatusLine;
  /** What `done` and `total` count: records, or bytes (of the input). */
  unit: 'records' | 'bytes';
  /** Least time between two plain lines (off a terminal), ms. Defaults to 5000. */
  logIntervalMs?: number;
  /** Write a plain line at the first update (the export: its first page brings the total). Defaults to false: the first after `logIntervalMs`. */
  logFirst?: boolean;
  /** Least time between two redraws of the bar, ms. Defaults to 100. */
  drawIntervalMs?: number;
  /** Clock for the throttles and the timestamps of plain lines, ms since the epoch. Defaults to `Date.now`. */
  now?: () => number;
  /** Smoothing of the rate and ETA. Defaults to those of {@link RateEstimator}. */
  estimator?: RateEstimatorOptions;
}

/** One report of a long run. */
export interface ProgressUpdate {
  /** Units done (records, bytes read). */
  done: number;
  /** Units in all, when known. */
  total: number | null;
  /** When, on the run's clock, ms (the rate's time base). */
  elapsedMs: number;
  /** More figures, after the ETA (`retries 0`, `1,234 records`). Defaults to none. */
  extra?: string;
  /** A plain line is also written when this changes (the export's date window). Defaults to none. */
  topic?: string;
  /** Draw or write now, whatever the throttles say (a bar is also drawn when `done` reaches `total`). Defaults to false. */
  force?: boolean;
}

/**
 * Shows the progress of a long run on stderr: on a terminal a bar redrawn in
 * place (done/total, percentage, rate, ETA, more figures), otherwise a plain
 * line with a timestamp every few seconds (percentage and ETA when known).
 */
export class ProgressReporter {
  private readonly rate: RateEstimator;
  private readonly now: () => number;
  private readonly startedAt: number;
  private lastLog: number;
  private lastDraw = -Infinity;
  private lastTopic: string | undefined;

  constructor(private readonly options: ProgressReporterOptions) {
    this.rate = new RateEstimator(options.estimator);
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.lastLog = options.logFirst ? -Infinity : this.startedAt;
  }

  /** Reports one sample. */
  update(u: ProgressUpdate): void {
    this.rate.sample(u.elapsedMs, u.done);
    const t = this.now();
    if (this.options.status.tty) {
      const complete = u.total !== null && u.done >= u.total;
      if (!u.force && !complete && t - this.lastDraw < (this.options.drawIntervalMs ?? 100)) return;
      this.lastDraw = t;
      this.options.status.draw(this.barLine(u));
      return;
    }
    const topicChanged = u.topic !== undefined && u.topic !== this.lastTopic;
    this.lastTopic = u.topic;
    if (!u.force && !topicChanged && t - this.lastLog < (this.options.logIntervalMs ?? 5000)) return;
    this.lastLog = t;
    this.options.status.line(`${timestamp(t)} ${this.options.label}: ${this.figures(u, false)}${u.topic ? `  ${u.topic}` : ''}`);
  }

  /** Removes the bar (before the summary). */
  end(): void {
    this.options.status.clear();
  }

  /** The bar and its figures, fitted to the terminal. */
  private barLine(u: ProgressUpdate): string {
    const figures = this.figures(u, true);
    if (!u.total) return figures;
    const width = Math.max(10, Math.min(40, this.options.status.width - figures.length - 3));
    const filled = Math.round(Math.min(1, u.done / u.total) * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${figures}`;
  }

  /** `12/30 records 40%  3.1 rec/s  ETA 0:06  retries 0`; the unknown ETA is `--:--` on the bar, left out of a plain line. */
  private figures(u: ProgressUpdate, bar: boolean): string {
    const bytes = this.options.unit === 'bytes';
    const amount = (x: number) => (bytes ? formatBytes(x) : formatCount(x));
    const total = u.total !== null ? `/${amount(u.total)}` : '';
    const percent = u.total ? ` ${Math.min(100, Math.floor((u.done / u.total) * 100))}%` : '';
    const parts = [`${amount(u.done)}${total}${bytes ? '' : ' records'}${percent}`];
    const perSecond = this.rate.perSecond;
    if (perSecond !== undefined) parts.push(bytes ? `${formatBytes(perSecond)}/s` : `${perSecond.toFixed(1)} rec/s`);
    const eta = this.rate.etaMs(u.total);
    if (eta !== undefined) parts.push(`ETA ${formatDuration(eta)}`);
    else if (bar && u.total) parts.push('ETA --:--');
    if (u.extra) parts.push(u.extra);
    return parts.join('  ');
  }
}
