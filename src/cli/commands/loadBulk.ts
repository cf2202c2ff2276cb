import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';
import type { BulkFileResult, BulkLoadSummary, BusyLoaders } from '../../tasks/bulkLoad.js';
import { bulkProgressReporter } from '../progress/loadProgressReporter.js';
import { storeCredentials, type LoadCliOptions } from './loadFlags.js';

/** `load --store virtuoso --bulk FILES…`: Virtuoso's bulk loader over isql ({@link bulkLoad}); `--store fuseki`: Jena's tdb2.tdbloader. */
export async function bulkCommand(files: readonly string[], opts: LoadCliOptions, ctx: CliContext): Promise<void> {
  if (opts.store === 'fuseki') return (await import('./loadBulkTdb.js')).tdbBulkCommand(files, opts, ctx);
  if (opts.store !== 'virtuoso')
    throw new ToolkitError(
      `--bulk needs --store virtuoso (Virtuoso's bulk loader) or --store fuseki (Jena's tdb2.tdbloader), not --store ${opts.store}`,
      'usage',
    );
  if (files.includes('-')) throw new ToolkitError('--bulk loads files the server reads: not stdin (-)', 'usage');
  if (opts.graph === undefined) throw new ToolkitError('--bulk needs --graph IRI: the graph to load into', 'usage');
  const { user, password } = storeCredentials(opts, ctx);
  if (password === undefined)
    throw new ToolkitError(
      '--bulk needs the password of the Virtuoso SQL user: --password or SCHOLARLY_STORE_PASSWORD',
      'usage',
    );
  if (opts.json) ctx.json.enable('load', 'stdout');
  let summary: BulkLoadSummary;
  let waiting: string | undefined;
  const { bulkLoad, describeBusyLoaders } = await import('../../tasks/bulkLoad.js');
  try {
    summary = await bulkLoad({
      files,
      graph: opts.graph,
      cwd: ctx.io.cwd,
      host: opts.isqlHost ?? hostOf(opts.endpoint),
      port: opts.isqlPort,
      ...(user !== undefined ? { user } : {}),
      password,
      jobs: opts.jobs,
      isqlCommand: opts.isql,
      ...(opts.manifest !== undefined ? { manifest: opts.manifest } : {}),
      ...(opts.serverDir !== undefined ? { serverDir: opts.serverDir } : {}),
      replace: Boolean(opts.replace),
      check: opts.check,
      ...(opts.allowPartial ? { allowPartial: true } : {}),
      signal: ctx.signal,
      onWait: (busy) => {
        const said = describeBusyLoaders(busy);
        if (said === waiting) return;
        waiting = said;
        ctx.status.clear();
        ctx.log(`waiting:   ${said}; nothing is changed until they end`);
      },
      ...(opts.quiet ? {} : { onProgress: bulkProgressReporter(ctx) }),
    });
  } catch (err) {
    const partial = err instanceof ToolkitError ? (err.details['summary'] as BulkLoadSummary | undefined) : undefined;
    if (partial) {
      ctx.status.clear();
      printBulkSummary(ctx, partial, opts.check, describeBusyLoaders);
      ctx.json.set(bulkSummaryJson(partial));
    }
    throw err;
  }
  ctx.status.clear();
  printBulkSummary(ctx, summary, opts.check, describeBusyLoaders);
  ctx.json.set(bulkSummaryJson(summary));
}

/** The isql host by default: the `--endpoint`'s host name, else the local machine. */
function hostOf(endpoint: string | undefined): string {
  if (endpoint === undefined) return '127.0.0.1';
  try {
    return new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  } catch {
    throw new ToolkitError(
      '--endpoint is not a URL (with --bulk only its host name is used, as the default of --isql-host)',
      'usage',
    );
  }
}

/** The text summary of a bulk load on stderr; each file that was not loaded on a line of its own. */
function printBulkSummary(
  ctx: CliContext,
  s: BulkLoadSummary,
  check: boolean,
  describeBusyLoaders: (busy: BusyLoaders) => string,
): void {
  ctx.log(`graph:     <${s.graph}> (Virtuoso's bulk loader, ${s.jobs} jobs)`);
  ctx.log(
    `files:     ${s.loadedFiles} of ${s.files.length} loaded${s.failedFiles > 0 ? `, ${s.failedFiles} NOT loaded` : ''}`,
  );
  ctx.log(
    `time:      ${seconds(s.elapsedMs)} s (loaders ${seconds(s.loadMs)} s, checkpoint ${seconds(s.checkpointMs)} s)`,
  );
  const before = s.countBefore > 0 ? ` (${s.countBefore} before)` : '';
  if (s.expected) {
    const expected = s.expected.min === s.expected.max ? `${s.expected.max}` : `${s.expected.min} to ${s.expected.max}`;
    const ok = s.count >= s.expected.min && s.count <= s.expected.max;
    const by =
      s.failedFiles > 0
        ? 'for the files loaded'
        : s.distinctTriples !== undefined
          ? `for the ${s.distinctTriples} distinct triples of the files`
          : 'by the manifest';
    ctx.log(
      `count:     ${s.count} triples in the graph${before}, ${expected} expected ${by}${ok ? ' (ok)' : ' (MISMATCH)'}`,
    );
    if (!s.expected.exact && s.countBefore > 0)
      ctx.log(
        `note:      the graph held ${s.countBefore} triples before: only bounds were checked (triples already there count once); an exact count needs --replace`,
      );
  } else {
    ctx.log(
      `count:     ${s.count} triples in the graph${before} (not checked: ${check ? 'the files are only on the server (--server-dir) and no --manifest' : '--no-check'})`,
    );
  }
  if (s.waitedFor)
    ctx.log(`note:      waited for loaders found running before the load: ${describeBusyLoaders(s.waitedFor)}`);
  if (s.otherWaitingFiles > 0)
    ctx.log(
      `note:      ${s.otherWaitingFiles} files of other graphs were waiting in DB.DBA.load_list; the loaders loaded them too`,
    );
  for (const f of s.files.filter((x: BulkFileResult) => x.state !== 'loaded'))
    ctx.log(`not loaded: ${f.file}: ${f.error ?? f.state}`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The `--json` object of a bulk load: its summary, times rounded to ms. */
function bulkSummaryJson(s: BulkLoadSummary): Record<string, unknown> {
  return {
    mode: 'bulk',
    ...s,
    expected: s.expected ?? null,
    countOk: s.expected ? s.count >= s.expected.min && s.count <= s.expected.max : null,
    loadMs: Math.round(s.loadMs),
    checkpointMs: Math.round(s.checkpointMs),
    elapsedMs: Math.round(s.elapsedMs),
  };
}
