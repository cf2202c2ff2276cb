/**
 * A ceiling on requests per second, shared by concurrent requests: each
 * `take()` waits for the next free slot, slots `1000 / rate` ms apart.
 */
export class RateLimiter {
  private nextSlot = 0;
  private readonly intervalMs: number;

  /**
   * @param rate requests per second (> 0)
   * @param sleep waits `ms` or until the signal aborts
   * @param now clock in ms. Defaults to `Date.now`.
   */
  constructor(
    rate: number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {
    this.intervalMs = 1000 / rate;
  }

  /** Resolves when a request may start. */
  async take(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.sleep(slot - now, signal);
  }
}
