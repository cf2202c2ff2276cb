import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';
import type { TdbBulkLoadSummary } from '../../tasks/tdbBulkLoad.js';
import { bulkProgressReporter } from '../progress/loadProgressReporter.js';
import type { LoadCliOptions } from './loadFlags.js';

/**
 * `load --store fuseki --bulk --loc DIR FILES…`: a TDB2 database for Fuseki built by Jena's `tdb2.tdbloader`
 * ({@link tdbBulkLoad}), the count checked against the manifest.
 */
export async function tdbBulkCommand(files: readonly string[], opts: LoadCliOptions, ctx: CliContext): Promise<void> {
  if (files.includes('-')) throw new ToolkitError("--bulk loads files Jena's loader reads: not stdin (-)", 'usage');
  if (opts.graph === undefined) throw new ToolkitError('--bulk needs --graph IRI: the graph to load into', 'usage');
  if (opts.loc === undefined)
    throw new ToolkitError(
      '--bulk --store fuseki needs --loc DIR: the TDB2 database to build (then serve it: fuseki-server --tdb2 --loc DIR /ds)',
      'usage',
    );
  if (opts.endpoint !== undefined)
    throw new ToolkitError(
      '--bulk --store fuseki builds the TDB2 database of --loc without a server: leave out --endpoint (start Fuseki on the database after the load)',
      'usage',
    );
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: TdbBulkLoadSummary;
  try {
    summary = await (
      await import('../../tasks/tdbBulkLoad.js')
    ).tdbBulkLoad({
      files,
      graph: opts.graph,
      location: opts.loc,
      cwd: ctx.io.cwd,
      env: ctx.io.env,
      ...(opts.tdbloader !== undefined ? { tdbloader: opts.tdbloader } : {}),
      ...(opts.manifest !== undefined ? { manifest: opts.manifest } : {}),
      replace: Boolean(opts.replace),
      check: opts.check,
      signal: ctx.signal,
      ...(opts.quiet ? {} : { onProgress: bulkProgressReporter(ctx) }),
    });
  } catch (err) {
    const partial =
      err instanceof ToolkitError ? (err.details['summary'] as TdbBulkLoadSummary | undefined) : undefined;
    if (partial) {
      ctx.status.clear();
      printTdbSummary(ctx, partial, opts.check);
      ctx.json.set(tdbSummaryJson(partial));
    }
    throw err;
  }
  ctx.status.clear();
  printTdbSummary(ctx, summary, opts.check);
  ctx.json.set(tdbSummaryJson(summary));
}

/** The text summary of a TDB2 bulk load on stderr. */
function printTdbSummary(ctx: CliContext, s: TdbBulkLoadSummary, check: boolean): void {
  ctx.log(`graph:     <${s.graph}> in the TDB2 database ${s.location} (Jena's tdb2.tdbloader)`);
  ctx.log(`files:     ${s.files} loaded, ${s.tuples} triples read`);
  ctx.log(`time:      ${(s.elapsedMs / 1000).toFixed(1)} s (loader ${(s.loadMs / 1000).toFixed(1)} s)`);
  const before = s.countBefore > 0 ? ` (${s.countBefore} before)` : '';
  if (s.expected) {
    const expected = s.expected.min === s.expected.max ? `${s.expected.max}` : `${s.expected.min} to ${s.expected.max}`;
    const ok = s.count >= s.expected.min && s.count <= s.expected.max;
    ctx.log(
      `count:     ${s.count} triples in the graph${before}, ${expected} expected by the manifest${ok ? ' (ok)' : ' (MISMATCH)'}`,
    );
  } else {
    ctx.log(
      `count:     ${s.count} triples in the graph${before} (not checked: ${check ? 'no --manifest' : '--no-check'})`,
    );
  }
  ctx.log(`serve it:  fuseki-server --tdb2 --loc ${s.location} /ds   (stop a Fuseki that serves it while loading)`);
}

/** The `--json` object of a TDB2 bulk load. */
function tdbSummaryJson(s: TdbBulkLoadSummary): Record<string, unknown> {
  return {
    mode: 'bulk',
    store: 'fuseki',
    ...s,
    expected: s.expected ?? null,
    countOk: s.expected ? s.count >= s.expected.min && s.count <= s.expected.max : null,
    loadMs: Math.round(s.loadMs),
    elapsedMs: Math.round(s.elapsedMs),
  };
}
