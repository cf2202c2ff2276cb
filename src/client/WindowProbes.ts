import type { ApiClient } from './ApiClient.js';
import type { SearchPage } from './ApiClientOptions.js';
import type { ConcurrencyController, TrackedRequest } from './ConcurrencyController.js';
import type { DateWindow } from './dateWindows.js';

/**
 * The first pages ("probes") of a harvest's date windows, fetched ahead and
 * side by side: the probes of the next windows go while the limit of the
 * controller has room, so halving a deep query into windows takes a round
 * trip per level of halving rather than one per window. Each probe is handed
 * out once, as the window's first page.
 */
export class WindowProbes {
  private readonly probes = new Map<string, TrackedRequest<SearchPage>>();
  private readonly aborter = new AbortController();
  private readonly onAbort = () => this.aborter.abort(this.outer?.reason);

  /**
   * @param queryOf the query of a window
   * @param outer cancels the probes
   */
  constructor(
    private readonly client: ApiClient,
    private readonly controller: ConcurrencyController,
    private readonly queryOf: (window: DateWindow) => string,
    private readonly pageSize: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    if (outer?.aborted) this.onAbort();
    else outer?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Sends the probes of the first windows of `windows` (no more of them than the limit) while the limit has room. */
  ahead(windows: readonly DateWindow[]): void {
    for (const window of windows.slice(0, this.controller.limit)) {
      if (!this.controller.hasRoom()) return;
      if (!this.probes.has(keyOf(window))) this.probes.set(keyOf(window), this.send(window));
    }
  }

  /** The first page of `window`: its probe, sent now if it was not sent ahead. */
  async take(window: DateWindow): Promise<SearchPage> {
    const key = keyOf(window);
    const probe = this.probes.get(key) ?? this.send(window);
    this.probes.delete(key);
    return this.controller.answer(probe);
  }

  /** Cancels the probes not handed out. */
  close(): void {
    this.outer?.removeEventListener('abort', this.onAbort);
    if (this.probes.size > 0) this.aborter.abort(new Error('harvest stopped'));
    this.probes.clear();
  }

  private send(window: DateWindow): TrackedRequest<SearchPage> {
    const q = this.queryOf(window);
    return this.controller.track((observer) =>
      this.client.fetchPage({ q, s: 1, p: this.pageSize }, this.aborter.signal, observer),
    );
  }
}

function keyOf(window: DateWindow): string {
  return `${window.from}/${window.to}`;
}
