/** Options of {@link RequestPacer}. */
export interface RequestPacerOptions {
  /** Most requests per second, whatever is learned (`--rate`). Defaults to no limit. */
  rate?: number;
  /** Clock in ms. Defaults to `Date.now`. */
  now?: () => number;
  /**
   * Clean time (ms) before a learned rate grows by a tenth; doubles (up to
   * 64 times this) each time a rate so grown draws a 429. Defaults to 5000.
   */
  patienceMs?: number;
}

/** A reserved start: when (ms on the pacer's clock) and how long to wait for it. */
export interface PacerSlot {
  at: number;
  waitMs: number;
}

/** Longest window (ms) of the 200s that measure the rate that drew a 429. */
const WINDOW_MS = 10_000;
/** The burst a service is taken to allow, in seconds of its rate (a token bucket of at most a second's worth). */
const BURST_S = 1;
/** A learned rate grows by this factor at a time. */
const GROWTH = 1.1;
/** A learned rate grows to at most this share of the rate that drew the last 429 before it waits to probe past it. */
const BELOW_CEILING = 0.9;
/** Slowest learned rate, requests per second. */
const MIN_RATE = 0.1;
/** The patience grows to at most this many times its start. */
const MAX_PATIENCE_FACTOR = 64;

/**
 * When a harvest's requests may start, shared by all of them: never more
 * than `rate` a second (`--rate`), never during a pause the service asked
 * for (a 429's `Retry-After` holds every request, not only the one that drew
 * it: the others would draw 429s too), and, once the service has answered
 * 429, never faster than a rate learned from it, the starts evenly spaced.
 *
 * The service says nothing of its limit before it is over it (no
 * `X-RateLimit-*` headers; only the 429 and its `Retry-After`), so the first
 * 429 is how it is found. A service that refills a token bucket of at most a
 * second's worth of its rate R lets through at most (1 + a) × R requests in
 * any a seconds; so the 200s answered since the harvest began or its last
 * pause ended (a seconds, at most 10) divided by 1 + a are at most R: that is
 * the rate kept from then on, starts evenly spaced (no bursts). The rate the
 * 200s came at is the "ceiling", the rate that drew the 429. A 429 on a
 * request sent at the learned rate cuts it the same way (429s of requests
 * sent before the cut, already on their way, do not). While the rate holds
 * starts back and no 429 comes for `patienceMs`, it grows by a tenth, up to
 * 0.9× the ceiling, then on past it a tenth at a time; a rate so grown that
 * draws a 429 doubles the patience. A 429 that asks for no wait
 * (`Retry-After: 0`) teaches no rate, nor one with fewer than two answers
 * before it (until a rate is learned; then it halves the rate). Pure
 * bookkeeping on an injectable clock.
 */
export class RequestPacer {
  /** 429s that set or lowered the learned rate. */
  cuts = 0;
  /** The learned rate (requests per second), when a 429 has taught one. */
  learned: number | undefined;
  /** The rate that drew the last 429 that taught one. */
  ceiling: number | undefined;
  private readonly now: () => number;
  private readonly userRate: number | undefined;
  private readonly minPatienceMs: number;
  private patienceMs: number;
  private nextSlot = 0;
  private pauseUntil = 0;
  /** Requests sent after a cut belong to a new epoch: 429s of requests sent before it do not cut again. */
  private epoch = 0;
  /** When the learned rate last changed (or the last 429 came). */
  private steadySince = 0;
  /** Whether the learned rate has grown since the last cut. */
  private grown = false;
  /** Whether the rate held a start back since the rate last changed. */
  private held = false;
  /** Answer times (ms) of the recent successes, oldest first. */
  private readonly successes: number[] = [];
  /** Start of the window that measures a rate: the first start, or the end of the last pause. */
  private since: number | undefined;

  constructor(options: RequestPacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.userRate = options.rate !== undefined && options.rate > 0 ? options.rate : undefined;
    this.patienceMs = this.minPatienceMs = Math.max(1, options.patienceMs ?? 5000);
  }

  /** The rate the starts keep now (requests per second), if any. */
  get rate(): number | undefined {
    if (this.learned === undefined) return this.userRate;
    return this.userRate === undefined ? this.learned : Math.min(this.userRate, this.learned);
  }

  /**
   * Reserves the next start: the ms to wait for it (0: now). A pause the
   * request already waited out (its own 429's `Retry-After`, ending at
   * `servedUntil`) does not hold it again.
   */
  reserve(servedUntil = 0): PacerSlot {
    const now = this.now();
    this.since ??= now;
    let slot = now;
    if (this.pauseUntil > servedUntil) slot = Math.max(slot, this.pauseUntil);
    const rate = this.rate;
    if (rate !== undefined) {
      if (this.nextSlot > slot) {
        slot = this.nextSlot;
        this.held = true;
      }
      this.nextSlot = slot + 1000 / rate;
    }
    return { at: slot, waitMs: slot - now };
  }

  /** The end of the pause the service last asked for (ms on the pacer's clock; a slot before it is to be taken again). */
  get pausedUntil(): number {
    return this.pauseUntil;
  }

  /** A request goes now: its epoch, for {@link pushback}. */
  send(): number {
    return this.epoch;
  }

  /** A request was answered 200. */
  succeeded(): void {
    const now = this.now();
    this.successes.push(now);
    this.forget(now);
    if (this.learned === undefined || now - this.steadySince < this.patienceMs) return;
    this.steadySince = now;
    if (!this.held) return; // the rate held nothing back: faster would not help
    this.held = false;
    const below = BELOW_CEILING * (this.ceiling ?? Infinity);
    // up to below the rate that drew the last 429, then past it a step at a time
    this.learned = this.learned < below ? Math.min(this.learned * GROWTH, below) : this.learned * GROWTH;
    this.grown = true;
  }

  /**
   * The service pushed back on a request sent in `epoch` with `status`,
   * asking for `pauseMs` (a `Retry-After`, or the backoff the retry policy
   * chose): every start waits that long; a 429 may teach or lower the rate.
   * Returns the end of the pause (the request's own `servedUntil`).
   */
  pushback(epoch: number, status: number, pauseMs: number): number {
    const now = this.now();
    const until = now + Math.max(0, pauseMs);
    this.pauseUntil = Math.max(this.pauseUntil, until);
    if (status !== 429 || pauseMs <= 0) return until;
    this.steadySince = Math.max(this.steadySince, this.pauseUntil);
    if (epoch !== this.epoch) {
      // sent before the rate was last cut: no new cut, but the window opens after this pause too
      this.since = Math.max(this.since ?? 0, this.pauseUntil);
      return until;
    }
    this.forget(now);
    // the 200s since the window opened (at most WINDOW_MS): a service refilling a bucket of at most
    // BURST_S seconds' worth let through at most (BURST_S + a) x its rate of them in a seconds
    const a = Math.max(0.05, Math.min(WINDOW_MS, now - (this.since ?? now)) / 1000);
    const answered = this.successes.filter((t) => t >= now - a * 1000).length;
    if (answered < 2 && this.learned === undefined) return until; // too few answers to tell a rate
    if (this.grown) this.patienceMs = Math.min(MAX_PATIENCE_FACTOR * this.minPatienceMs, this.patienceMs * 2);
    this.grown = false;
    this.held = false;
    this.ceiling = answered >= 2 ? answered / a : this.learned!;
    this.learned = Math.max(MIN_RATE, answered >= 2 ? answered / (BURST_S + a) : this.learned! / 2);
    this.cuts++;
    this.epoch++;
    this.since = Math.max(this.since ?? 0, this.pauseUntil);
    return until;
  }

  private forget(now: number): void {
    while (this.successes.length > 0 && this.successes[0]! <= now - WINDOW_MS) this.successes.shift();
  }
}
