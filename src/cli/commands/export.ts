import type { Command } from 'commander';
import type { SplitUnit } from '../../client/dateWindows.js';
import { ToolkitError } from '../../errors.js';
import { parseStoreKind } from '../../store/storeEndpoints.js';
import type { FormatName } from '../../formats.js';
import type { ExportDumpOptions, ExportDumpSummary } from '../../tasks/exportDump.js';
import type { CliContext } from '../CliContext.js';
import { inFlags } from '../inFlags.js';
import { type ConnectionOptions, abs, clientOptions, connect, envFetch, envApiKeys, keySafe } from '../connection.js';
import { libraryOptions } from '../options/CliOption.js';
import { EXPORT_OPTIONS } from '../options/exportOptions.js';
import { addCommandOptions } from '../options/optionTable.js';
import { ExportReporter } from '../progress/ExportReporter.js';
import { loadProgressReporter } from '../progress/loadProgressReporter.js';
import { loadSummaryJson, printLoadSummary } from './load.js';
import { storeRequestLogger } from './loadFlags.js';

/** Registers `export`: a query's records into one RDF dump, resumably. */
export function registerExport(program: Command, ctx: CliContext): void {
  const exportCmd = program
    .command('export')
    .description('harvest every record of a query into one RDF dump (resumable)');
  addCommandOptions(exportCmd, 'export', (line) => ctx.log(line)).action(async (opts: ExportCliOptions) => {
    if (!opts.load && (opts.loadGraph || opts.replace))
      throw new ToolkitError(
        `${opts.loadGraph ? '--load-graph' : '--replace'} goes with --load URL (the store to load the dump into)`,
        'usage',
      );
    if (!opts.output && (opts.shardRecords !== undefined || opts.shardSize !== undefined)) {
      throw new ToolkitError(
        `${opts.shardRecords !== undefined ? '--shard-records' : '--shard-size'} needs -o FILE: the shards are files named after it (-o dump.nq.gz writes dump.00001.nq.gz, ...); standard output cannot be cut into files`,
        'usage',
      );
    }
    if (opts.since !== undefined && opts.changesSince)
      throw new ToolkitError(
        '--since DATE and --changes-since (the date of the last export) do not go together',
        'usage',
      );
    if (opts.changesSince && !opts.output && !opts.state)
      throw new ToolkitError(
        '--changes-since needs -o FILE (or --state FILE): the date is read from the state file of the last export to it',
        'usage',
      );
    if (opts.json) ctx.json.enable('export', opts.output ? 'stdout' : 'stderr');
    const connection = clientOptions(opts, ctx);
    await keySafe(
      () => [connection.apiKey, opts.apiKey, ...envApiKeys(ctx)],
      async () => {
        const reporter = opts.quiet ? undefined : new ExportReporter({ status: ctx.status });
        // Split into date windows from the start, the export never asks the whole query: its total is asked apart, for the bar.
        const total = opts.splitBy && (reporter || opts.json) ? await queryTotal(opts, ctx) : undefined;
        if (total !== undefined) reporter?.setTotal(total);
        const summary = await (
          await import('../../tasks/exportDump.js')
        ).exportDump({
          ...connection,
          ...(libraryOptions(EXPORT_OPTIONS, opts, ctx.io.cwd) as Pick<ExportDumpOptions, 'query'>),
          ...(opts.output ? {} : { stream: ctx.io.stdout }),
          ...(opts.load ? { load: loadOptions(opts, ctx) } : {}),
          signal: ctx.signal,
          onWarning: (w) => reporter?.warn(inFlags(w)),
          onProgress: (p) => reporter?.progress(p),
        });
        reporter?.summary(
          summary,
          summary.manifestPath ? `the shards listed in ${summary.manifestPath}` : (opts.output ?? 'stdout'),
        );
        ctx.json.set(exportSummaryJson(summary, opts, ctx, total));
        sayWhatIsMissing(summary, opts, ctx);
        if (summary.load) printLoadSummary(ctx, summary.load, summary.load.statePath, true);
      },
    );
  });
}

/** The options of `export` as commander gives them. */
interface ExportCliOptions extends ConnectionOptions {
  query: string;
  format?: FormatName;
  output?: string;
  maxRecords?: number;
  concurrency?: number;
  pageSize?: number;
  state?: string;
  resume?: boolean;
  restart?: boolean;
  splitBy?: SplitUnit;
  maxStart: number;
  meta?: string;
  license?: string;
  rejects?: string;
  graph?: string;
  graphPerRecord?: boolean;
  base?: string;
  quiet?: boolean;
  validate?: boolean;
  load?: string;
  store: string;
  loadGraph?: string;
  replace?: boolean;
  json?: boolean;
  shardRecords?: number;
  shardSize?: number;
  since?: string;
  changesSince?: boolean;
}

/** Rejected records, and records the service reported but the pages did not bring: said, with exit code 1. */
function sayWhatIsMissing(summary: ExportDumpSummary, opts: ExportCliOptions, ctx: CliContext): void {
  if (summary.counts.rejects > 0) {
    const why = opts.validate ? 'could not be mapped or did not conform to the shapes' : 'could not be mapped';
    ctx.log(
      `scholarly-rdf: ${summary.counts.rejects} record(s) ${why}${opts.rejects ? `; see ${opts.rejects}` : '; add --rejects FILE to keep them'}`,
    );
    ctx.setExitCode(1);
  }
  // Records dropped as duplicates (a DOI that came before) were harvested too: they are not missing.
  const harvested = summary.counts.records + summary.counts.rejects + summary.counts.duplicates;
  const lost =
    summary.resumed && summary.total !== null && summary.totalNow !== null && summary.totalNow < summary.total
      ? summary.total - summary.totalNow
      : 0;
  if (lost > 0 && !opts.maxRecords && harvested < summary.total!) {
    // Resumed after the service lost records: not short pages, and running again would not bring them.
    ctx.log(
      `scholarly-rdf: records disappeared from the service: it reported ${summary.total} record(s) for the query when the export began and ${summary.totalNow} now (${lost} fewer); ` +
        `${harvested} were harvested. The dump holds what the service still has; run the export again (without --resume) for a dump of the query as it is now`,
    );
    ctx.setExitCode(1);
  } else if (summary.total !== null && !opts.maxRecords && harvested < summary.total) {
    // Pages that came back short or empty: the dump lacks records the service said it has.
    ctx.log(
      `scholarly-rdf: the service reported ${summary.total} record(s) for the query but ${harvested} were harvested (${summary.total - harvested} fewer): ` +
        'some pages came back short or empty; run the export again (without --resume) to get them',
    );
    ctx.setExitCode(1);
  }
}

/** The `--json` object of an export: its summary, with the paths it wrote (absolute). */
function exportSummaryJson(
  s: ExportDumpSummary,
  opts: ExportCliOptions,
  ctx: CliContext,
  total: number | undefined,
): Record<string, unknown> {
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
    conflicts: s.conflicts,
    conflictNotes: s.conflictNotes,
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
    onRetry: (e) =>
      ctx.log(`retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s: ${e.what}: ${inFlags(e.reason)}`),
    ...(opts.quiet ? {} : { onProgress: loadProgressReporter(ctx) }),
    ...(opts.verbose ? { onRequest: storeRequestLogger(ctx) } : {}),
  };
}
