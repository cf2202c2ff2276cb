import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';
import { parseStoreKind } from '../../store/storeEndpoints.js';
import type { StoreHttpClientOptions, StoreRequestEvent } from '../../store/StoreHttpClient.js';
import { envFetch } from '../connection.js';
import type { ReadLimitFlags } from '../readLimitOptions.js';
import { inFlags } from '../inFlags.js';
import { attributeOf, longFlag } from '../options/CliOption.js';
import { OPTION_TABLE } from '../options/optionTable.js';

/** The options of `load` as commander gives them. */
export interface LoadCliOptions extends ReadLimitFlags {
  endpoint?: string;
  graph?: string;
  replace?: boolean;
  chunkTriples: number;
  chunkFormat: 'ntriples' | 'turtle';
  concurrency: number;
  user?: string;
  password?: string;
  store: string;
  queryEndpoint?: string;
  updateEndpoint?: string;
  state?: string;
  resume?: boolean;
  check: boolean;
  requestTimeout: number;
  /** `--timeout`, the earlier spelling of `--request-timeout`. */
  timeout?: number;
  countTimeout: number;
  ignoreExportLock?: boolean;
  allowPartial?: boolean;
  retries: number;
  quiet?: boolean;
  verbose?: boolean;
  json?: boolean;
  /** `--bulk` and its flags. */
  bulk?: boolean;
  manifest?: string;
  isqlHost?: string;
  isqlPort: number;
  jobs: number;
  serverDir?: string;
  isql: string;
  /** `--bulk --store fuseki`: the TDB2 database folder, and Jena's loader (script or folder of jars). */
  loc?: string;
  tdbloader?: string;
  /** `--upsert` and its flags. */
  upsert?: boolean;
  upsertMethod: 'put' | 'update';
  batchGraphs: number;
  batchTriples: number;
  base: string;
}

type Key = keyof LoadCliOptions;

/** The flags of `load`, by option key (`chunkTriples`: `--chunk-triples`). */
const FLAGS: ReadonlyMap<string, string> = new Map(
  OPTION_TABLE.load.map((spec) => [attributeOf(spec), longFlag(spec)]),
);
/** The bulk flags of Virtuoso's loader (isql) and of Jena's (tdb2.tdbloader). */
const VIRTUOSO_BULK: Key[] = ['isqlHost', 'isqlPort', 'jobs', 'serverDir', 'isql'];
const TDB_BULK: Key[] = ['loc', 'tdbloader'];
const BULK_ONLY: Key[] = ['manifest', ...VIRTUOSO_BULK, ...TDB_BULK];
const UPSERT_ONLY: Key[] = ['upsertMethod', 'batchGraphs', 'batchTriples', 'base'];
/** Flags of the Graph Store modes (load and upsert) that the bulk loader has no use for. */
const HTTP_ONLY: Key[] = [
  'chunkTriples',
  'chunkFormat',
  'concurrency',
  'queryEndpoint',
  'updateEndpoint',
  'state',
  'resume',
  'timeout',
  'requestTimeout',
  'countTimeout',
  'ignoreExportLock',
  'retries',
  'verbose',
];

/**
 * Refuses (code `usage`, exit 2) the flags given on the command line that the chosen mode of `load`
 * (`--bulk`, `--upsert`, or the plain load) has no use for, naming them.
 */
export function refuseOtherModesFlags(opts: LoadCliOptions, command: Command): void {
  const given = (keys: readonly Key[]) =>
    keys.filter((k) => command.getOptionValueSource(k) === 'cli').map((k) => FLAGS.get(k)!);
  let refused: string[];
  let why: string;
  if (opts.bulk) {
    const fuseki = opts.store === 'fuseki';
    const otherLoader = given(fuseki ? VIRTUOSO_BULK : TDB_BULK);
    if (otherLoader.length > 0) {
      throw new ToolkitError(
        `${otherLoader.join(', ')}: ${fuseki ? "flags of Virtuoso's bulk loader (--store virtuoso)" : "flags of Jena's tdb2.tdbloader (--store fuseki)"}, not of --store ${opts.store}`,
        'usage',
      );
    }
    refused = given(['upsert', ...UPSERT_ONLY, ...HTTP_ONLY]);
    why = `do not go with --bulk (${fuseki ? "Jena's tdb2.tdbloader builds the TDB2 database from the files" : "Virtuoso's bulk loader reads the files itself, over isql"})`;
  } else if (opts.upsert) {
    const graph = given(['graph', 'replace']);
    if (graph.length > 0)
      throw new ToolkitError(
        `${graph.join(', ')} ${graph.length > 1 ? 'do' : 'does'} not go with --upsert: each record graph of the dumps is replaced`,
        'usage',
      );
    refused = given(['chunkTriples', 'chunkFormat', ...BULK_ONLY]);
    why = 'do not go with --upsert (it sends record graphs in batches: --batch-graphs, --batch-triples)';
  } else {
    refused = given([...BULK_ONLY, ...UPSERT_ONLY]);
    why = 'need --bulk or --upsert';
  }
  if (refused.length > 0) throw new ToolkitError(`${refused.join(', ')}: ${why}`, 'usage');
}

/** The store's user and password: flags, else `$SCHOLARLY_STORE_USER`/`$SCHOLARLY_STORE_PASSWORD`. Never printed. */
export function storeCredentials(
  opts: LoadCliOptions,
  ctx: CliContext,
): { user: string | undefined; password: string | undefined } {
  const env = ctx.io.env;
  return { user: opts.user ?? env['SCHOLARLY_STORE_USER'], password: opts.password ?? env['SCHOLARLY_STORE_PASSWORD'] };
}

/** The options that `load` gives `loadDump` and `upsert` gives `upsertDump` alike: inputs, store, requests, log, count. */
export function storeRunOptions(
  files: readonly string[],
  opts: LoadCliOptions & { endpoint: string },
  ctx: CliContext,
  what: string,
) {
  const { user, password } = storeCredentials(opts, ctx);
  return {
    files,
    stdin: ctx.io.stdin,
    cwd: ctx.io.cwd,
    endpoint: opts.endpoint,
    store: parseStoreKind(opts.store),
    fetch: envFetch(ctx),
    concurrency: opts.concurrency,
    ...(user !== undefined ? { credentials: { user, password: password! } } : {}),
    ...(opts.queryEndpoint !== undefined ? { queryEndpoint: opts.queryEndpoint } : {}),
    ...(opts.updateEndpoint !== undefined ? { updateEndpoint: opts.updateEndpoint } : {}),
    ...(opts.state !== undefined ? { statePath: opts.state } : {}),
    resume: Boolean(opts.resume),
    checkCount: opts.check,
    timeoutMs: opts.requestTimeout * 1000,
    countTimeoutMs: opts.countTimeout * 1000,
    ...(opts.ignoreExportLock ? { ignoreExportLock: true } : {}),
    ...(opts.allowPartial ? { allowPartial: true } : {}),
    onNothingToResume: (path: string) => ctx.log(`no load log at ${path}: nothing to resume, ${what} from the start`),
    retry: { retries: opts.retries },
    signal: ctx.signal,
    onRetry: (e: Parameters<NonNullable<StoreHttpClientOptions['onRetry']>>[0]) =>
      ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${inFlags(e.reason)}`),
    ...(opts.verbose ? { onRequest: storeRequestLogger(ctx) } : {}),
  };
}

/** `--verbose` of a load: a line per request to the store, through the log (whose one redaction pass hides the run's secrets). */
export function storeRequestLogger(ctx: CliContext): (e: StoreRequestEvent) => void {
  return (e) => ctx.log(storeRequestLine(e));
}

/**
 * One request to a store for `--verbose`: `request: POST URL (12,345 bytes) -> 204, 0 bytes (123 ms)`;
 * the URL as the client gives it (its secrets already `***`).
 */
export function storeRequestLine(e: StoreRequestEvent): string {
  const answer = e.status !== undefined ? `${e.status}, ${e.bytesReceived} bytes` : `no answer: ${e.error ?? 'failed'}`;
  const sent = e.bytesSent > 0 ? ` (${e.bytesSent} bytes)` : '';
  return `request: ${e.method} ${e.url}${sent} -> ${answer} (${Math.round(e.ms)} ms${e.attempt > 1 ? `, try ${e.attempt}` : ''})`;
}
