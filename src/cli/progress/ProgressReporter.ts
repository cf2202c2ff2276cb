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
    this.options.status.line(
      `${timestamp(t)} ${this.options.label}: ${this.figures(u, false)}${u.topic ? `  ${u.topic}` : ''}`,
    );
  }

  /** Removes the bar (before the summary). */
  end(): void {
    this.options.status.clear();
  }

  /**
   * The bar and its figures, fitted to the terminal: what does not fit goes
   * first the bar, then the rate, then the ETA, so that the figures after them
   * (`loaded`, `retries`) stay in sight; only then is the line cut.
   */
  private barLine(u: ProgressUpdate): string {
    const room = this.options.status.width;
    const [amount, rate, eta, extra] = this.parts(u, true);
    const figures = [amount, rate, eta, extra].filter((p) => p !== undefined).join('  ');
    if (u.total && figures.length + 3 + 10 <= room) {
      const width = Math.min(40, room - figures.length - 3);
      const filled = Math.round(Math.min(1, u.done / u.total) * width);
      return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${figures}`;
    }
    for (const fewer of [
      [amount, rate, eta, extra],
      [amount, eta, extra],
      [amount, extra],
    ]) {
      const line = fewer.filter((p) => p !== undefined).join('  ');
      if (line.length <= room) return line;
    }
    return [amount, extra].filter((p) => p !== undefined).join('  ');
  }

  /** `12/30 records 40%  3.1 rec/s  ETA 0:06  retries 0`; the unknown ETA is `--:--` on the bar, left out of a plain line. */
  private figures(u: ProgressUpdate, bar: boolean): string {
    return this.parts(u, bar)
      .filter((p) => p !== undefined)
      .join('  ');
  }

  /** The figures of a line: the amount done, the rate, the ETA and the command's own (each undefined when there is none). */
  private parts(u: ProgressUpdate, bar: boolean): [string, string | undefined, string | undefined, string | undefined] {
    const bytes = this.options.unit === 'bytes';
    const amount = (x: number) => (bytes ? formatBytes(x) : formatCount(x));
    const total = u.total !== null ? `/${amount(u.total)}` : '';
    const percent = u.total ? ` ${Math.min(100, Math.floor((u.done / u.total) * 100))}%` : '';
    const done = `${amount(u.done)}${total}${bytes ? '' : ' records'}${percent}`;
    const perSecond = this.rate.perSecond;
    const rate =
      perSecond === undefined ? undefined : bytes ? `${formatBytes(perSecond)}/s` : `${perSecond.toFixed(1)} rec/s`;
    const etaMs = this.rate.etaMs(u.total);
    const eta = etaMs !== undefined ? `ETA ${formatDuration(etaMs)}` : bar && u.total ? 'ETA --:--' : undefined;
    return [done, rate, eta, u.extra || undefined];
  }
}
