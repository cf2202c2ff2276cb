import { Option, type Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { positiveInteger } from '../optionValues.js';
import { ToolkitError, hideUrlSecrets } from '../../errors.js';
import type { LoadSummary } from '../../store/GraphStoreLoader.js';
import type { LoadDumpSummary } from '../../tasks/loadDump.js';
import { STORE_KINDS } from '../../store/storeEndpoints.js';
import { DEFAULT_BASE } from '../../rdf/namespaces.js';
import { loadProgressReporter } from '../progress/loadProgressReporter.js';
import { bulkCommand } from './loadBulk.js';
import { refuseOtherModesFlags, storeCredentials, storeRunOptions, type LoadCliOptions } from './loadFlags.js';
import { addReadLimitOptions, readLimitsFromFlags } from '../readLimitOptions.js';
import { upsertCommand } from './loadUpsert.js';

export type { LoadCliOptions } from './loadFlags.js';

/** `scholarly-rdf load FILE... --endpoint URL`: streams dumps into a triple store over the Graph Store Protocol. */
export function registerLoad(program: Command, ctx: CliContext): void {
  const command = program
    .command('load')
    .description('load RDF dumps (any of the five formats, .gz too) into a named graph of a triple store over the SPARQL Graph Store Protocol, in chunks, resumably, checking the count at the end')
    .argument('[file...]', 'RDF files (.ttl .nt .nq .jsonld .rdf, optionally .gz), or - for stdin')
    .option('--endpoint <url>', 'the store: Fuseki dataset URL, Virtuoso server URL, RDF4J repository URL, or (generic) the Graph Store URL (required, but with --bulk)')
    .addOption(new Option('--store <kind>', 'URL conventions of the store').choices([...STORE_KINDS, 'graphdb']).default('fuseki'))
    .option('--graph <iri>', 'the graph to load into (default: the dump\'s void:/dcat:Dataset IRI + "/graph", else https://w3id.org/scholarly-rdf/graph/<file name>)')
    .option('--replace', 'empty the graph first (DROP SILENT GRAPH)')
    .option('--chunk-triples <n>', 'triples per request', '50000')
    .addOption(new Option('--chunk-format <format>', 'syntax of the chunks sent').choices(['ntriples', 'turtle']).default('ntriples'))
    .option('--concurrency <n>', 'requests in flight at once', '1')
    .option('--user <name>', 'user name (Basic or Digest, as the store asks; with --bulk the SQL user, default dba); default $SCHOLARLY_STORE_USER')
    .option('--password <password>', 'password (with --bulk the SQL user\'s, required); prefer $SCHOLARLY_STORE_PASSWORD (a flag shows in the process list)')
    .option('--query-endpoint <url>', 'SPARQL Query endpoint, instead of the store\'s convention (generic stores need it for the count)')
    .option('--update-endpoint <url>', 'SPARQL Update endpoint, instead of the store\'s convention')
    .option('--state <file>', 'the load log recording acknowledged chunks (default: <first file name>.<hash of the files and the graph>.load-state.json in the current directory)')
    .option('--resume', 'continue the load recorded in the load log after its last acknowledged chunk')
    .option('--no-check', 'do not check the graph\'s triple count at the end')
    .option('--request-timeout <seconds>', 'time limit of each request sending a chunk or emptying the graph (each try), in seconds (default: 600)')
    .addOption(new Option('--timeout <seconds>', 'the same as --request-timeout (earlier name)').hideHelp())
    .option('--count-timeout <seconds>', 'time limit of the count of the graph; a count that does not answer in it ends the load (exit 3) with what was loaded and the query to count by hand', '120')
    .option('--ignore-export-lock', 'load a dump even while an export is still writing it (its lock is held): only the part written so far is loaded')
    .option('--retries <n>', 'retries of a failed request (5xx, 429, network), waiting 0.5 s, 1 s, 2 s, ... or as the store asks', '5')
    .option('--quiet', 'no progress (the summary is still printed)')
    .option('--json', 'at the end, also print the summary as one line of JSON on stdout (counts, graph, timings)')
    .option('--bulk', 'load with Virtuoso\'s own bulk loader (ld_add + rdf_loader_run() over isql on the SQL port), the files read by the server; needs --store virtuoso and --graph; see docs/bulk-loading.md')
    .option('--manifest <file>', '--bulk: the shard manifest of the dump (name.manifest.json): its shards are the files (then the file arguments may be left out), and the count is checked against it')
    .option('--isql-host <host>', '--bulk: host of Virtuoso\'s SQL port (default: the --endpoint host name, else 127.0.0.1)')
    .option('--isql-port <n>', '--bulk: Virtuoso\'s SQL port (ServerPort in virtuoso.ini, not the HTTP port)', '1111')
    .option('--jobs <n>', '--bulk: rdf_loader_run() sessions at once', '2')
    .option('--server-dir <dir>', '--bulk: the folder the server sees the files in (a container\'s mount), listed in DirsAllowed of virtuoso.ini (default: each file\'s own folder)')
    .option('--isql <path>', '--bulk: Virtuoso\'s isql client (isql in OpenLink\'s builds)', 'isql-vt')
    .option('--upsert', 'the dumps hold record graphs (convert/export --graph-per-record): replace each of them in the store (a delta: the new state of the records that changed), in batches, resumably, counting each batch; see docs/incremental.md')
    .addOption(new Option('--upsert-method <method>', '--upsert: a Graph Store PUT of each graph, or one SPARQL Update (DROP SILENT GRAPH + INSERT DATA) per batch').choices(['put', 'update']).default('put'))
    .option('--batch-graphs <n>', '--upsert: most record graphs per batch', '200')
    .option('--batch-triples <n>', '--upsert: a batch closes after the graph that brings it to this many triples', '50000')
    .option('--base <iri>', '--upsert: the base of the record graphs <base>record/<doi> (as given to convert or export)', DEFAULT_BASE);
  addReadLimitOptions(command).action(async (files: string[], opts: LoadCliOptions, self: Command) => {
    refuseOtherModesFlags(opts, self);
    await loadCommand(files, opts, ctx);
  });
}

/** Runs `load` with the options of the command line (also used by `export --load`). */
export async function loadCommand(files: readonly string[], opts: LoadCliOptions, ctx: CliContext): Promise<void> {
  if (opts.bulk) return bulkCommand(files, opts, ctx);
  const { endpoint } = opts;
  if (endpoint === undefined) throw new ToolkitError('--endpoint URL is needed: the store to load into', 'usage');
  // Credentials: flags, else environment, else user:password@ in an endpoint URL (taken out of it by loadDump). Never printed.
  const { user, password } = storeCredentials(opts, ctx);
  if ((user === undefined) !== (password === undefined)) {
    throw new ToolkitError('give both a user and a password (--user/--password or SCHOLARLY_STORE_USER/SCHOLARLY_STORE_PASSWORD)', 'usage');
  }
  if (opts.upsert) return upsertCommand(files, { ...opts, endpoint }, ctx);
  if (opts.resume && files.includes('-') && opts.state === undefined) throw new ToolkitError('--resume of stdin needs --state FILE', 'usage');
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: LoadDumpSummary;
  try {
    summary = await (await import('../../tasks/loadDump.js')).loadDump({
      ...storeRunOptions(files, { ...opts, endpoint }, ctx, 'loading'),
      ...readLimitsFromFlags(opts),
      ...(opts.graph !== undefined ? { graph: opts.graph } : {}),
      replace: Boolean(opts.replace),
      chunkTriples: positiveInteger('--chunk-triples', opts.chunkTriples),
      chunkFormat: opts.chunkFormat,
      ...(opts.quiet ? {} : { onProgress: loadProgressReporter(ctx) }),
    });
  } catch (err) {
    if (err instanceof ToolkitError && (err.code === 'count-mismatch' || err.details['countTimedOut']) && err.details['summary']) {
      ctx.status.clear();
      const statePath = err.details['statePath'] as string | undefined;
      printLoadSummary(ctx, err.details['summary'] as LoadSummary, statePath, opts.check, err.details['countTimedOut'] ? 'no answer in time (below)' : undefined);
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

/** The text summary of a load on stderr; `countNote` says why a count that was asked is missing. */
export function printLoadSummary(ctx: CliContext, s: LoadSummary, statePath: string | undefined, check: boolean, countNote?: string): void {
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
  } else if (countNote) {
    ctx.log(`count:     ${countNote}`);
  } else {
    ctx.log(check ? 'count:     not checked (no SPARQL query endpoint: pass --query-endpoint)' : 'count:     not checked (--no-check)');
  }
  if (s.blankNodeTriples > 0) {
    ctx.log(`warning:   ${s.blankNodeTriples} triples have blank nodes; a blank node that spans two chunks becomes two nodes in the store (use a larger --chunk-triples or skolemised data)`);
  }
  if (s.namedGraphQuads > 0) ctx.log(`note:      ${s.namedGraphQuads} quads of named graphs were loaded into <${s.graph}>`);
  if (statePath) ctx.log(`load log:  ${statePath}`);
}
