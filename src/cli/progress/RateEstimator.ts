/** Options of {@link RateEstimator}. */
export interface RateEstimatorOptions {
  /** Half-life of the weights of past progress, ms: what was done this long ago weighs half. Defaults to 15000. */
  halfLifeMs?: number;
  /** No ETA before this much time has passed since the first sample, ms. Defaults to 5000. */
  warmupMs?: number;
  /** No ETA before this many samples. Defaults to 3. */
  warmupSamples?: number;
}

/**
 * The rate of a long run and its ETA, steady enough to be read: an
 * exponentially weighted average, the units done and the time taken each
 * summed with weights that halve every `halfLifeMs` (units / time: a burst of
 * samples, pages fetched two at a time, moves it only by what it brings).
 * The clock starts at the first sample: what came before (a server starting,
 * shapes loading, a first slow page) is not in it. No ETA is given during a
 * warm-up: the first samples say little.
 */
export class RateEstimator {
  private readonly halfLifeMs: number;
  private readonly warmupMs: number;
  private readonly warmupSamples: number;
  private first: { t: number; done: number } | undefined;
  private last: { t: number; done: number } | undefined;
  private samples = 0;
  /** Units done, weighted by age. */
  private units = 0;
  /** Time taken, weighted by age. */
  private time = 0;

  constructor(options: RateEstimatorOptions = {}) {
    this.halfLifeMs = options.halfLifeMs ?? 15_000;
    this.warmupMs = options.warmupMs ?? 5000;
    this.warmupSamples = options.warmupSamples ?? 3;
  }

  /** Adds a sample: `done` units at `elapsedMs` (any clock that only moves forward). */
  sample(elapsedMs: number, done: number): void {
    if (!this.first || !this.last) {
      this.first = this.last = { t: elapsedMs, done };
      this.samples = 1;
      return;
    }
    const dt = elapsedMs - this.last.t;
    if (dt <= 0) return; // counted with the next sample that takes time
    const decay = 2 ** (-dt / this.halfLifeMs);
    this.units = this.units * decay + (done - this.last.done);
    this.time = this.time * decay + dt;
    this.last = { t: elapsedMs, done };
    this.samples++;
  }

  /** Units per second; undefined before two samples. */
  get perSecond(): number | undefined {
    return this.time > 0 ? (Math.max(0, this.units) / this.time) * 1000 : undefined;
  }

  /** Milliseconds to reach `total` at this rate; undefined during the warm-up, without a total or without progress. */
  etaMs(total: number | null | undefined): number | undefined {
    const perSecond = this.perSecond;
    if (total === null || total === undefined || !perSecond || !this.warm()) return undefined;
    return (Math.max(0, total - this.last!.done) / perSecond) * 1000;
  }

  private warm(): boolean {
    return this.samples >= this.warmupSamples && this.last!.t - this.first!.t >= this.warmupMs;
  }
}
