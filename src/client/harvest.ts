import type { RawRecord } from '../record/types.js';
import { ApiClient, abortError } from './ApiClient.js';
import type { ApiClientOptions, SearchPage } from './ApiClientOptions.js';
import { ConcurrencyController } from './ConcurrencyController.js';
import { ENDPOINTS, pageSizeLimit } from '../contract/endpoints.js';
import { HttpError } from '../errors.js';
import {
  type DateWindow,
  type SplitUnit,
  extractDateBounds,
  fitsUnit,
  initialWindow,
  splitWindow,
  windowQuery,
} from './dateWindows.js';
import { DoiSet } from '../record/DoiSet.js';
import { DEFAULT_MAX_START, isLastPage, nextStartOf, reachableRecords, searchPages } from './searchPages.js';
import { WindowProbes } from './WindowProbes.js';
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
  /**
   * The page size in use when it is not the one asked for: lowered to what
   * the key's plan allows (a 403 "premium feature" on the page size, or
   * `plan`). A resume goes on with it.
   */
  pageSize?: number;
}

/** Options of {@link harvestPages} and {@link harvest}. */
export interface HarvestOptions extends ApiClientOptions {
  /** A client to use instead of building one from the other options. Defaults to `new ApiClient(options)`. */
  client?: ApiClient;
  /**
   * Records per page, 1 to 100 (20 on the open-access endpoint). A page size
   * the key's plan does not allow (basic keys: 25) is lowered to the plan's,
   * once, with a warning, and the harvest goes on. Defaults to the basic
   * plan's page size of the endpoint (25; 20 on the open-access endpoint).
   */
  pageSize?: number;
  /**
   * Requests in flight at once (pages and date window probes), fixed.
   * Defaults to adapting (see {@link ConcurrencyController}): from 2, growing
   * while the harvest waits on the network, halving when the service answers
   * 429 or 5xx, never growing while the pacing (`rate`, a 429's pause, the
   * rate learned from 429s: see `RequestPacer`) holds requests back.
   */
  concurrency?: number;
  /** Decides the requests in flight instead of `concurrency` (e.g. to watch it). Defaults to one made from `concurrency`. */
  controller?: ConcurrencyController;
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
  /** Those records, with their 1-based place in the page (what tells whether they said the same as the first: `export`). */
  duplicateRecords: { record: RawRecord; place: number }[];
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
  // A query the key's plan refuses is refused before any request when the plan is known.
  client.checkQuery(query);
  const asked = options.pageSize ?? ENDPOINTS[client.endpoint].pageSizes.basic;
  let pageSize = options.cursor?.pageSize ?? asked;
  // The most the endpoint serves the key's plan (either plan's when it is not known: 20 on the open-access endpoint).
  const limit = pageSizeLimit(client.endpoint, client.plan);
  if (pageSize > limit) {
    const who = client.plan ? `a ${client.plan} key` : 'any key';
    options.onWarning?.(
      `the ${client.endpoint} endpoint gives ${who} at most ${limit} records a page: harvesting ${limit} a page instead of ${pageSize}`,
    );
    pageSize = limit;
  }
  const seen = options.seen ?? new DoiSet();
  const controller =
    options.controller ??
    new ConcurrencyController(options.concurrency !== undefined ? { fixed: options.concurrency } : {});
  let cursor = options.cursor;
  let accepted = options.alreadyHarvested ?? 0;
  let total: number | undefined;
  for (;;) {
    try {
      const pages = harvestWithPageSize(query, {
        ...options,
        client,
        seen,
        controller,
        pageSize,
        alreadyHarvested: accepted,
        ...(cursor ? { cursor } : {}),
      });
      for await (const hp of pages) {
        accepted += hp.records.length;
        total = hp.total ?? total;
        cursor = pageSize === asked ? hp.cursor : { ...hp.cursor, pageSize };
        yield { ...hp, cursor: structuredClone(cursor), total };
      }
      return;
    } catch (err) {
      // A 403 on the page size: the largest page the key allows, once, and on from where the harvest stands.
      const allowed =
        err instanceof HttpError && err.details['limit'] === 'page-size' ? Number(err.details['pageSize']) : NaN;
      if (!(allowed < pageSize)) throw err;
      const said = (err as HttpError).details['serviceMessage'];
      options.onWarning?.(
        `the service refused ${pageSize} records a page as beyond the key's plan (403${said ? `: ${String(said)}` : ''}): harvesting ${allowed} a page, the most a basic key allows`,
      );
      pageSize = allowed;
    }
  }
}

/** {@link harvestPages} with one page size. */
async function* harvestWithPageSize(
  query: string,
  options: HarvestOptions & { client: ApiClient; seen: DoiSet; controller: ConcurrencyController; pageSize: number },
): AsyncGenerator<HarvestPage> {
  const { client, seen, controller, pageSize } = options;
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
  if (!cursor.windows && options.splitBy && cursor.start === 1)
    cursor = { windows: toWindows(), start: 1, done: false };

  /** Pages one query from `start`. */
  async function* pageQuery(
    q: string,
    window: DateWindow | undefined,
    start: number,
    firstPage: SearchPage | undefined,
    rest: DateWindow[] | undefined,
  ) {
    let windowTotal = firstPage && firstPage.records.length > 0 ? firstPage.total : undefined;
    for await (const page of searchPages(client, q, { start, pageSize, controller, maxStart, firstPage, signal })) {
      if (page.records.length > 0 && page.total !== undefined && page.total > (windowTotal ?? 0))
        windowTotal = page.total;
      if (total === undefined && !window && page.records.length > 0) total = page.total;
      const last = isLastPage(page, windowTotal, maxStart);
      const { records, duplicates, duplicateRecords } = newRecords(page.records, seen, maxRecords - accepted);
      accepted += records.length;
      const finished = accepted >= maxRecords;
      if (finished) cursor = { start: 1, done: true };
      else if (last) cursor = rest ? { windows: rest, start: 1, done: rest.length === 0 } : { start: 1, done: true };
      else cursor = { ...(rest ? { windows: [window!, ...rest] } : {}), start: nextStartOf(page), done: false };
      yield {
        records,
        duplicates,
        duplicateRecords,
        page,
        ...(window ? { window } : {}),
        cursor: structuredClone(cursor),
        total,
      } satisfies HarvestPage;
      if (finished || last) return;
    }
  }

  if (!cursor.windows) {
    let first: SearchPage | undefined;
    if (cursor.start === 1) {
      first = await controller.answer(
        controller.track((observer) => client.fetchPage({ q: query, s: 1, p: pageSize }, signal, observer)),
      );
      if (first.records.length > 0) total = first.total;
      if (total !== undefined && total > reach) {
        options.onWarning?.(
          `the query matches ${total} records, more than paging reaches (${reach}): harvesting it in date windows`,
        );
        cursor = { windows: toWindows(), start: 1, done: false };
      }
    }
    if (!cursor.windows) {
      yield* pageQuery(query, undefined, cursor.start, first, undefined);
      return;
    }
  }

  const probes = new WindowProbes(client, controller, (window) => windowQuery(bounds.rest, window), pageSize, signal);
  try {
    while (cursor.windows && cursor.windows.length > 0) {
      if (signal?.aborted) throw abortError(signal);
      const [window, ...rest] = cursor.windows as [DateWindow, ...DateWindow[]];
      let first: SearchPage | undefined;
      if (cursor.start === 1) {
        probes.ahead(cursor.windows);
        first = await probes.take(window);
        const verdict = judgeWindow(window, first, options.splitBy, reach);
        if (verdict.halves) cursor = { windows: [...verdict.halves, ...rest], start: 1, done: false };
        if (verdict.empty) {
          cursor = { windows: rest, start: 1, done: rest.length === 0 };
          yield {
            records: [],
            duplicates: 0,
            duplicateRecords: [],
            page: first,
            window,
            cursor: structuredClone(cursor),
            total,
          } satisfies HarvestPage;
        }
        if (verdict.halves || verdict.empty) continue;
        if (verdict.warning) options.onWarning?.(verdict.warning);
      }
      probes.ahead(rest);
      for await (const hp of pageQuery(windowQuery(bounds.rest, window), window, cursor.start, first, rest)) yield hp;
      if (cursor.done || accepted >= maxRecords) return;
      // paging ended without a last page (e.g. at maxStart): the window is done
      if (cursor.windows?.[0] === window) cursor = { windows: rest, start: 1, done: rest.length === 0 };
    }
  } finally {
    probes.close();
  }
}

/** What a window's probe says: it has no records, it is to be halved, or it is to be paged (with a warning when one day is deeper than paging reaches). */
function judgeWindow(
  window: DateWindow,
  probe: SearchPage,
  splitBy: SplitUnit | undefined,
  reach: number,
): { empty?: true; halves?: [DateWindow, DateWindow]; warning?: string } {
  const windowTotal = probe.records.length > 0 ? (probe.total ?? 0) : 0;
  if (windowTotal === 0) return { empty: true };
  if (fitsUnit(window, splitBy) && windowTotal <= reach) return {};
  const halves = splitWindow(window);
  if (halves) return { halves };
  return {
    warning: `${window.from}: ${windowTotal} records on one day, more than paging reaches (${reach}); ${windowTotal - reach} cannot be harvested`,
  };
}

/** The records of a page not in `seen` (adding their DOIs), at most `room` of them, and those dropped as seen. */
function newRecords(
  page: RawRecord[],
  seen: DoiSet,
  room: number,
): Pick<HarvestPage, 'records' | 'duplicates' | 'duplicateRecords'> {
  const records: RawRecord[] = [];
  const duplicateRecords: HarvestPage['duplicateRecords'] = [];
  for (let i = 0; i < page.length; i++) {
    if (records.length >= room) break;
    const record = page[i]!;
    // The DOI the normaliser will give the record, compared by its key: records that map to one work are one.
    const doi = sentRecordDoi(record);
    if (doi !== undefined && !seen.add(doi)) {
      duplicateRecords.push({ record, place: i + 1 });
      continue;
    }
    records.push(record);
  }
  return { records, duplicates: duplicateRecords.length, duplicateRecords };
}

/** Every new record of a query, in order (see {@link harvestPages}). */
export async function* harvest(query: string, options: HarvestOptions = {}): AsyncGenerator<RawRecord> {
  for await (const page of harvestPages(query, options)) yield* page.records;
}
