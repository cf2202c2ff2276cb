import { rerunAdvice } from './rerunAdvice.js';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ToolkitError, hideUrlSecrets } from '../errors.js';
import { recordGraphPattern } from '../mapping/recordGraph.js';
import { DEFAULT_BASE } from '../rdf/namespaces.js';
import { LoadLog, type LoadIdentity, type LoadInput } from '../store/LoadLog.js';
import { recordGraphBatches } from '../store/RecordGraphBatches.js';
import { storeEndpoints, type StoreKind } from '../store/storeEndpoints.js';
import { StoreHttpClient, type StoreHttpClientOptions } from '../store/StoreHttpClient.js';
import { upsertInputs } from '../store/upsertInputs.js';
import { sendUpsertBatch, type UpsertMethod, type UpsertTarget } from '../store/upsertRequests.js';
import { verifyBatchCounts } from '../store/upsertVerify.js';
import { loadLogPath } from './loadDump.js';
import { refuseFilesBeingExported } from './refuseFilesBeingExported.js';
import { refuseOverwritingInputs } from './refuseOverwritingInputs.js';

/** Options of {@link upsertDump}; the request options (credentials, fetch, retries, time limit of a request, `onRetry`, `onRequest`) are the store client's. */
export interface UpsertDumpOptions extends Pick<
  StoreHttpClientOptions,
  'credentials' | 'fetch' | 'retry' | 'sleep' | 'timeoutMs' | 'onRetry' | 'onRequest'
> {
  /** The delta dump's files (N-Quads or JSON-LD with record graphs, `.gz` too; any format with named graphs); `-` reads `stdin`. */
  files: readonly string[];
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** The store's URL: Fuseki dataset, Virtuoso server, RDF4J repository, or (generic) the Graph Store URL. No `user:password@`: give `credentials`. */
  endpoint: string;
  /** Which URL conventions `endpoint` follows. Defaults to `'fuseki'`. */
  store?: StoreKind;
  /** SPARQL Query endpoint instead of the store's convention (the counts). Defaults to the convention. */
  queryEndpoint?: string;
  /** SPARQL Update endpoint instead of the store's convention. Defaults to the convention. */
  updateEndpoint?: string;
  /** The base of the record graphs `<base>record/<doi>` (as given to convert or export). Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** How a batch is replaced ({@link UpsertMethod}). Defaults to `'put'` (a Graph Store `PUT` of each graph). */
  method?: UpsertMethod;
  /** Method `put`: requests in flight at once. Defaults to 1. */
  concurrency?: number;
  /** Most graphs per batch. Defaults to 200. */
  batchGraphs?: number;
  /** A batch closes after the graph that brings it to this many triples. Defaults to 50000. */
  batchTriples?: number;
  /**
   * The log of the batches done. Defaults to `<first file's name>.<key>.load-state.json` in `cwd` (the key
   * a hash of the files and the record graphs' pattern); none for stdin (such an upsert cannot be resumed).
   */
  statePath?: string;
  /** Skip the batches the log records as done. Defaults to false (start from the first batch). */
  resume?: boolean;
  /** Told when `resume` finds no log (the upsert then starts from the first batch). Defaults to nothing. */
  onNothingToResume?: (statePath: string) => void;
  /** Count the graphs of each batch after it is replaced (needs a Query endpoint). Defaults to true. */
  checkCount?: boolean;
  /** Upsert an input that an export is still writing. Defaults to false (refused, code `usage`). */
  ignoreExportLock?: boolean;
  /** Read the dump of an export that has not finished (its state says so, or a `.partial` file) as it is. Defaults to false (refused, code `usage`). */
  allowPartial?: boolean;
  /** The folder relative file names (and the default log) are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** Time limit of a batch's count, ms (not tried again: the upsert then fails, code `network`). Defaults to 120000. */
  countTimeoutMs?: number;
  /** Told of each batch done (or skipped by `resume`). Defaults to nothing. */
  onBatch?: (event: UpsertBatchEvent) => void;
  /** Cancels the upsert (the log keeps the batches done). Defaults to none. */
  signal?: AbortSignal;
}

/** A batch done or skipped: {@link UpsertDumpOptions.onBatch}. */
export interface UpsertBatchEvent {
  batch: number;
  graphs: number;
  triples: number;
  /** Whether an earlier run did it (`resume`). */
  skipped: boolean;
  /** Graphs and triples of the batches done so far, skipped ones included. */
  totalGraphs: number;
  totalTriples: number;
  /** Time since the upsert began, ms. */
  elapsedMs: number;
}

/** What an upsert did. */
export interface UpsertSummary {
  /** The Update endpoint, or (method `put`) the Graph Store URL, secrets hidden. */
  target: string;
  method: UpsertMethod;
  /** Graphs and distinct triples of the whole delta. */
  graphs: number;
  triples: number;
  /** Batches of the delta, and those an earlier run had done (`resume`). */
  batches: number;
  batchesSkipped: number;
  /** Graphs and triples replaced by this run. */
  graphsReplaced: number;
  triplesSent: number;
  /** Requests that replaced graphs, and that counted them, in this run (retries not included). */
  requests: number;
  countRequests: number;
  /** Whether every batch sent by this run was counted (and matched). */
  counted: boolean;
  durationMs: number;
  /** The log of batches done (none for stdin without `statePath`). */
  statePath: string | undefined;
}

const DEFAULT_COUNT_TIMEOUT_MS = 120_000;

/**
 * Upserts a delta dump into a store: each record graph (`<base>record/<doi>`, written by convert or export
 * with `--graph-per-record`) replaces its namesake, so a record that lost an author loses it in the store
 * too; records not in the delta stay as they are. The graphs go in batches ({@link recordGraphBatches}),
 * each replaced by one SPARQL Update (`DROP SILENT GRAPH` of each + one `INSERT DATA`) or a Graph Store
 * `PUT` per graph, then counted (each graph must hold the delta's distinct triples of it: code
 * `count-mismatch`), then noted in the log; `resume` skips the batches noted. Doing a batch twice is
 * harmless: replacing a graph by the same triples leaves the same graph. Memory holds one batch.
 */
export async function upsertDump(options: UpsertDumpOptions): Promise<UpsertSummary> {
  const started = performance.now();
  const plan = await planUpsert(options);
  const { signal } = options;
  const client = new StoreHttpClient(options);
  const log = plan.statePath ? await openLog(plan.statePath, plan.identity, options) : undefined;
  const skip = options.resume && log ? log.state.chunksAcked : 0;
  const source = upsertInputs(plan.paths, options.files, {
    ...(options.stdin ? { stdin: options.stdin } : {}),
    ...(signal ? { signal } : {}),
  });
  const batches = recordGraphBatches(source.quads, {
    base: plan.base,
    batchGraphs: plan.batchGraphs,
    batchTriples: plan.batchTriples,
    locate: source.locate,
  });
  const { method, statePath } = plan;
  const summary: UpsertSummary = {
    target: hideUrlSecrets(plan.target),
    method,
    graphs: 0,
    triples: 0,
    batches: 0,
    batchesSkipped: 0,
    graphsReplaced: 0,
    triplesSent: 0,
    requests: 0,
    countRequests: 0,
    counted: plan.counter !== undefined,
    durationMs: 0,
    statePath,
  };
  const counter = plan.counter && { client, ...plan.counter, ...(signal ? { signal } : {}) };
  try {
    await replaceAll();
  } catch (err) {
    // Says where the batches done are, and whether a resume goes on after some (the CLI's advice).
    if (!(err instanceof ToolkitError) || !statePath || err.details['statePath'] !== undefined) throw err;
    const progressSaved = skip + summary.graphsReplaced > 0;
    throw new ToolkitError(err.message + rerunAdvice(progressSaved, 'batches done'), err.code, {
      cause: err,
      details: { ...err.details, statePath, progressSaved },
    });
  }
  if (log) await log.markComplete();
  summary.durationMs = performance.now() - started;
  return summary;

  async function replaceAll(): Promise<void> {
    for await (const batch of batches) {
      const skipped = batch.index <= skip;
      if (!skipped) {
        summary.requests += await sendUpsertBatch(client, plan.store, batch, method, signal, plan.concurrency);
        summary.graphsReplaced += batch.graphs.length;
        summary.triplesSent += batch.triples;
        if (counter) {
          await verifyBatchCounts(counter, batch, statePath);
          summary.countRequests++;
        }
        if (log) await log.ack(batch.triples);
      }
      summary.batches++;
      summary.graphs += batch.graphs.length;
      summary.triples += batch.triples;
      if (skipped) summary.batchesSkipped++;
      options.onBatch?.({
        batch: batch.index,
        graphs: batch.graphs.length,
        triples: batch.triples,
        skipped,
        totalGraphs: summary.graphs,
        totalTriples: summary.triples,
        elapsedMs: performance.now() - started,
      });
    }
  }
}

/** What an upsert works with, its options checked: the files, the store's URLs, the log. */
interface UpsertPlan {
  paths: string[];
  base: string;
  method: UpsertMethod;
  target: string;
  store: UpsertTarget;
  counter: { queryEndpoint: string; timeoutMs: number } | undefined;
  batchGraphs: number;
  batchTriples: number;
  concurrency: number;
  statePath: string | undefined;
  identity: LoadIdentity;
}

/** Checks the options and works out the endpoints, the inputs and the log's path (nothing is sent). */
async function planUpsert(options: UpsertDumpOptions): Promise<UpsertPlan> {
  const { files } = options;
  if (files.length === 0) throw new ToolkitError('nothing to upsert: no files given', 'usage');
  if (files.filter((p) => p === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
  for (const url of [options.endpoint, options.queryEndpoint, options.updateEndpoint]) refuseUserinfo(url);
  const base = options.base ?? DEFAULT_BASE;
  const cwd = options.cwd ?? process.cwd();
  const paths = files.map((path) => (path === '-' ? path : resolve(cwd, path)));
  const pattern = recordGraphPattern(base);
  const endpointOf = (graph: string) =>
    storeEndpoints(options.store ?? 'fuseki', options.endpoint, graph, {
      authenticated: options.credentials !== undefined,
      ...(options.queryEndpoint !== undefined ? { query: options.queryEndpoint } : {}),
      ...(options.updateEndpoint !== undefined ? { update: options.updateEndpoint } : {}),
    });
  const endpoints = endpointOf(`${base}record/`);
  const method = options.method ?? 'put';
  if (method === 'update' && !endpoints.update)
    throw new ToolkitError(
      'the upsert method update needs a SPARQL Update endpoint: give `updateEndpoint`, or use the method put',
      'usage',
    );
  const checkCount = options.checkCount ?? true;
  if (checkCount && !endpoints.query)
    throw new ToolkitError(
      'the count after each batch needs a SPARQL Query endpoint: give `queryEndpoint`, or turn the count off (`checkCount: false`)',
      'usage',
    );
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new ToolkitError(`\`concurrency\` must be a positive integer, not ${concurrency}`, 'usage');
  const target = method === 'put' ? endpoints.graphStore : endpoints.update!;
  const inputs = await inputsOf(files, paths);
  await refuseFilesBeingExported(
    paths.filter((f) => f !== '-'),
    'upsert',
    {
      ...(options.ignoreExportLock ? { ignoreExportLock: true } : {}),
      ...(options.allowPartial ? { allowPartial: true } : {}),
    },
  );
  const statePath = loadLogPath(files, options.statePath, cwd, `upsert ${pattern}`);
  if (options.resume && !statePath) throw new ToolkitError('`resume` of stdin needs a log (`statePath`)', 'usage');
  if (statePath)
    refuseOverwritingInputs(
      [{ path: statePath, what: 'the upsert log' }],
      paths.filter((f) => f !== '-'),
    );
  const batchGraphs = options.batchGraphs ?? 200;
  const batchTriples = options.batchTriples ?? 50_000;
  return {
    paths,
    base,
    method,
    target,
    store: { update: endpoints.update, graphStoreOf: (g: string) => endpointOf(g).graphStore },
    counter: checkCount
      ? { queryEndpoint: endpoints.query!, timeoutMs: options.countTimeoutMs ?? DEFAULT_COUNT_TIMEOUT_MS }
      : undefined,
    batchGraphs,
    batchTriples,
    concurrency,
    statePath,
    // The log of a load, its fields standing for the upsert's: the store's URL, the graphs' pattern, the batches' limits and method.
    identity: {
      graphStore: target,
      graph: pattern,
      chunkTriples: batchTriples,
      chunkFormat: `upsert by ${method}, ${batchGraphs} graphs a batch`,
      inputs,
    },
  };
}

/** The log to go on with (`resume`, the same upsert) or a new one. */
async function openLog(statePath: string, identity: LoadIdentity, options: UpsertDumpOptions): Promise<LoadLog> {
  if (options.resume) {
    const log = await LoadLog.open(statePath);
    if (log) {
      log.assertSameLoad(identity);
      return log;
    }
    options.onNothingToResume?.(statePath);
  }
  return LoadLog.create(statePath, identity, 0);
}

/** A URL option with `user:password@` is refused: the credentials go apart (`credentials`), never in a URL. */
function refuseUserinfo(url: string | undefined): void {
  if (url === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // storeEndpoints says what is wrong with it
  }
  if (parsed.username || parsed.password) {
    throw new ToolkitError(
      `give the store's user and password as \`credentials\`, not in the URL ${hideUrlSecrets(url)}`,
      'usage',
    );
  }
}

/** The files with their size and time, so that resuming an upsert of changed files is refused. */
async function inputsOf(files: readonly string[], paths: readonly string[]): Promise<LoadInput[]> {
  const out: LoadInput[] = [];
  for (const [i, path] of files.entries()) {
    if (path === '-') {
      out.push({ path });
      continue;
    }
    const info = await stat(paths[i]!).catch((err: unknown) => {
      throw new ToolkitError(`cannot open ${path}: no such file`, 'io', { cause: err, details: { path } });
    });
    out.push({ path, size: info.size, mtimeMs: Math.round(info.mtimeMs) });
  }
  return out;
}
