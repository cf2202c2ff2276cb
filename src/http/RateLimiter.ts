/**
 * A ceiling on requests per second, shared by concurrent requests: each
 * `reserve()` takes the next free slot, slots `1000 / rate` ms apart, and
 * says how long the request waits for it.
 */
export class RateLimiter {
  private nextSlot = 0;
  private readonly intervalMs: number;

  /**
   * @param rate requests per second (> 0)
   * @param now clock in ms. Defaults to `Date.now`.
   */
  constructor(
    rate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.intervalMs = 1000 / rate;
  }

  /** Takes the next free slot: the ms until it (0 when it is now). */
  reserve(): number {
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    return slot - now;
  }
}
