import type { ApiFacet, RawRecord } from '../record/types.js';
import type { RequestOutcome, RetryPolicy, RetryPolicyOptions } from '../http/RetryPolicy.js';
import type { RequestPacer } from './RequestPacer.js';
import type { Endpoint, Plan } from '../contract/endpoints.js';

/** One retry the client made (for progress and logs; never carries the key). */
export interface RetryEvent {
  /** The try that failed (1-based). */
  attempt: number;
  delayMs: number;
  reason: string;
  /** The request URL without the key. */
  url: string;
}

/** Options of `ApiClient`. */
export interface ApiClientOptions {
  /** The API key, sent as `api_key`. Defaults to none (the service answers 401; the local sample service needs none). */
  apiKey?: string;
  /** The key is not a secret (the local sample service's `sample`): it is not removed from texts. Defaults to false. */
  keyIsPublic?: boolean;
  /** Base URL of the service. Defaults to `https://api.springernature.com`. */
  baseUrl?: string;
  /** Endpoint for searches (`'openaccess'`: open-access records only, 20 a page). Defaults to `'meta-v2'`. */
  endpoint?: Endpoint;
  /**
   * The key's plan, when known: with `'basic'` a query using a premium-only
   * field is refused before any request (code `plan-limit`, naming the field
   * and the basic field to use instead). Defaults to unknown (the service says).
   */
  plan?: Plan;
  /**
   * The `fetch` to use (inject a fake in tests). Defaults to the global
   * `fetch`, through the proxy that `HTTPS_PROXY`/`HTTP_PROXY` name unless
   * `NO_PROXY` covers the host (read at each request; see {@link proxyFetch}).
   */
  fetch?: typeof globalThis.fetch;
  /** Retry rules, or options for the default ones. Defaults to `new RetryPolicy()`. */
  retryPolicy?: RetryPolicy | RetryPolicyOptions;
  /** Most requests per second (a ceiling, whatever the pacing learns). Defaults to no limit. */
  rate?: number;
  /**
   * When requests may start (see {@link RequestPacer}): `rate`, the pauses a
   * 429's `Retry-After` asks of every request, and a rate learned from 429s.
   * Inject one to watch it. Defaults to `new RequestPacer({ rate })`.
   */
  pacer?: RequestPacer;
  /** Time limit of one request, body included, in ms. Defaults to 30000. */
  timeoutMs?: number;
  /** Waits `ms` or until `signal` aborts. Defaults to a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The clock (ms) that goes with `sleep`: the default pacer's and retry policy's, and the time of a request
   * (`onRequest`). With both, a harvest runs on a clock of its caller's (a test's virtual one). Defaults to `Date.now`.
   */
  clock?: () => number;
  /** Called before each retry. Defaults to none. */
  onRetry?: (event: RetryEvent) => void;
  /** Called after each request (each try) with what came back: `--verbose`. Defaults to none. */
  onRequest?: (event: RequestEvent) => void;
}

/** One request the client sent, and what came back (never carries the key). */
export interface RequestEvent {
  /** The URL without the key (`api_key` is left out). */
  url: string;
  /** The try (1-based). */
  attempt: number;
  /** The HTTP status; undefined when no answer came (a network failure). */
  status: number | undefined;
  /** `ok`, or what went wrong: an HTTP status, the network, a body that was not the JSON expected. */
  outcome: 'ok' | RequestOutcome['kind'];
  /** From sending to the end of the body, ms. */
  ms: number;
}

/** One page of search results, parsed (every number of the service's strings turned into a number). */
export interface SearchPage {
  /** The query as the service echoed it (or as sent). */
  query: string;
  /** 1-based start of the page as requested. */
  start: number;
  /** Page size as requested. */
  pageLength: number;
  /** `result[0].total` as a number; `undefined` when missing or not a number. Past the end the service says 0: do not trust it there. */
  total: number | undefined;
  /** The records of the page, as sent. */
  records: RawRecord[];
  /** Start of the next page according to `nextPage`, when the service sent one. */
  nextStart: number | undefined;
  /** The service's notice text (`apiMessage`). */
  apiMessage: string | undefined;
  /** The service answered the query's "no data" 404 (since 2026: a query with no hits): an empty page of total 0. */
  noData?: true;
  facets: ApiFacet[];
  /** The whole envelope as sent, with the key removed (`apiKey` dropped, `api_key` redacted in `nextPage`). */
  envelope: Record<string, unknown>;
}

/** Hears how one request goes (adaptive concurrency listens to it). */
export interface RequestObserver {
  /** The service pushed back on a try: 429, a 403 that is no plan limit (quota), or a 5xx. */
  onPushback?: (status: number) => void;
  /** The pacing (`rate`, a pause a 429 asked for, a learned rate) holds a try back for `ms` (told before the wait). */
  onRateWait?: (ms: number) => void;
}

/** Parameters of one search request. */
export interface PageRequest {
  q: string;
  /** 1-based start. */
  s: number;
  /** Page size. */
  p: number;
}
