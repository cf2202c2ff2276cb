/**
 * Global setup of every vitest config (vitest.config.ts, vitest.fuzz.config.ts, vitest.spec.config.ts,
 * vitest.integration.config.ts): one temp directory for the whole run, `scholarly-rdf-tests-XXXXXX` under
 * the system's, which the tests' temp files and directories go into and which is removed at the end.
 *
 * Setup creates it and points `TMPDIR`, `TMP` and `TEMP` at it before the workers start, so `os.tmpdir()`
 * in the workers, and every process they start (the CLI, worker threads, Python), write there. Teardown
 * names on stderr what the tests left in it (a test that leaks is seen: `test/helpers/tempDir.ts` is the
 * way not to) and removes it, whatever the tests' outcome.
 *
 * When a config has several projects, each runs this setup: the first creates the directory and sets
 * {@link TEMP_ROOT_VARIABLE}; the others find it set and leave the directory to the first, whose teardown
 * runs last (vitest tears down in the reverse order). In a config with other global setups, this one comes
 * first, so that theirs (which may keep files here, such as a store's folder) tear down before it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable naming the run's temp directory, set by the setup that created it. */
export const TEMP_ROOT_VARIABLE = 'SCHOLARLY_RDF_TEST_TMPDIR';

/** The prefix of the run's temp directory's name (under the system temp directory). */
export const TEMP_ROOT_PREFIX = 'scholarly-rdf-tests-';

/** The environment variables `os.tmpdir()` (and Python's `tempfile`) read. */
const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/**
 * Creates the run's temp directory in `parent` (by default the system temp directory), unless `env`'s
 * {@link TEMP_ROOT_VARIABLE} already names one, and points `env`'s temp variables at it. Returns the
 * directory when this call created it (then the caller removes it), else undefined.
 */
export function createTempRoot(env: NodeJS.ProcessEnv, parent: string = tmpdir()): string | undefined {
  if (env[TEMP_ROOT_VARIABLE]) return undefined;
  const dir = mkdtempSync(join(parent, TEMP_ROOT_PREFIX));
  env[TEMP_ROOT_VARIABLE] = dir;
  for (const name of TEMP_VARIABLES) env[name] = dir;
  return dir;
}

/**
 * Removes the run's temp directory `dir`, first writing to `write` (by default stderr) the names of the
 * entries the tests left in it, if any.
 */
export function removeTempRoot(dir: string, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  const left = readdirSync(dir).sort();
  if (left.length > 0) {
    write(
      `\ntest/helpers/tempRoot.ts: the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp directory (now removed; use tempDir() of test/helpers/tempDir.ts):\n` +
        left.map((name) => `  ${name}\n`).join(''),
    );
  }
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** vitest's global setup: {@link createTempRoot} on process.env; its teardown {@link removeTempRoot}. */
export default function setup(): () => void {
  const saved = Object.fromEntries([TEMP_ROOT_VARIABLE, ...TEMP_VARIABLES].map((name) => [name, process.env[name]]));
  const dir = createTempRoot(process.env);
  if (dir === undefined) return () => {};
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    removeTempRoot(dir);
  };
}
