import { ToolkitError } from '../errors.js';
import { ExportLock } from '../export/ExportLock.js';
import { lockPathOf } from '../export/exportOptions.js';

/**
 * Refuses (code `usage`) an input an export is still writing: its lock is there, held by a process that
 * runs. `verb` says what the command would do with it (`validate`, `load`); the message names the option
 * `ignoreExportLock` that takes the input as it is.
 */
export async function refuseFilesBeingExported(paths: readonly string[], verb: string): Promise<void> {
  for (const path of paths) {
    const lock = await lockPathOf(path);
    const holder = await ExportLock.holder(lock);
    if (holder) {
      throw new ToolkitError(
        `${path} is still being written by an export (process ${holder.pid}, lock ${lock}): what is there now is only part of it. ` +
          `${verb[0]!.toUpperCase()}${verb.slice(1)} it once the export has finished, or pass \`ignoreExportLock\` to ${verb} it as it is`,
        'usage',
        { details: { path, lock, pid: holder.pid } },
      );
    }
  }
}
