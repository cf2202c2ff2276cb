import type { RawRecord } from '../record/types.js';
import { ApiClient, abortError, type ApiClientOptions, type SearchPage } from './ApiClient.js';
import { type DateWindow, type SplitUnit, extractDateBounds, fitsUnit, initialWindow, splitWindow, windowQuery } from './dateWindows.js';
import { DoiSet } from './DoiSet.js';
import { DEFAULT_MAX_START, DEFAULT_PAGE_SIZE, isLastPage, nextStartOf, reachableRecords, searchPages } from './searchPages.js';
import { sentRecordDoi } from '../record/recordDoi.js';

/**
 * Where a harvest stands, as plain JSON (a resumable export stores it after
 * every page). Resuming from a cursor fetches exactly the pages not yet
 * handed out.
 */
export interface HarvestCursor {
  /** Date windows still to harvest, the current one first; absent while the query is harvested whole. */
  windows?: DateWindow[];
  /** 1-based start of the next page of the current window (or of the whole query). */
  start: number;
  /** Whether the harvest is finished. */
  done: boolean;
}

/** Options of {@link harvestPages} and {@link harvest}. */
export interface HarvestOptions extends ApiClientOptions {
  /** A client to use instead of building one from the other options. Defaults to `new ApiClient(options)`. */
  client?: ApiClient;
  /** Records per page, 1 to 100 (basic keys: 25). Defaults to 25. */
  pageSize?: number;
  /** Pages in flight at once. Defaults to 2. */
  concurrency?: number;
  /** Largest `s` the service serves; queries with more records than that reaches are split into date windows. Defaults to 10000. */
  maxStart?: number;
  /** Split the query into date windows of at most a year or a month. Defaults to none (split only when the query is too deep). */
  splitBy?: SplitUnit;
  /** Stop after this many new records (counting `alreadyHarvested`). Defaults to no limit. */
  maxRecords?: number;
  /** Records accepted before `cursor` (when resuming). Defaults to 0. */
  alreadyHarvested?: number;
  /** Where to start (from a saved state). Defaults to the beginning. */
  cursor?: HarvestCursor;
  /** DOIs already harvested; new ones are added. Defaults to an empty set. */
  seen?: DoiSet;
  /** "Today", for the end of the default date range. Defaults to now. */
  today?: Date;
  /** Called with warnings (e.g. a one-day window deeper than paging reaches). Defaults to none. */
  onWarning?: (message: string) => void;
  /** Cancels the harvest. Defaults to none. */
  signal?: AbortSignal;
}

/** One page of a harvest, after de-duplication. */
export interface HarvestPage {
  /** The page's records not seen before (by DOI as the normaliser reads it, compared by `doiKey`), in the service's order. */
  records: RawRecord[];
  /** Records of the page dropped as already seen. */
  duplicates: number;
  /** The page as the service sent it. */
  page: SearchPage;
  /** The date window of the page, when the query is split. */
  window?: DateWindow;
  /** Where to resume after this page. */
  cursor: HarvestCursor;
  /** The total of the whole query from its first page, when known. */
  total: number | undefined;
}

/**
 * Harvests every record of a query, page by page, in the service's order:
 * pipelined paging ({@link searchPages}), de-duplication by DOI, and date
 * windows when the query is deeper than paging reaches or `splitBy` is set
 * (each window probed with its first page and halved at year, month, then
 * day boundaries until it fits). Each yielded page carries the cursor to
 * resume after it.
 */
export async function* harvestPages(query: string, options: HarvestOptions = {}): AsyncGenerator<HarvestPage> {
  const client = options.client ?? new ApiClient(options);
  const seen = options.seen ?? new DoiSet();
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxStart = options.maxStart ?? DEFAULT_MAX_START;
  const reach = reachableRecords(pageSize, maxStart);
  const maxRecords = options.maxRecords ?? Infinity;
  const signal = options.signal;
  let accepted = options.alreadyHarvested ?? 0;
  let cursor: HarvestCursor = options.cursor ? structuredClone(options.cursor) : { start: 1, done: false };
  let total: number | undefined;
  const bounds = extractDateBounds(query);
  const toWindows = (): DateWindow[] => [initialWindow(bounds, options.today ?? new Date())];
  if (cursor.done || accepted >= maxRecords) return;
  if (!cursor.windows && options.splitBy && cursor.start === 1) cursor = { windows: toWindows(), start: 1, done: false };

  /** Pages one query from `start`; returns false when maxRecords stopped the harvest. */
  async function* pageQuery(q: string, window: DateWindow | undefined, start: number, firstPage: SearchPage | undefined, rest: DateWindow[] | undefined) {
    let windowTotal = firstPage && firstPage.records.length > 0 ? firstPage.total : undefined;
    for await (const page of searchPages(client, q, { start, pageSize, concurrency: options.concurrency, maxStart, firstPage, signal })) {
      if (page.records.length > 0 && page.total !== undefined && page.total > (windowTotal ?? 0)) windowTotal = page.total;
      if (total === undefined && !window && page.records.length > 0) total = page.total;
      const last = isLastPage(page, windowTotal, maxStart);
      const records: RawRecord[] = [];
      let duplicates = 0;
      for (const record of page.records) {
        if (accepted >= maxRecords) break;
        // The DOI the normaliser will give the record, compared by its key: records that map to one work are one.
        const doi = sentRecordDoi(record);
        if (doi !== undefined && !seen.add(doi)) {
          duplicates++;
          continue;
        }
        records.push(record);
        accepted++;
      }
      const finished = accepted >= maxRecords;
      if (finished) cursor = { start: 1, done: true };
      else if (last) cursor = rest ? { windows: rest, start: 1, done: rest.length === 0 } : { start: 1, done: true };
      else cursor = { ...(rest ? { windows: [window!, ...rest] } : {}), start: nextStartOf(page), done: false };
      yield { records, duplicates, page, ...(window ? { window } : {}), cursor: structuredClone(cursor), total } satisfies HarvestPage;
      if (finished || last) return;
    }
  }

  if (!cursor.windows) {
    let first: SearchPage | undefined;
    if (cursor.start === 1) {
      first = await client.fetchPage({ q: query, s: 1, p: pageSize }, signal);
      if (first.records.length > 0) total = first.total;
      if (total !== undefined && total > reach) {
        options.onWarning?.(`the query matches ${total} records, more than paging reaches (${reach}): harvesting it in date windows`);
        cursor = { windows: toWindows(), start: 1, done: false };
      }
    }
    if (!cursor.windows) {
      yield* pageQuery(query, undefined, cursor.start, first, undefined);
      return;
    }
  }

  while (cursor.windows && cursor.windows.length > 0) {
    if (signal?.aborted) throw abortError(signal);
    const [window, ...rest] = cursor.windows as [DateWindow, ...DateWindow[]];
    const q = windowQuery(bounds.rest, window);
    let first: SearchPage | undefined;
    if (cursor.start === 1) {
      first = await client.fetchPage({ q, s: 1, p: pageSize }, signal);
      const windowTotal = first.records.length > 0 ? (first.total ?? 0) : 0;
      if (windowTotal === 0) {
        cursor = { windows: rest, start: 1, done: rest.length === 0 };
        yield { records: [], duplicates: 0, page: first, window, cursor: structuredClone(cursor), total } satisfies HarvestPage;
        continue;
      }
      if (!fitsUnit(window, options.splitBy) || windowTotal > reach) {
        const halves = splitWindow(window);
        if (halves) {
          cursor = { windows: [...halves, ...rest], start: 1, done: false };
          continue;
        }
        options.onWarning?.(`${window.from}: ${windowTotal} records on one day, more than paging reaches (${reach}); ${windowTotal - reach} cannot be harvested`);
      }
    }
    for await (const hp of pageQuery(q, window, cursor.start, first, rest)) yield hp;
    if (cursor.done || accepted >= maxRecords) return;
    // paging ended without a last page (e.g. at maxStart): the window is done
    if (cursor.windows?.[0] === window) cursor = { windows: rest, start: 1, done: rest.length === 0 };
  }
}

/** Every new record of a query, in order (see {@link harvestPages}). */
export async function* harvest(query: string, options: HarvestOptions = {}): AsyncGenerator<RawRecord> {
  for await (const page of harvestPages(query, options)) yield* page.records;
}
