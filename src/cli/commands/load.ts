import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError, hideUrlSecrets } from '../../errors.js';
import { FORMATS, extensionList } from '../../formats.js';
import type { LoadSummary } from '../../store/GraphStoreLoader.js';
import type { LoadDumpSummary } from '../../tasks/loadDump.js';
import { loadProgressReporter } from '../progress/loadProgressReporter.js';
import { bulkCommand } from './loadBulk.js';
import { refuseOtherModesFlags, storeCredentials, storeRunOptions, type LoadCliOptions } from './loadFlags.js';
import { readLimitsFromFlags } from '../readLimitOptions.js';
import { addCommandOptions } from '../options/optionTable.js';
import { upsertCommand } from './loadUpsert.js';

export type { LoadCliOptions } from './loadFlags.js';

/** `scholarly-rdf load FILE... --endpoint URL`: streams dumps into a triple store over the Graph Store Protocol. */
export function registerLoad(program: Command, ctx: CliContext): void {
  const command = program
    .command('load')
    .description(
      `load RDF dumps (any of the ${FORMATS.length} formats, .gz too) into a named graph of a triple store over the SPARQL Graph Store Protocol, in chunks, resumably, checking the count at the end`,
    )
    .argument('[file...]', `RDF files (${extensionList()}, optionally .gz), or - for stdin`);
  addCommandOptions(command, 'load', (line) => ctx.log(line)).action(
    async (files: string[], opts: LoadCliOptions, self: Command) => {
      refuseOtherModesFlags(opts, self);
      await loadCommand(files, opts, ctx);
    },
  );
}

/** Runs `load` with the options of the command line (also used by `export --load`). */
export async function loadCommand(files: readonly string[], opts: LoadCliOptions, ctx: CliContext): Promise<void> {
  if (opts.bulk) return bulkCommand(files, opts, ctx);
  const { endpoint } = opts;
  if (endpoint === undefined) throw new ToolkitError('--endpoint URL is needed: the store to load into', 'usage');
  // Credentials: flags, else environment, else user:password@ in an endpoint URL (taken out of it by loadDump). Never printed.
  const { user, password } = storeCredentials(opts, ctx);
  if ((user === undefined) !== (password === undefined)) {
    throw new ToolkitError(
      'give both a user and a password (--user/--password or SCHOLARLY_STORE_USER/SCHOLARLY_STORE_PASSWORD)',
      'usage',
    );
  }
  if (opts.upsert) return upsertCommand(files, { ...opts, endpoint }, ctx);
  if (opts.resume && files.includes('-') && opts.state === undefined)
    throw new ToolkitError('--resume of stdin needs --state FILE', 'usage');
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: LoadDumpSummary;
  try {
    summary = await (
      await import('../../tasks/loadDump.js')
    ).loadDump({
      ...storeRunOptions(files, { ...opts, endpoint }, ctx, 'loading'),
      ...readLimitsFromFlags(opts),
      ...(opts.graph !== undefined ? { graph: opts.graph } : {}),
      replace: Boolean(opts.replace),
      chunkTriples: opts.chunkTriples,
      chunkFormat: opts.chunkFormat,
      ...(opts.quiet ? {} : { onProgress: loadProgressReporter(ctx) }),
    });
  } catch (err) {
    if (
      err instanceof ToolkitError &&
      (err.code === 'count-mismatch' || err.details['countTimedOut']) &&
      err.details['summary']
    ) {
      ctx.status.clear();
      const statePath = err.details['statePath'] as string | undefined;
      printLoadSummary(
        ctx,
        err.details['summary'] as LoadSummary,
        statePath,
        opts.check,
        err.details['countTimedOut'] ? 'no answer in time (below)' : undefined,
      );
      ctx.json.set(loadSummaryJson({ ...(err.details['summary'] as LoadSummary), statePath }));
    } else if (err instanceof ToolkitError && err.details['progressSaved']) {
      // What to do is in the error (one piece of advice); where the log is, here.
      ctx.log(`load log:  ${String(err.details['statePath'])}`);
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
    countOk:
      s.count === undefined
        ? null
        : s.count >= s.minimumCount && s.count <= s.expectedCount && !s.missingChunks?.length,
  };
}

/** The text summary of a load on stderr; `countNote` says why a count that was asked is missing. */
export function printLoadSummary(
  ctx: CliContext,
  s: LoadSummary,
  statePath: string | undefined,
  check: boolean,
  countNote?: string,
): void {
  const seconds = (s.durationMs / 1000).toFixed(1);
  ctx.log(`graph:     <${s.graph}> at ${hideUrlSecrets(s.graphStore)}${s.replaced ? ' (replaced)' : ''}`);
  ctx.log(
    `loaded:    ${s.triples} triples in ${s.chunks} chunks, ${seconds} s, ${s.triplesPerSecond} triples/s` +
      (s.chunksSkipped > 0
        ? ` (resumed: ${s.chunksSkipped} chunks acknowledged before, ${s.totalTriples} triples in all)`
        : ''),
  );
  if (s.count !== undefined) {
    const expected =
      s.minimumCount !== s.expectedCount ? `${s.minimumCount} to ${s.expectedCount}` : `${s.expectedCount}`;
    const ok = s.count >= s.minimumCount && s.count <= s.expectedCount && !s.missingChunks?.length;
    const repeats =
      s.distinctTriples < s.totalTriples ? ` (${s.totalTriples} statements; shared entities repeat per record)` : '';
    ctx.log(
      `count:     ${s.count} triples in the graph, ${expected} expected${ok ? ' (ok)' : ' (MISMATCH)'}: ${s.distinctTriples} distinct triples sent${repeats}`,
    );
    if (!s.exact)
      ctx.log(
        `note:      the graph held ${s.baseline} triples before: only bounds were checked (triples already there count once); an exact count needs --replace`,
      );
  } else if (countNote) {
    ctx.log(`count:     ${countNote}`);
  } else {
    ctx.log(
      check
        ? 'count:     not checked (no SPARQL query endpoint: pass --query-endpoint)'
        : 'count:     not checked (--no-check)',
    );
  }
  if (s.blankNodeTriples > 0) {
    ctx.log(
      `warning:   ${s.blankNodeTriples} triples have blank nodes; a blank node that spans two chunks becomes two nodes in the store (use a larger --chunk-triples or skolemised data)`,
    );
  }
  if (s.namedGraphQuads > 0)
    ctx.log(`note:      ${s.namedGraphQuads} quads of named graphs were loaded into <${s.graph}>`);
  if (statePath) ctx.log(`load log:  ${statePath}`);
}
