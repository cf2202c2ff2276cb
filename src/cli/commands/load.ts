import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { nonNegativeInteger, positiveInteger, timeoutSeconds } from '../optionValues.js';
import { ToolkitError, hideUrlSecrets } from '../../errors.js';
import type { LoadSummary } from '../../store/GraphStoreLoader.js';
import type { LoadDumpSummary } from '../../tasks/loadDump.js';
import { STORE_KINDS, parseStoreKind } from '../../store/storeEndpoints.js';
import { loadDump } from '../../tasks/loadDump.js';
import { envFetch } from '../connection.js';
import { inFlags } from '../inFlags.js';
import { loadProgressReporter } from '../progress/loadProgressReporter.js';

/** The options of `load` as commander gives them. */
export interface LoadCliOptions {
  endpoint: string;
  graph?: string;
  replace?: boolean;
  chunkTriples: string;
  chunkFormat: 'ntriples' | 'turtle';
  concurrency: string;
  user?: string;
  password?: string;
  store: string;
  queryEndpoint?: string;
  updateEndpoint?: string;
  state?: string;
  resume?: boolean;
  check: boolean;
  timeout: string;
  retries: string;
  quiet?: boolean;
  json?: boolean;
}

/** `scholarly-rdf load FILE... --endpoint URL`: streams dumps into a triple store over the Graph Store Protocol. */
export function registerLoad(program: Command, ctx: CliContext): void {
  program
    .command('load')
    .description('load RDF dumps (any of the five formats, .gz too) into a named graph of a triple store over the SPARQL Graph Store Protocol, in chunks, resumably, checking the count at the end')
    .argument('<file...>', 'RDF files (.ttl .nt .nq .jsonld .rdf, optionally .gz), or - for stdin')
    .requiredOption('--endpoint <url>', 'the store: Fuseki dataset URL, Virtuoso server URL, RDF4J repository URL, or (generic) the Graph Store URL')
    .addOption(new Option('--store <kind>', 'URL conventions of the store').choices([...STORE_KINDS, 'graphdb']).default('fuseki'))
    .option('--graph <iri>', 'the graph to load into (default: the dump\'s void:/dcat:Dataset IRI + "/graph", else https://w3id.org/scholarly-rdf/graph/<file name>)')
    .option('--replace', 'empty the graph first (DROP SILENT GRAPH)')
    .option('--chunk-triples <n>', 'triples per request', '50000')
    .addOption(new Option('--chunk-format <format>', 'syntax of the chunks sent').choices(['ntriples', 'turtle']).default('ntriples'))
    .option('--concurrency <n>', 'requests in flight at once', '1')
    .option('--user <name>', 'user name (Basic or Digest, as the store asks); default $SCHOLARLY_STORE_USER')
    .option('--password <password>', 'password; prefer $SCHOLARLY_STORE_PASSWORD (a flag shows in the process list)')
    .option('--query-endpoint <url>', 'SPARQL Query endpoint, instead of the store\'s convention (generic stores need it for the count)')
    .option('--update-endpoint <url>', 'SPARQL Update endpoint, instead of the store\'s convention')
    .option('--state <file>', 'the load log recording acknowledged chunks (default: <first file name>.load-state.json in the current directory)')
    .option('--resume', 'continue the load recorded in the load log after its last acknowledged chunk')
    .option('--no-check', 'do not check the graph\'s triple count at the end')
    .option('--timeout <seconds>', 'time limit of each HTTP request (a chunk\'s upload included), in seconds', '600')
    .option('--retries <n>', 'retries of a failed request (5xx, 429, network), waiting 0.5 s, 1 s, 2 s, ... or as the store asks', '5')
    .option('--quiet', 'no progress (the summary is still printed)')
    .option('--json', 'at the end, also print the summary as one line of JSON on stdout (counts, graph, timings)')
    .action(async (files: string[], opts: LoadCliOptions) => {
      await loadCommand(files, opts, ctx);
    });
}

/** Runs `load` with the options of the command line (also used by `export --load`). */
export async function loadCommand(files: readonly string[], opts: LoadCliOptions, ctx: CliContext): Promise<void> {
  const env = ctx.io.env;
  // Credentials: flags, else environment, else user:password@ in an endpoint URL (taken out of it by loadDump). Never printed.
  const user = opts.user ?? env['SCHOLARLY_STORE_USER'];
  const password = opts.password ?? env['SCHOLARLY_STORE_PASSWORD'];
  if ((user === undefined) !== (password === undefined)) {
    throw new ToolkitError('give both a user and a password (--user/--password or SCHOLARLY_STORE_USER/SCHOLARLY_STORE_PASSWORD)', 'usage');
  }
  if (opts.resume && files.includes('-') && opts.state === undefined) throw new ToolkitError('--resume of stdin needs --state FILE', 'usage');
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: LoadDumpSummary;
  try {
    if (opts.resume && opts.state === undefined && files[0] !== '-' && !existsSync(resolve(ctx.io.cwd, `${basename(files[0]!)}.load-state.json`))) {
      ctx.log(`no load log at ${resolve(ctx.io.cwd, `${basename(files[0]!)}.load-state.json`)}: nothing to resume, loading from the start`);
    } else if (opts.resume && opts.state !== undefined && !existsSync(resolve(ctx.io.cwd, opts.state))) {
      ctx.log(`no load log at ${resolve(ctx.io.cwd, opts.state)}: nothing to resume, loading from the start`);
    }
    summary = await loadDump({
      files,
      stdin: ctx.io.stdin,
      cwd: ctx.io.cwd,
      endpoint: opts.endpoint,
      store: parseStoreKind(opts.store),
      fetch: envFetch(ctx),
      ...(opts.graph !== undefined ? { graph: opts.graph } : {}),
      replace: Boolean(opts.replace),
      chunkTriples: positiveInteger('--chunk-triples', opts.chunkTriples),
      chunkFormat: opts.chunkFormat,
      concurrency: positiveInteger('--concurrency', opts.concurrency),
      ...(user !== undefined ? { credentials: { user, password: password! } } : {}),
      ...(opts.queryEndpoint !== undefined ? { queryEndpoint: opts.queryEndpoint } : {}),
      ...(opts.updateEndpoint !== undefined ? { updateEndpoint: opts.updateEndpoint } : {}),
      ...(opts.state !== undefined ? { statePath: opts.state } : {}),
      resume: Boolean(opts.resume),
      checkCount: opts.check,
      timeoutMs: timeoutSeconds('--timeout', opts.timeout) * 1000,
      retry: { retries: nonNegativeInteger('--retries', opts.retries) },
      signal: ctx.signal,
      onRetry: (e) => ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${inFlags(e.reason)}`),
      ...(opts.quiet ? {} : { onProgress: loadProgressReporter(ctx) }),
    });
  } catch (err) {
    if (err instanceof ToolkitError && err.code === 'count-mismatch' && err.details['summary']) {
      ctx.status.clear();
      const statePath = err.details['statePath'] as string | undefined;
      printLoadSummary(ctx, err.details['summary'] as LoadSummary, statePath, opts.check);
      ctx.json.set(loadSummaryJson({ ...(err.details['summary'] as LoadSummary), statePath }));
    } else if (err instanceof ToolkitError && typeof err.details['statePath'] === 'string') {
      ctx.log(
        err.details['progressSaved']
          ? `the load stopped; acknowledged chunks are in ${err.details['statePath']}: run again with --resume to continue`
          : 'the load stopped before it began (no chunk was sent): run it again as it was',
      );
    }
    throw err;
  }
  ctx.status.clear();
  printLoadSummary(ctx, summary, summary.statePath, opts.check);
  ctx.json.set(loadSummaryJson(summary));
}

/** The `--json` object of a load (also `export --load`'s `load`): its summary, the store's URL without secrets, whether the count is as expected. */
export function loadSummaryJson(s: LoadDumpSummary): Record<string, unknown> {
  return {
    ...s,
    graphStore: hideUrlSecrets(s.graphStore),
    statePath: s.statePath ?? null,
    durationMs: Math.round(s.durationMs),
    count: s.count ?? null,
    countOk: s.count === undefined ? null : s.count >= s.minimumCount && s.count <= s.expectedCount,
  };
}

export function printLoadSummary(ctx: CliContext, s: LoadSummary, statePath: string | undefined, check: boolean): void {
  const seconds = (s.durationMs / 1000).toFixed(1);
  ctx.log(`graph:     <${s.graph}> at ${hideUrlSecrets(s.graphStore)}${s.replaced ? ' (replaced)' : ''}`);
  ctx.log(
    `loaded:    ${s.triples} triples in ${s.chunks} chunks, ${seconds} s, ${s.triplesPerSecond} triples/s` +
      (s.chunksSkipped > 0 ? ` (resumed: ${s.chunksSkipped} chunks acknowledged before, ${s.totalTriples} triples in all)` : ''),
  );
  if (s.count !== undefined) {
    const range = s.minimumCount !== s.expectedCount;
    const expected = range ? `${s.minimumCount} to ${s.expectedCount}` : `${s.expectedCount}`;
    const ok = s.count >= s.minimumCount && s.count <= s.expectedCount;
    const why = range ? '; the triples of shared entities (journals, publishers, persons), repeated by the records that name them, are held once' : '';
    ctx.log(`count:     ${s.count} triples in the graph, ${expected} expected${ok ? ' (ok)' : ' (MISMATCH)'}${why}`);
  } else {
    ctx.log(check ? 'count:     not checked (no SPARQL query endpoint: pass --query-endpoint)' : 'count:     not checked (--no-check)');
  }
  if (s.blankNodeTriples > 0) {
    ctx.log(`warning:   ${s.blankNodeTriples} triples have blank nodes; a blank node that spans two chunks becomes two nodes in the store (use a larger --chunk-triples or skolemised data)`);
  }
  if (s.namedGraphQuads > 0) ctx.log(`note:      ${s.namedGraphQuads} quads of named graphs were loaded into <${s.graph}>`);
  if (statePath) ctx.log(`load log:  ${statePath}`);
}
