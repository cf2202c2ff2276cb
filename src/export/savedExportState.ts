import { existsSync, statSync } from 'node:fs';
import { ToolkitError } from '../errors.js';
import type { ExportOptions, ExportPlan } from './exportOptions.js';
import { type ExportIdentity, type ExportState, identityMismatch, readExportState } from './ExportState.js';

/** The saved state to continue (with `resume`), after checking it is this export's. */
export async function savedExportState(
  options: ExportOptions,
  plan: ExportPlan,
  identity: ExportIdentity,
): Promise<ExportState | undefined> {
  const { statePath } = plan;
  if (!statePath) return undefined;
  if (!options.resume) {
    // A state that cannot be resumed (unreadable, of an earlier version) holds nothing to lose.
    const earlier = await readExportState(statePath).catch(() => undefined);
    // A run that saved nothing (a refused query, a plan's limit) holds no progress to lose: replaced without `restart`.
    const saved = earlier !== undefined && earlier.counts.records + earlier.counts.rejects > 0;
    if (earlier && !earlier.complete && saved) startAgain(options, identity, statePath, earlier);
    if (earlier?.complete) refuseOverwritingAnother(options, plan, identity, statePath, earlier);
    if (!existsSync(statePath)) refuseOverwritingUnknown(options, plan);
    return undefined;
  }
  const saved = await readExportState(statePath);
  // The export a delta of `changesSince` follows: finished, it is not this run's to resume.
  if (saved?.complete && options.changesSince) return undefined;
  if (!saved) {
    options.onWarning?.(`no saved state in ${statePath}: starting afresh`);
    return undefined;
  }
  const diff = identityMismatch(saved.identity, identity);
  if (diff)
    throw new ToolkitError(
      `the saved state ${statePath} is for another export: ${diff}; use the same options, or start afresh with \`restart\` instead of \`resume\``,
      'state-mismatch',
    );
  return saved;
}

/**
 * A run without `resume` over an unfinished export: refused (nothing is
 * touched) unless `restart` says to throw that export's progress away.
 */
function startAgain(options: ExportOptions, identity: ExportIdentity, statePath: string, earlier: ExportState): void {
  const held = `${earlier.counts.records} records${earlier.total !== null ? ` of ${earlier.total}` : ''}`;
  if (options.restart) {
    options.onWarning?.(
      `an unfinished export (${held}) in ${statePath} is started again from the beginning (\`restart\`)`,
    );
    return;
  }
  const diff = identityMismatch(earlier.identity, identity);
  const next = diff
    ? `it is another export (${diff}): \`restart\` replaces it with this one (its progress is lost), or choose another \`output\``
    : 'run it with `resume` to continue it, or with `restart` to start it again from the beginning (its progress is lost)';
  throw new ToolkitError(
    `${statePath} holds an unfinished export (${held}); nothing was changed: ${next}`,
    'state-mismatch',
    {
      details: { statePath, records: earlier.counts.records, sameExport: diff === undefined },
    },
  );
}

/**
 * A run over the finished dump of another export (its state names another query or other options): refused
 * before anything is written unless `force` or `restart`; the same export again replaces its dump.
 */
function refuseOverwritingAnother(
  options: ExportOptions,
  plan: ExportPlan,
  identity: ExportIdentity,
  statePath: string,
  earlier: ExportState,
): void {
  if (options.force || options.restart || options.changesSince) return;
  const diff = identityMismatch(earlier.identity, identity);
  const what = plan.shards?.naming.manifestPath ?? options.output;
  // Nothing to lose when the dump is gone.
  if (!diff || what === undefined || !existsSync(what)) return;
  throw new ToolkitError(
    `${what} holds the finished dump of another export (${diff}); nothing was changed: pass \`force\` to replace it with this one, or choose another \`output\``,
    'state-mismatch',
    { details: { statePath, records: earlier.counts.records, sameExport: false } },
  );
}

/**
 * A run whose output already holds data that no export's state describes (a file `convert` wrote, a dump whose
 * state was deleted, a file of the user's): refused before anything is written unless `force` or `restart`, as
 * replacing it could destroy work nothing else records. An empty file holds nothing to lose.
 */
function refuseOverwritingUnknown(options: ExportOptions, plan: ExportPlan): void {
  if (options.force || options.restart || options.changesSince) return;
  const what = plan.shards?.naming.manifestPath ?? options.output;
  if (what === undefined) return;
  const size = fileSize(what);
  if (size === undefined || size === 0) return;
  throw new ToolkitError(
    `${what} already exists (${size} bytes) and no export state describes it; nothing was changed: pass \`force\` to replace it, or choose another \`output\``,
    'state-mismatch',
    { details: { output: what, bytes: size } },
  );
}

/** The size of a regular file, or undefined when there is none (a directory or a device is not data to lose). */
function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}
