/**
 * A token bucket per key: `rate` requests per second, bursts up to
 * `max(1, rate)`. `take()` answers 0 when the request may go, else the
 * seconds to wait (rounded up, at least 1) for `Retry-After`.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for `key`; returns 0 or the seconds to wait. */
  take(key: string): number {
    if (!(this.rate > 0)) return 0;
    const capacity = Math.max(1, this.rate);
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }
}
