import type { ApiClient } from './ApiClient.js';
import type { SearchPage } from './ApiClientOptions.js';
import { ConcurrencyController, type TrackedRequest } from './ConcurrencyController.js';
import { abortError } from '../abort.js';

/** Options of {@link searchPages}. */
export interface SearchPagesOptions {
  /** 1-based position of the first record wanted. Defaults to 1. */
  start?: number;
  /** Records per page (`p`), 1 to 100; basic keys allow 25. Defaults to 25. */
  pageSize?: number;
  /** Pages in flight at once (fetched ahead while earlier pages are consumed). Defaults to 2. */
  concurrency?: number;
  /**
   * Decides how many requests are in flight, shared with other requests of a
   * harvest, and adapts it (see {@link ConcurrencyController}); replaces
   * `concurrency`. Defaults to a fixed controller of `concurrency`.
   */
  controller?: ConcurrencyController;
  /** Largest `s` the service serves; pages starting later are not requested. Defaults to 10000. */
  maxStart?: number;
  /** A first page already fetched for `start` (so a probe is not fetched twice). Defaults to none. */
  firstPage?: SearchPage;
  /** Cancels the paging and the requests in flight. Defaults to none. */
  signal?: AbortSignal;
}

/** Default page size: the basic plan's maximum. */
export const DEFAULT_PAGE_SIZE = 25;
/** Default deepest `s` the client asks for. */
export const DEFAULT_MAX_START = 10_000;

/** The start of the page after `page`: `nextPage`'s `s` when sent, else `s + p` (1-based). */
export function nextStartOf(page: SearchPage): number {
  return page.nextStart ?? page.start + page.pageLength;
}

/**
 * Whether paging should stop after `page`: it had no records, or the next
 * start passes the total. `total` is the largest total seen on a page with
 * records: a page past the end says `total "0"`, which is not believed.
 */
export function isLastPage(page: SearchPage, total: number | undefined, maxStart: number): boolean {
  if (page.records.length === 0) return true;
  const next = nextStartOf(page);
  if (total !== undefined && next > total) return true;
  return next > maxStart;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The number of records that paging from s=1 with page size `p` can reach when `s` may be at most `maxStart`. */
export function reachableRecords(pageSize: number, maxStart: number): number {
  return (Math.floor((maxStart - 1) / pageSize) + 1) * pageSize;
}

/**
 * The pages of one query, in order, with up to `concurrency` requests in
 * flight (or as many as `controller` allows): while the caller handles page
 * k, pages k+1 ... are already being fetched (the next starts are `s + p`,
 * checked against each page's `nextPage`). Stops on an empty page, when `s`
 * passes the total, or at `maxStart`. An empty first page is yielded (it
 * carries the total).
 */
export async function* searchPages(
  client: ApiClient,
  query: string,
  options: SearchPagesOptions = {},
): AsyncGenerator<SearchPage> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const controller = options.controller ?? new ConcurrencyController({ fixed: options.concurrency ?? 2 });
  const maxStart = options.maxStart ?? DEFAULT_MAX_START;
  const outer = options.signal;
  const aborter = new AbortController();
  const onAbort = () => aborter.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  const signal = aborter.signal;
  const fetchPage = (s: number) =>
    controller.track((observer) => client.fetchPage({ q: query, s, p: pageSize }, signal, observer));
  const inFlight: { start: number; request: TrackedRequest<SearchPage> }[] = [];
  try {
    const first = options.firstPage ?? (await controller.answer(fetchPage(options.start ?? 1)));
    let total = first.records.length > 0 ? first.total : undefined;
    yield first;
    if (isLastPage(first, total, maxStart)) return;
    let expected = nextStartOf(first);
    let scheduleFrom = expected;
    const fill = (): boolean => {
      const before = inFlight.length;
      // the next page goes whatever the others in flight; pages after it while the limit has room
      while (
        (inFlight.length === 0 || controller.hasRoom()) &&
        scheduleFrom <= maxStart &&
        (total === undefined || scheduleFrom <= total)
      ) {
        inFlight.push({ start: scheduleFrom, request: fetchPage(scheduleFrom) });
        scheduleFrom += pageSize;
      }
      return inFlight.length > before;
    };
    for (;;) {
      if (outer?.aborted) throw abortError(outer);
      fill();
      const head = inFlight.shift();
      if (!head) return;
      if (head.start !== expected) {
        // the service's nextPage disagreed with s + p: drop the guesses and follow it
        inFlight.length = 0;
        scheduleFrom = expected;
        continue;
      }
      const page = await controller.answer(head.request);
      if (page.records.length > 0 && page.total !== undefined && page.total > (total ?? 0)) total = page.total;
      if (isLastPage(page, total, maxStart)) {
        if (page.records.length > 0) yield page;
        return;
      }
      expected = nextStartOf(page);
      if (fill()) await nextTurn(); // let fetch put the new requests on the wire before the caller's work blocks the loop
      yield page;
    }
  } finally {
    outer?.removeEventListener('abort', onAbort);
    if (inFlight.length > 0) aborter.abort(new Error('paging stopped'));
  }
}
