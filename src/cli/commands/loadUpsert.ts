import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';
import type { UpsertSummary } from '../../tasks/upsertDump.js';
import { upsertProgressReporter } from '../progress/loadProgressReporter.js';
import { storeRunOptions, type LoadCliOptions } from './loadFlags.js';

/** `load --upsert FILES…`: replaces each record graph of a delta dump in the store ({@link upsertDump}). */
export async function upsertCommand(
  files: readonly string[],
  opts: LoadCliOptions & { endpoint: string },
  ctx: CliContext,
): Promise<void> {
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: UpsertSummary;
  try {
    summary = await (
      await import('../../tasks/upsertDump.js')
    ).upsertDump({
      ...storeRunOptions(files, opts, ctx, 'upserting'),
      method: opts.upsertMethod,
      batchGraphs: opts.batchGraphs,
      batchTriples: opts.batchTriples,
      base: opts.base,
      ...(opts.quiet ? {} : { onBatch: upsertProgressReporter(ctx) }),
    });
  } catch (err) {
    if (err instanceof ToolkitError && err.details['progressSaved']) {
      // What to do is in the error (one piece of advice); where the log is, here.
      ctx.status.clear();
      ctx.log(`load log:  ${String(err.details['statePath'])}`);
    }
    throw err;
  }
  ctx.status.clear();
  printUpsertSummary(ctx, summary);
  ctx.json.set({
    mode: 'upsert',
    ...summary,
    statePath: summary.statePath ?? null,
    durationMs: Math.round(summary.durationMs),
  });
}

/** The text summary of an upsert on stderr. */
function printUpsertSummary(ctx: CliContext, s: UpsertSummary): void {
  const seconds = (s.durationMs / 1000).toFixed(1);
  ctx.log(`upserted:  ${s.graphs} record graphs, ${s.triples} triples at ${s.target} (method ${s.method})`);
  ctx.log(
    `batches:   ${s.batches}${s.batchesSkipped > 0 ? ` (resumed: ${s.batchesSkipped} done before)` : ''}, ${s.requests} requests` +
      `${s.countRequests > 0 ? ` + ${s.countRequests} counts` : ''}, ${seconds} s`,
  );
  ctx.log(
    s.counted
      ? `count:     ${s.countRequests} batches counted after they were replaced: each graph holds the delta's triples of it (ok)`
      : 'count:     not checked (--no-check)',
  );
  if (s.statePath) ctx.log(`load log:  ${s.statePath}`);
}
