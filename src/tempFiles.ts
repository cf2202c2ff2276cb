import { rmSync } from 'node:fs';

/**
 * Temporary files and directories in use (a partial output, regrouping
 * buckets), so that a run stopped hard (a second Ctrl-C) can still remove
 * them: the CLI calls {@link removeTempFiles} before it exits.
 */
const inUse = new Set<string>();

/** Notes a temporary file or directory. */
export function registerTempFile(path: string): void {
  inUse.add(path);
}

/** Forgets one (removed, or renamed into place). */
export function unregisterTempFile(path: string): void {
  inUse.delete(path);
}

/** Removes every temporary file and directory still in use, synchronously (for an exit path). */
export function removeTempFiles(): void {
  for (const path of inUse) rmSync(path, { recursive: true, force: true });
  inUse.clear();
}
