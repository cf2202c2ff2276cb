import { ENDPOINTS, type Plan, type ServiceCompat } from '../contract/endpoints.js';
import type { Catalogue, CatalogueSource } from './Catalogue.js';

/** The plan of an API key: how many records a page may hold, which query fields it may use. */
export type KeyPlan = Plan;

export { SERVICE_COMPATS, type ServiceCompat } from '../contract/endpoints.js';

/** One API key the server accepts. */
export interface ApiKeySpec {
  key: string;
  /** Defaults to basic. */
  plan?: KeyPlan;
}

/** Injected faults (all off by default), decided per request by a seeded generator. */
export interface FaultOptions {
  /** Seed of the fault decisions. Defaults to 1. */
  seed?: number;
  /** Delay before every answer, in milliseconds. Defaults to 0. */
  latencyMs?: number;
  /** Share of requests answered 500 or 503 (half each). Defaults to 0. */
  failRate?: number;
  /** Share of requests answered 429 with `Retry-After`. Defaults to 0. */
  throttleRate?: number;
  /** Share of 200 answers whose body is cut mid-JSON (Content-Length of the cut body). Defaults to 0. */
  truncateRate?: number;
  /** Share of requests whose connection is dropped without an answer. Defaults to 0. */
  resetRate?: number;
}

/** Options of {@link createServer}. */
export interface ServeOptions {
  /**
   * The catalogue: a loaded {@link Catalogue}, a file (NDJSON or a JSON array
   * of records) or records. Defaults to the bundled sample catalogue
   * (`data/sample-catalogue.jsonl`, 300 generated records).
   */
  catalogue?: Catalogue | CatalogueSource;
  /**
   * Accepted keys: strings (`KEY` is basic, `KEY:premium` premium) or specs.
   * Defaults to the one key `sample` (premium) when neither this nor
   * `keysFile` is given.
   */
  apiKeys?: readonly (string | ApiKeySpec)[];
  /** A file of keys, one per line (`KEY` or `KEY:premium`; `#` comments). Defaults to none. */
  keysFile?: string;
  /** Requests per second allowed per key (a token bucket of that size); 0 means no limit. Defaults to 0. */
  rate?: number;
  /** `Retry-After` seconds sent with a 429 (rate limit or injected). Defaults to 1. */
  retryAfter?: number;
  /** Directory holding the vocabulary files (`<term>.jsonld`, `.nt`, `.ttl`, `.rdf`). Defaults to the package's `vocab/`. */
  vocabDir?: string;
  /** Path under which vocabulary terms are served. Defaults to `/vocab`. */
  vocabPath?: string;
  /** The `apiMessage` text. Defaults to "This JSON was provided by scholarly-rdf serve (a local copy of the metadata service)". */
  apiMessage?: string;
  /** Fault injection. Defaults to none. */
  faults?: FaultOptions;
  /** Longest `q` accepted, in characters. Defaults to 2000. */
  maxQueryLength?: number;
  /** Deepest nesting of parentheses and NOT in `q`. Defaults to 12. */
  maxQueryDepth?: number;
  /** How many recent query results (matching ids and facets) to keep for paging; 0 keeps none. Defaults to 64. */
  cacheSize?: number;
  /** Which year's service to answer as (see {@link ServiceCompat}). Defaults to `'2026'`. */
  compat?: ServiceCompat;
  /** Clock for the rate limiter, in milliseconds. Defaults to `Date.now`. */
  now?: () => number;
}

/** The key accepted when no keys are configured, with a premium plan. */
export const SAMPLE_API_KEY = 'sample';

/** Largest page per plan on the main endpoint (`/meta/v2/json`; each endpoint's are in `contract/endpoints.ts`). */
export const PLAN_PAGE_LIMITS: Readonly<Record<KeyPlan, number>> = ENDPOINTS['meta-v2'].pageSizes;
