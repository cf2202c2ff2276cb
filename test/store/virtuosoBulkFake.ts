import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/tempDir.js';

/** The password the fake isql accepts. */
export const FAKE_PASSWORD = 'Fake-Virtuoso-Pw-4711';

/** A fake `isql-vt` (virtuosoBulkFakeIsql.mjs) in a fresh folder: its command, its state file, and what it was sent. */
export interface FakeIsql {
  dir: string;
  command: string;
  /** The statements every session received, in order. */
  statements(): string[];
}

/** Makes a fake isql (a shell script running the .mjs with the state file and delay in its environment). */
export function fakeIsql(options: { delayMs?: number } = {}): FakeIsql {
  const dir = tempDir('bulk-fake-isql-');
  const state = join(dir, 'state.json');
  const script = resolve(import.meta.dirname, 'virtuosoBulkFakeIsql.mjs');
  const command = join(dir, 'isql-fake');
  writeFileSync(
    command,
    `#!/bin/sh\nFAKE_ISQL_STATE='${state}' FAKE_ISQL_PASSWORD='${FAKE_PASSWORD}' FAKE_ISQL_DELAY='${options.delayMs ?? 0}' exec '${process.execPath}' '${script}' "$@"\n`,
  );
  chmodSync(command, 0o755);
  return {
    dir,
    command,
    statements: () => {
      try {
        return (JSON.parse(readFileSync(state, 'utf8')) as { statements: string[] }).statements;
      } catch {
        return [];
      }
    },
  };
}
