import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The unit suite (`npm test`): everything under test/ but the integration
 * suite (vitest.integration.config.ts).
 *
 * Speed (under half the time the defaults took on a 2-core machine):
 * - `isolate: false` (project `unit`): a worker imports the source tree and
 *   the RDF libraries once for all the files it runs, instead of once per
 *   file (the import was about a third of the run). The module-level caches
 *   of src/ (the sample catalogue, the shipped JSON-LD context, the tuned
 *   shacl-engine getters) are the process-wide ones the CLI shares too; a
 *   test file must leave the process as it found it (cwd, env, exit code,
 *   signal handlers, globals), and `npx vitest run --sequence.shuffle.files`
 *   checks that the order of the files does not matter.
 * - Project `isolated`: the files that mock a module (a mock needs a fresh
 *   module graph and must not outlive its file), stub a global or an
 *   environment variable or fake the clock — found by {@link ISOLATING} —
 *   run with a fresh module graph each, as every file did before.
 * - `maxWorkers: '100%'`: a worker per core (vitest's default leaves one
 *   core to itself, i.e. a single worker on 2 cores).
 * - `pool: 'forks'` (the default, stated): each worker is a process of its
 *   own, so tests that start worker threads or read process.stdin/stdout do
 *   so as the CLI does.
 */

const TESTS = 'test/**/*.test.ts';
/** The global setup of every config: the run's temp directory (TMPDIR), removed at the end. */
export const TEMP_ROOT = 'test/helpers/tempRoot.ts';
// The shipped shapes' native constraints against their SPARQL originals run through Comunica (about
// 3 minutes on its own): a conformance check, run with the spec suites (vitest.spec.config.ts), not here.
export const CONFORMANCE = ['test/shacl/engine/shippedShapes.test.ts'];
const EXCLUDED = ['test/integration/**', 'test/spec/**', 'node_modules/**', ...CONFORMANCE];

/** What makes a test file run in the `isolated` project. */
const ISOLATING = /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|resetModules|stubGlobal|stubEnv|useFakeTimers|setSystemTime)\s*\(/;

/** The unit test files (paths relative to this file's directory) whose text matches {@link ISOLATING}. */
function filesNeedingIsolation(): string[] {
  const testDir = fileURLToPath(new URL('test/', import.meta.url));
  return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.test.ts') && !path.startsWith('integration/'))
    .filter((path) => ISOLATING.test(readFileSync(testDir + path, 'utf8')))
    .map((path) => `test/${path}`)
    .sort();
}

const isolated = filesNeedingIsolation();

export default defineConfig({
  test: {
    // No test asserts how long something took; a time limit only catches a hang. 30 s was too tight on a loaded
    // 2-core machine (the W3C SHACL cases of FastConformance took 33 s beside another run); see README "Tests".
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The run's temp directory, removed at the end; what a test leaves in it is named on stderr.
    globalSetup: [TEMP_ROOT],
    pool: 'forks',
    maxWorkers: '100%',
    projects: [
      { extends: true, test: { name: 'unit', include: [TESTS], exclude: [...EXCLUDED, ...isolated], isolate: false } },
      ...(isolated.length > 0 ? [{ extends: true, test: { name: 'isolated', include: isolated, exclude: EXCLUDED, isolate: true } }] : []),
    ],
  },
});
