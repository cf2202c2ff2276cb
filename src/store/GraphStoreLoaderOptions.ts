import type { RetryPolicy, RetryPolicyOptions } from '../http/RetryPolicy.js';
import type { LoadInput } from './LoadLog.js';
import type { StoreKind } from './storeEndpoints.js';
import type { StoreCredentials, StoreRequestEvent } from './StoreHttpClient.js';

/** Options of `GraphStoreLoader`. */
export interface GraphStoreLoaderOptions {
  /** The store's URL: Fuseki dataset, Virtuoso server, RDF4J repository, or (generic) the Graph Store URL. */
  endpoint: string;
  /** Which URL conventions `endpoint` follows ({@link storeEndpoints}). Defaults to `'fuseki'`. */
  store?: StoreKind;
  /**
   * The graph to load into. Defaults to the graph of the dump's dataset (a subject typed
   * `void:Dataset` or `dcat:Dataset` in the first chunk, + `/graph`), else `fallbackGraph`.
   */
  graph?: string;
  /** The graph when neither `graph` nor a dataset IRI is there (the CLI passes one derived from the file name). Defaults to none (an error). */
  fallbackGraph?: string;
  /** Empty the graph first (`DROP SILENT GRAPH`). Defaults to false (add to the graph). */
  replace?: boolean;
  /** Triples per request. Defaults to 50000. */
  chunkTriples?: number;
  /** The syntax of the chunks: `'ntriples'` or `'turtle'`. Defaults to `'ntriples'`. */
  chunkFormat?: 'ntriples' | 'turtle';
  /** Requests in flight at once (the next chunk is prepared meanwhile). Defaults to 1. */
  concurrency?: number;
  /** User and password (Basic or Digest, as the store asks). Defaults to anonymous. */
  credentials?: StoreCredentials;
  /** SPARQL Query endpoint instead of the store's convention (needed for the count with `generic`). Defaults to the convention. */
  queryEndpoint?: string;
  /** SPARQL Update endpoint instead of the store's convention. Defaults to the convention (`generic`: Graph Store DELETE). */
  updateEndpoint?: string;
  /** The load log (state file) recording acknowledged chunks. Defaults to `statePathOf`'s, else none (a load cannot be resumed). */
  statePath?: string;
  /** The load log of a load into `graph`, when `statePath` is not given (the graph may be known only after the first chunk). Defaults to none. */
  statePathOf?: (graph: string) => string;
  /** Told when `resume` finds no load log at its path (the load then starts from the beginning). Defaults to nothing. */
  onNothingToResume?: (statePath: string) => void;
  /** Continue the load recorded in `statePath` after its last acknowledged chunk. Defaults to false. */
  resume?: boolean;
  /** The input files, so that a resume of changed inputs is refused. Defaults to none. */
  inputs?: readonly LoadInput[];
  /** Check the graph's triple count at the end (needs a Query endpoint). Defaults to true. */
  checkCount?: boolean;
  /** The `fetch` to use. Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy or its options. Defaults to 5 retries, 0.5 s doubling with jitter, `Retry-After` up to 120 s. */
  retry?: RetryPolicy | RetryPolicyOptions;
  /** Waits between retries. Defaults to an abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Time limit of one request (each try) sending a chunk or emptying the graph, ms. Defaults to 600000. */
  timeoutMs?: number;
  /**
   * Time limit of a count, ms: a count that does not answer in it is not asked again; the load fails
   * (code `network`, `details.countTimedOut`) saying what was loaded and how to count by hand. Defaults to 120000.
   */
  countTimeoutMs?: number;
  /** Told of each retry. Defaults to nothing. */
  onRetry?: (event: { what: string; attempt: number; delayMs: number; reason: string }) => void;
  /** Told of each request sent to the store (chunks, the drop, the count; each try), with its answer. Defaults to nothing. */
  onRequest?: (event: StoreRequestEvent) => void;
  /** Told of each acknowledged chunk. Defaults to nothing. */
  onChunk?: (event: { chunk: number; triples: number; totalTriples: number }) => void;
  /** Cancels the load (the log keeps what was acknowledged). Defaults to none. */
  signal?: AbortSignal;
}
