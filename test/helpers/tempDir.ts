import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * A new directory `<prefix>XXXXXX` in the temp directory (the run's, `test/helpers/tempRoot.ts`), removed
 * with all it holds when the test that called this finishes (passed or failed: `onTestFinished`), or, called
 * at file or `describe` level, after the suite it was called in (`afterAll`).
 *
 * Not from a `beforeAll` or `afterAll` hook (`onTestFinished` needs a test, and `afterAll` registered while the
 * suite runs would not be run): call it at the suite's level instead, and fill the directory in the hook.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove);
  }
  return dir;
}
