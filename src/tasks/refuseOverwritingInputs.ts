import { statSync } from 'node:fs';
import { ToolkitError } from '../errors.js';

/**
 * A usage error when an output would replace one of the inputs (the same
 * file, whatever the path or link that names it): `validate d.ttl --report
 * d.ttl` must not truncate the dump before reading it. Outputs that do not
 * exist yet, and stdin/stdout (`-`), are fine.
 */
export function refuseOverwritingInputs(outputs: readonly string[], inputs: readonly string[], what: string): void {
  const ids = new Map<string, string>();
  for (const input of inputs) {
    const id = fileId(input);
    if (id) ids.set(id, input);
  }
  for (const output of outputs) {
    const id = fileId(output);
    const input = id ? ids.get(id) : undefined;
    if (input !== undefined) throw new ToolkitError(`${what} (${output}) would overwrite the input ${input}: choose another file`, 'usage');
  }
}

/** Device and inode of a file, or undefined when there is none (or for `-`). */
function fileId(path: string): string | undefined {
  if (path === '-') return undefined;
  try {
    const info = statSync(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}
