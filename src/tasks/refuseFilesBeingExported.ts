import { ToolkitError } from '../errors.js';
import { ExportLock } from '../output/ExportLock.js';
import { lockPathOf } from '../export/exportOptions.js';
import { readExportState } from '../export/ExportState.js';

/** What {@link refuseFilesBeingExported} lets through. */
export interface UnfinishedInputOptions {
  /** Take an input an export is still writing (its lock is held) as it is. Defaults to false. */
  ignoreExportLock?: boolean;
  /** Take the dump of an unfinished export (its state says so, or it is a `.partial` file) as it is. Defaults to false. */
  allowPartial?: boolean;
}

/**
 * The one rule of `validate`, `load` and `upsert` for a dump that is not whole (code `usage`, nothing read):
 * an input an export is still writing (its lock is there, held by a process that runs) is refused unless
 * `ignoreExportLock`; the dump of an export that stopped unfinished (its state file `<dump>.state.json`
 * says so, or it is a `<dump>.partial` file, the name an export writes under until it has finished) is
 * refused unless `allowPartial`. `verb` says what the command would do with it.
 */
export async function refuseFilesBeingExported(
  paths: readonly string[],
  verb: string,
  options: UnfinishedInputOptions = {},
): Promise<void> {
  const Verb = `${verb[0]!.toUpperCase()}${verb.slice(1)}`;
  for (const path of paths) {
    if (!options.ignoreExportLock) {
      const lock = await lockPathOf(path.endsWith('.partial') ? path.slice(0, -'.partial'.length) : path);
      const holder = await ExportLock.holder(lock);
      if (holder) {
        throw new ToolkitError(
          `${path} is still being written by an export (process ${holder.pid}, lock ${lock}): what is there now is only part of it. ` +
            `${Verb} it once the export has finished, or pass \`ignoreExportLock\` to ${verb} it as it is`,
          'usage',
          { details: { path, lock, pid: holder.pid } },
        );
      }
    }
    if (!options.allowPartial) await refuseUnfinished(path, verb, Verb);
  }
}

/** Refuses the dump of an unfinished export (see {@link refuseFilesBeingExported}). */
async function refuseUnfinished(path: string, verb: string, Verb: string): Promise<void> {
  const partial = path.endsWith('.partial');
  const dump = partial ? path.slice(0, -'.partial'.length) : path;
  const statePath = `${dump}.state.json`;
  const state = await readExportState(statePath).catch(() => undefined);
  // A state that says finished, or one whose dump is written under the temporary name (the file here is an earlier finished one).
  const unfinished = state !== undefined && !state.complete && (partial || state.output.partial !== true);
  if (!unfinished && !partial) return;
  const held =
    state && !state.complete
      ? ` (${state.counts.records} records${state.total !== null ? ` of ${state.total}` : ''} so far; ${statePath} says unfinished)`
      : '';
  throw new ToolkitError(
    `${path} is the dump of an export that has not finished${held}: it is only part of it. ` +
      `${Verb} it once the export has finished (run it again with \`resume\`), or pass \`allowPartial\` to ${verb} it as it is`,
    'usage',
    { details: { path, ...(state ? { statePath } : {}) } },
  );
}
