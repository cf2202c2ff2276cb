import type { RequestObserver } from './ApiClientOptions.js';

/** Options of {@link ConcurrencyController}. */
export interface ConcurrencyControllerOptions {
  /** A fixed number of requests in flight (`--concurrency N`): the controller never adapts. Defaults to none (adaptive). */
  fixed?: number;
  /** Requests in flight when adapting starts. Defaults to 2. */
  initial?: number;
  /** Most requests in flight when adapting. Defaults to 32. */
  max?: number;
  /**
   * Clean answers needed at a level before the limit grows past the level
   * the service last pushed back at (429, quota 403 or 5xx), one level at a
   * time. It doubles (up to 1024) when a level so tried draws a 429 or 403,
   * and halves back (not below this) when one holds. Defaults to 8.
   */
  patience?: number;
}

/** One request counted by a controller, from its launch to its end. */
export interface RequestTicket {
  /** The controller's epoch when the request went: a pushback halves the limit once per epoch. */
  readonly epoch: number;
  /** Whether the service pushed back on this request (any try). */
  pushedBack: boolean;
  /** Whether the client's pacing (`rate`, a pause a 429 asked for, a learned rate) held this request back (any try). */
  rateHeld: boolean;
}

/** A request launched through {@link ConcurrencyController.track}. */
export interface TrackedRequest<T> {
  readonly promise: Promise<T>;
  /** Whether the request has ended (answered or failed). */
  readonly settled: boolean;
}

/** Default start of an adaptive harvest's concurrency. */
export const DEFAULT_INITIAL_CONCURRENCY = 2;
/** Default ceiling of an adaptive harvest's concurrency. */
export const DEFAULT_MAX_CONCURRENCY = 32;
const MAX_PATIENCE = 1024;

/**
 * How many requests a harvest keeps in flight, shared by its pages and date
 * window probes. Adaptive (the default) it starts at 2 and grows by one each
 * time the harvest has to wait for an answer while the limit is what holds
 * requests back, unless the client's pacing (`rate`, a 429's pause, the rate
 * learned from 429s: see `RequestPacer`) held back a request
 * now in flight (more requests would only queue there). On a pushback (429,
 * a quota 403, or a 5xx) it halves, once per round of requests, grows back
 * quickly to below the level that drew the pushback, and past it one level
 * at a time, each after `patience` clean answers (more patience after a level
 * so tried drew a 429: a service's rate limit is probed more and more
 * rarely). Fixed, it keeps the given limit. Pure bookkeeping driven by
 * events: no clock.
 */
export class ConcurrencyController {
  /** Requests in flight now. */
  active = 0;
  /** Pushbacks that halved the limit so far. */
  halvings = 0;
  /** The highest limit so far. */
  peak: number;
  private current: number;
  private readonly adaptive: boolean;
  private readonly max: number;
  private epoch = 0;
  /** Growth past this level waits for `patience` clean answers. */
  private ceiling = Infinity;
  private patience: number;
  private readonly minPatience: number;
  /** Whether the current level was reached past the ceiling and has not yet held for `patience` answers. */
  private probing = false;
  private clean = 0;
  /** Requests in flight that the pacing held back. */
  private rateHeld = 0;

  constructor(options: ConcurrencyControllerOptions = {}) {
    this.adaptive = options.fixed === undefined;
    this.max = Math.max(1, Math.floor(options.max ?? DEFAULT_MAX_CONCURRENCY));
    this.current = this.adaptive
      ? Math.min(this.max, Math.max(1, Math.floor(options.initial ?? DEFAULT_INITIAL_CONCURRENCY)))
      : Math.max(1, Math.floor(options.fixed!));
    this.patience = this.minPatience = Math.max(1, options.patience ?? 8);
    this.peak = this.current;
  }

  /** Requests allowed in flight at once now. */
  get limit(): number {
    return this.current;
  }

  /** Whether one more request ahead of need fits in the limit. */
  hasRoom(): boolean {
    return this.active < this.current;
  }

  /** Counts a request as in flight. */
  begin(): RequestTicket {
    this.active++;
    return { epoch: this.epoch, pushedBack: false, rateHeld: false };
  }

  /** Counts a request as ended. */
  end(ticket: RequestTicket): void {
    this.active--;
    if (ticket.rateHeld) this.rateHeld--;
    if (ticket.pushedBack) return;
    this.clean++;
    if (this.probing && this.clean >= this.patience) {
      // the level tried held: the next one is tried sooner
      this.probing = false;
      this.patience = Math.max(this.minPatience, this.patience / 2);
    }
  }

  /**
   * The service pushed back on the ticket's request with `status`: halves the
   * limit, once for the requests of one epoch. A 429 or 403 (a rate limit or
   * quota) on a level being tried also doubles the patience; a 5xx (trouble
   * that may not be the harvest's doing) does not.
   */
  pushback(ticket: RequestTicket, status = 429): void {
    ticket.pushedBack = true;
    if (!this.adaptive || ticket.epoch !== this.epoch) return;
    this.epoch++;
    this.halvings++;
    if (this.probing && status < 500) this.patience = Math.min(MAX_PATIENCE, this.patience * 2);
    this.probing = false;
    this.ceiling = this.current;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.clean = 0;
  }

  /** The client's pacing holds the ticket's request back: while it is in flight, the rate, not the concurrency, bounds the harvest. */
  rateWait(ticket: RequestTicket): void {
    if (ticket.rateHeld) return;
    ticket.rateHeld = true;
    this.rateHeld++;
  }

  /** The harvest waited for an answer of a request in flight (it waits on the network): grows the limit when that helps. */
  waited(): void {
    if (!this.adaptive || this.rateHeld > 0 || this.active < this.current || this.current >= this.max) return;
    if (this.current + 1 < this.ceiling) {
      this.current++;
    } else if (this.clean >= this.patience) {
      this.probing = true;
      this.current++;
      this.ceiling = this.current + 1;
      this.clean = 0;
    }
    this.peak = Math.max(this.peak, this.current);
  }

  /** The events of one request, for the client. */
  observer(ticket: RequestTicket): RequestObserver {
    return { onPushback: (status) => this.pushback(ticket, status), onRateWait: () => this.rateWait(ticket) };
  }

  /** Launches a request counted in flight until it ends; a rejection is left to whoever awaits it. */
  track<T>(request: (observer: RequestObserver) => Promise<T>): TrackedRequest<T> {
    const ticket = this.begin();
    let settled = false;
    const promise = request(this.observer(ticket)).finally(() => {
      settled = true;
      this.end(ticket);
    });
    promise.catch(() => undefined); // observed when awaited, or dropped
    return {
      promise,
      get settled() {
        return settled;
      },
    };
  }

  /** The answer of a tracked request; notes a wait when it has not come yet. */
  answer<T>(request: TrackedRequest<T>): Promise<T> {
    if (!request.settled) this.waited();
    return request.promise;
  }
}
