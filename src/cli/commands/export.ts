import { Option, type Command } from 'commander';
import { MAX_PAGE_SIZE } from '../../client/ApiClient.js';
import type { SplitUnit } from '../../client/dateWindows.js';
import { ToolkitError } from '../../errors.js';
import { parseFormatName } from '../../formats.js';
import { checkSinceDate } from '../../export/exportSince.js';
import { parseStoreKind } from '../../store/storeEndpoints.js';
import type { ExportDumpOptions, ExportDumpSummary } from '../../tasks/exportDump.js';
import type { CliContext } from '../CliContext.js';
import { inFlags } from '../inFlags.js';
import { type ConnectionOptions, abs, addConnectionOptions, clientOptions, connect, envFetch, int, keySafe } from '../connection.js';
import { ExportReporter } from '../progress/ExportReporter.js';
import { loadProgressReporter } from '../progress/loadProgressReporter.js';
import { byteSize } from './convert.js';
import { loadSummaryJson, printLoadSummary } from './load.js';

/** Registers `export`: a query's records into one RDF dump, resumably. */
export function registerExport(program: Command, ctx: CliContext): void {
  const exportCmd = program
    .command('export')
    .description('harvest every record of a query into one RDF dump (resumable)')
    .requiredOption('-q, --query <query>', 'the service query, e.g. \'keyword:"graphene" onlinedatefrom:2024-01-01\'')
    .option('-f, --format <format>', 'turtle, ntriples, nquads, jsonld or rdfxml (default: from -o, else turtle)')
    .option('-o, --output <file>', 'output file (.gz compresses); default stdout (not resumable)')
    .option('--max-records <n>', 'stop after N records', int('--max-records', 1))
    .option('--concurrency <n>', 'requests in flight at once, fixed (default: adapts, from 2, growing while pages wait on the network, halving on 429 or 5xx)', int('--concurrency', 1, 32))
    .option('--page-size <n>', `records per page (basic keys: at most 25; premium ${MAX_PAGE_SIZE})`, int('--page-size', 1, MAX_PAGE_SIZE), 25)
    .option('--state <file>', 'state file of a resumable export (default: <output>.state.json)')
    .option('--resume', 'continue the export its state file describes')
    .option('--restart', 'start again from the beginning although the state file says an earlier run is unfinished (its progress is lost); without --resume or --restart such a run is refused')
    .addOption(new Option('--split-by <unit>', 'harvest in date windows of a year or a month').choices(['year', 'month']))
    .option('--max-start <n>', 'deepest start position the service serves; deeper queries are split into date windows', int('--max-start', 1), 10_000)
    .option('--meta <file>', 'also write the provenance and dataset description (PROV-O, VoID, DCAT) to FILE')
    .option('--license <iri>', 'the licence of the dump, stated as dcterms:license in its description (default: none stated; the service\'s terms are not known to the tool)')
    .option('--rejects <file>', 'write records that cannot be mapped to FILE (JSON lines)')
    .option('--shard-records <n>', 'cut the dump into shards of at most N records, each a whole document: -o dump.nq.gz writes dump.00001.nq.gz, ... and dump.manifest.json; --resume never rewrites a finished shard (needs -o; see docs/shards.md)', int('--shard-records', 1))
    .option('--shard-size <bytes>', 'cut the dump into shards of at most this much text before compression (a number of bytes, or with K, M or G: 512M); with --shard-records, whichever comes first (needs -o)', byteSize('--shard-size'))
    .option('--graph <iri>', 'N-Quads: put the records in this named graph')
    .option('--graph-per-record', 'N-Quads or JSON-LD: put each record in its own named graph <base>record/<doi>, so a store can replace one record as a whole')
    .option('--since <date>', 'a delta: only the records the service lists as online on or after DATE (YYYY-MM-DD; adds onlinedatefrom:DATE to the query), each in its own named graph (N-Quads or JSON-LD), for `load --upsert`; the service has no modification date, so records changed after they went online are not listed (see docs/incremental.md)', (v: string) => checkSinceDate(v, '--since'))
    .option('--changes-since', 'a delta since the last export: --since the day the finished export in the state file (--state, default <output>.state.json) started, if it was of the same query (its last day is harvested again); with none there, everything is harvested; the description says which dump it follows')
    .option('--base <iri>', 'base of the IRIs minted for nodes a record owns (default: https://w3id.org/scholarly-rdf/)')
    .option('--validate', 'check every record against the SHACL shapes; records that do not conform go to the rejects')
    .option('--quiet', 'no progress and no summary')
    .option('--json', 'at the end, print a summary as one line of JSON (counts, paths, timings): on stdout, or on stderr when the dump goes to stdout')
    .option('--load <url>', 'then load the finished dump into this triple store (see `load`; needs -o)')
    .addOption(new Option('--store <kind>', 'with --load: URL conventions of the store').choices(['fuseki', 'virtuoso', 'rdf4j', 'graphdb', 'generic']).default('fuseki'))
    .option('--load-graph <iri>', 'with --load: the graph to load into (default: the dump\'s dataset IRI + "/graph")')
    .option('--replace', 'with --load: empty the graph first');
  addConnectionOptions(exportCmd).action(async (opts: ExportCliOptions) => {
    if (!opts.load && (opts.loadGraph || opts.replace)) throw new ToolkitError(`${opts.loadGraph ? '--load-graph' : '--replace'} goes with --load URL (the store to load the dump into)`, 'usage');
    if (!opts.output && (opts.shardRecords !== undefined || opts.shardSize !== undefined)) {
      throw new ToolkitError(`${opts.shardRecords !== undefined ? '--shard-records' : '--shard-size'} needs -o FILE: the shards are files named after it (-o dump.nq.gz writes dump.00001.nq.gz, ...); standard output cannot be cut into files`, 'usage');
    }
    if (opts.since !== undefined && opts.changesSince) throw new ToolkitError('--since DATE and --changes-since (the date of the last export) do not go together', 'usage');
    if (opts.changesSince && !opts.output && !opts.state) throw new ToolkitError('--changes-since needs -o FILE (or --state FILE): the date is read from the state file of the last export to it', 'usage');
    if (opts.json) ctx.json.enable('export', opts.output ? 'stdout' : 'stderr');
    const connection = clientOptions(opts, ctx);
    await keySafe(() => [connection.apiKey, opts.apiKey, ctx.io.env['SCHOLARLY_API_KEY']], async () => {
      const reporter = opts.quiet ? undefined : new ExportReporter({ status: ctx.status });
      // Split into date windows from the start, the export never asks the whole query: its total is asked apart, for the bar.
      const total = opts.splitBy && (reporter || opts.json) ? await queryTotal(opts, ctx) : undefined;
      if (total !== undefined) reporter?.setTotal(total);
      const output = abs(ctx, opts.output);
      const summary = await (await import('../../tasks/exportDump.js')).exportDump({
          ...connection,
          query: opts.query,
          ...(opts.format ? { format: parseFormatName(opts.format) } : {}),
          ...(output ? { output } : { stream: ctx.io.stdout }),
          ...(opts.maxRecords ? { maxRecords: opts.maxRecords } : {}),
          ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
          pageSize: opts.pageSize,
          maxStart: opts.maxStart,
          ...(opts.state ? { statePath: abs(ctx, opts.state) } : {}),
          resume: Boolean(opts.resume),
          ...(opts.restart ? { restart: true } : {}),
          ...(opts.splitBy ? { splitBy: opts.splitBy } : {}),
          ...(opts.meta ? { metaPath: abs(ctx, opts.meta) } : {}),
          ...(opts.rejects ? { rejectsPath: abs(ctx, opts.rejects) } : {}),
          ...(opts.shardRecords !== undefined ? { shardRecords: opts.shardRecords } : {}),
          ...(opts.shardSize !== undefined ? { shardBytes: opts.shardSize } : {}),
          ...(opts.graph ? { graph: opts.graph } : {}),
          ...(opts.graphPerRecord ? { graphPerRecord: true } : {}),
          ...(opts.since !== undefined ? { since: opts.since } : {}),
          ...(opts.changesSince ? { changesSince: true } : {}),
          ...(opts.license !== undefined ? { license: opts.license } : {}),
          ...(opts.base ? { base: opts.base } : {}),
          ...(opts.validate ? { validate: true } : {}),
          ...(opts.load ? { load: loadOptions(opts, ctx) } : {}),
          signal: ctx.signal,
          onWarning: (w) => reporter?.warn(inFlags(w)),
          onProgress: (p) => reporter?.progress(p),
        });
      reporter?.summary(summary, summary.manifestPath ? `the shards listed in ${summary.manifestPath}` : (opts.output ?? 'stdout'));
      ctx.json.set(exportSummaryJson(summary, opts, ctx, total));
      sayWhatIsMissing(summary, opts, ctx);
      if (summary.load) printLoadSummary(ctx, summary.load, summary.load.statePath, true);
    });
  });
}

/** The options of `export` as commander gives them. */
interface ExportCliOptions extends ConnectionOptions {
  query: string; format?: string; output?: string; maxRecords?: number; concurrency?: number; pageSize: number; state?: string; resume?: boolean; restart?: boolean;
  splitBy?: SplitUnit; maxStart: number; meta?: string; license?: string; rejects?: string; graph?: string; graphPerRecord?: boolean; base?: string; quiet?: boolean; validate?: boolean;
  load?: string; store: string; loadGraph?: string; replace?: boolean; json?: boolean; shardRecords?: number; shardSize?: number;
  since?: string; changesSince?: boolean;
}

/** Rejected records, and records the service reported but the pages did not bring: said, with exit code 1. */
function sayWhatIsMissing(summary: ExportDumpSummary, opts: ExportCliOptions, ctx: CliContext): void {
  if (summary.counts.rejects > 0) {
    const why = opts.validate ? 'could not be mapped or did not conform to the shapes' : 'could not be mapped';
    ctx.log(`scholarly-rdf: ${summary.counts.rejects} record(s) ${why}${opts.rejects ? `; see ${opts.rejects}` : '; add --rejects FILE to keep them'}`);
    ctx.setExitCode(1);
  }
  // Records dropped as duplicates (a DOI that came before) were harvested too: they are not missing.
  const harvested = summary.counts.records + summary.counts.rejects + summary.counts.duplicates;
  if (summary.total !== null && !opts.maxRecords && harvested < summary.total) {
    // Pages that came back short or empty: the dump lacks records the service said it has.
    ctx.log(
      `scholarly-rdf: the service reported ${summary.total} record(s) for the query but ${harvested} were harvested (${summary.total - harvested} fewer): ` +
        'some pages came back short or empty; run the export again (without --resume) to get them',
    );
    ctx.setExitCode(1);
  }
}

/** The `--json` object of an export: its summary, with the paths it wrote (absolute). */
function exportSummaryJson(s: ExportDumpSummary, opts: ExportCliOptions, ctx: CliContext, total: number | undefined): Record<string, unknown> {
  return {
    output: abs(ctx, opts.output) ?? null,
    format: s.format,
    statePath: s.statePath ?? null,
    rejectsPath: abs(ctx, opts.rejects) ?? null,
    metaPath: abs(ctx, opts.meta) ?? null,
    manifestPath: s.manifestPath,
    dataset: s.dataset,
    since: s.since ?? null,
    total: s.total ?? total ?? null,
    counts: s.counts,
    resumed: s.resumed,
    alreadyComplete: s.alreadyComplete,
    elapsedMs: Math.round(s.elapsedMs),
    ...(s.load ? { load: loadSummaryJson(s.load) } : {}),
  };
}

/** The query's total, from one page of one record; undefined when the service does not say (the export then reports it if it can). */
async function queryTotal(opts: ExportCliOptions, ctx: CliContext): Promise<number | undefined> {
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    connection = await connect({ ...opts, retries: 0 }, ctx);
    const page = await connection.client.fetchPage({ q: opts.query, s: 1, p: 1 }, ctx.signal);
    return page.records.length > 0 ? page.total : 0;
  } catch {
    return undefined; // the export itself says what is wrong
  } finally {
    await connection?.close();
  }
}

/** `export --load URL`: the load's options, with `load`'s defaults and credentials from the environment. */
function loadOptions(opts: ExportCliOptions, ctx: CliContext): NonNullable<ExportDumpOptions['load']> {
  const user = ctx.io.env['SCHOLARLY_STORE_USER'];
  const password = ctx.io.env['SCHOLARLY_STORE_PASSWORD'];
  return {
    endpoint: opts.load!,
    store: parseStoreKind(opts.store),
    fetch: envFetch(ctx),
    cwd: ctx.io.cwd,
    ...(opts.loadGraph ? { graph: opts.loadGraph } : {}),
    replace: Boolean(opts.replace),
    ...(user !== undefined && password !== undefined ? { credentials: { user, password } } : {}),
    signal: ctx.signal,
    onRetry: (e) => ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${inFlags(e.reason)}`),
    ...(opts.quiet ? {} : { onProgress: loadProgressReporter(ctx) }),
  };
}
