import type { ExportProgress, ExportSummary } from './exportRdf.js';

/** Options of {@link ExportReporter}. */
export interface ExportReporterOptions {
  /** Writes text to the terminal or log (stderr). */
  write: (text: string) => void;
  /** Draw a progress bar (a terminal) instead of log lines. Defaults to false. */
  tty?: boolean;
  /** Terminal width for the bar. Defaults to 80. */
  columns?: number;
  /** Least time between two log lines (not the bar), in ms. Defaults to 2000. */
  logIntervalMs?: number;
  /** Clock. Defaults to `Date.now`. */
  now?: () => number;
}

const n = (x: number) => x.toLocaleString('en-US');

/** `h:mm:ss` or `m:ss`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The figures of a progress report: done, total, rate, ETA. Pure. */
export function progressFigures(p: ExportProgress): { done: number; total: number | null; rate: number; etaMs: number | null } {
  const done = p.counts.records + p.counts.rejects;
  const rate = p.elapsedMs > 0 ? (p.recordsThisRun / p.elapsedMs) * 1000 : 0;
  const total = p.total;
  const etaMs = total !== null && rate > 0 ? (Math.max(0, total - done) / rate) * 1000 : null;
  return { done, total, rate, etaMs };
}

/**
 * Shows an export's progress on stderr: a bar redrawn in place on a terminal
 * (records / total, rate, ETA, retries so far), plain log lines otherwise,
 * and a one-line summary at the end.
 */
export class ExportReporter {
  private lastLog = -Infinity;
  private drawn = false;
  private lastWindow = '';
  private readonly now: () => number;

  constructor(private readonly options: ExportReporterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Reports one page's progress. */
  progress(p: ExportProgress): void {
    const { done, total, rate, etaMs } = progressFigures(p);
    const totalText = total !== null ? `/${n(total)}` : '';
    const eta = etaMs !== null ? ` ETA ${formatDuration(etaMs)}` : '';
    const figures = `${n(done)}${totalText} records  ${rate.toFixed(1)} rec/s${eta}  retries ${p.counts.retries}`;
    if (this.options.tty) {
      const width = Math.max(10, Math.min(40, (this.options.columns ?? 80) - figures.length - 4));
      const ratio = total ? Math.min(1, done / total) : 0;
      const filled = Math.round(ratio * width);
      this.options.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${figures}\x1b[K`);
      this.drawn = true;
      return;
    }
    const window = p.window ? `${p.window.from}..${p.window.to}` : '';
    const t = this.now();
    if (t - this.lastLog < (this.options.logIntervalMs ?? 2000) && window === this.lastWindow) return;
    this.lastLog = t;
    this.lastWindow = window;
    this.options.write(`export: ${figures}${window ? `  window ${window}` : ''}\n`);
  }

  /** Writes a warning on its own line. */
  warn(message: string): void {
    this.clear();
    this.options.write(`warning: ${message}\n`);
  }

  /** Writes the final summary. */
  summary(s: ExportSummary, target: string): void {
    this.clear();
    if (s.alreadyComplete) {
      this.options.write(`export: ${target} is already complete (${n(s.counts.records)} records); nothing to do\n`);
      return;
    }
    const c = s.counts;
    this.options.write(
      `export: ${n(c.records)} records, ${n(c.triples)} statements from ${n(c.pages)} pages to ${target} in ${(s.elapsedMs / 1000).toFixed(1)} s` +
        `${s.resumed ? ' (resumed)' : ''}; ${n(c.duplicates)} duplicates dropped, ${n(c.rejects)} rejects, ${n(c.retries)} retries\n`,
    );
  }

  private clear(): void {
    if (this.drawn) {
      this.options.write('\r\x1b[K');
      this.drawn = false;
    }
  }
}
