/** Options of {@link ProgressTicker}. */
export interface ProgressTickerOptions {
  /** Least time between two reports, ms (the last one, {@link ProgressTicker.flush}, is always made). Defaults to 200. */
  intervalMs?: number;
  /** Clock, ms. Defaults to `performance.now`. */
  now?: () => number;
}

/**
 * Makes a task's progress reports at a bounded rate: `tick()` as often as
 * something moves (a chunk read, a record validated) calls `report` at most
 * every `intervalMs`, with the time since the ticker was made.
 */
export class ProgressTicker {
  private readonly now: () => number;
  private readonly started: number;
  private readonly intervalMs: number;
  private last = -Infinity;

  constructor(
    private readonly report: ((elapsedMs: number) => void) | undefined,
    options: ProgressTickerOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.intervalMs = options.intervalMs ?? 200;
  }

  /** Reports, unless the last report is more recent than the interval. */
  tick(): void {
    if (!this.report) return;
    const t = this.now();
    if (t - this.last < this.intervalMs) return;
    this.last = t;
    this.report(t - this.started);
  }

  /** Reports now (at the end of a task or of one of its inputs). */
  flush(): void {
    if (!this.report) return;
    const t = this.now();
    this.last = t;
    this.report(t - this.started);
  }
}
