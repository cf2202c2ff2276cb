import { SeededRandom, mixSeed } from '../sample/SeededRandom.js';
import type { FaultOptions } from './ServeOptions.js';

/** What happens to one request. */
export interface FaultDecision {
  /** Milliseconds to wait before answering. */
  latencyMs: number;
  /** Drop the connection without an answer. */
  reset: boolean;
  /** Answer with this status (500 or 503) instead. */
  fail?: 500 | 503;
  /** Answer 429 with Retry-After instead. */
  throttle: boolean;
  /** Cut a 200 body to this share of its length (0 < share < 1). */
  truncateAt?: number;
}

/**
 * Decides faults per request. Request `n` (0-based, in the order the server
 * received them) gets the generator seeded with `mix(seed, n)`, which draws,
 * in this order: reset, fail, 500-or-503, throttle, truncate, cut position.
 * So a run with the same seed and the same request order sees the same faults.
 */
export class FaultInjector {
  private count = 0;
  private readonly rng = new SeededRandom(0);

  constructor(private readonly options: FaultOptions = {}) {}

  /** Whether any fault is configured. */
  get active(): boolean {
    const o = this.options;
    return Boolean(o.latencyMs || o.failRate || o.throttleRate || o.truncateRate || o.resetRate);
  }

  /** The decision for the next request. */
  next(): FaultDecision {
    const o = this.options;
    const n = this.count++;
    this.rng.reseed(mixSeed(o.seed ?? 1, n));
    const r = this.rng;
    const reset = r.next() < (o.resetRate ?? 0);
    const failDraw = r.next() < (o.failRate ?? 0);
    const which = r.next() < 0.5 ? 500 : 503;
    const throttle = r.next() < (o.throttleRate ?? 0);
    const truncate = r.next() < (o.truncateRate ?? 0);
    const cut = 0.1 + r.next() * 0.8;
    const decision: FaultDecision = { latencyMs: o.latencyMs ?? 0, reset, throttle };
    if (failDraw) decision.fail = which;
    if (truncate) decision.truncateAt = cut;
    return decision;
  }
}
