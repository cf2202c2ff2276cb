import { statSync } from 'node:fs';
import { ToolkitError } from '../errors.js';
import type { NamedOutput } from './refuseOverwritingInputs.js';

/**
 * A usage error when one of `outputs`, files a job writes under a temporary
 * name and renames into place (an export's dump, state and description), is
 * a device or a pipe (`/dev/null`, a FIFO): the rename would replace it with
 * a file (run as root, `export -o /dev/null` replaced the system's
 * `/dev/null`). Call it before anything is opened for writing. Files not
 * there yet, regular files and folders pass.
 */
export function refuseReplacingDevices(outputs: readonly NamedOutput[]): void {
  for (const output of outputs) {
    if (output.family) continue;
    const info = statSync(output.path, { throwIfNoEntry: false });
    if (info === undefined || info.isFile() || info.isDirectory()) continue;
    throw new ToolkitError(
      `${output.what} (${output.path}) is a device or a pipe, not a file: it is written under a temporary name and renamed into place, which would replace it; name a file (a dump can go to stdout with \`-\`)`,
      'usage',
      { details: { path: output.path } },
    );
  }
}
