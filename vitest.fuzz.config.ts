import { defineConfig } from 'vitest/config';
import { TEMP_ROOT } from './vitest.config.js';

/**
 * The nightly-sized fuzz run (`npm run test:fuzz`): the property tests of
 * test/fuzz/ with 50 times the cases of `npm test` (FUZZ_SCALE to change
 * that) and a fresh seed each run (FUZZ_SEED to replay one; fast-check
 * prints the seed and the shrunk counterexample of a failure). Each file
 * prints its seed, case count and time.
 *
 * Unlike `npm test`, files run isolated (each imports its modules afresh):
 * the case count a file prints is the sum over test/fuzz/fuzzConfig.ts's
 * module-level `casesRun`, which a shared module would carry from one file
 * into the next.
 *
 * Also the whole hostile-input corpus (test/fuzz/hostile.test.ts; `npm test`
 * runs its light cases, or all of them under CI=true): the sources built
 * into a temp dir, each hostile file through the CLI in a process of its
 * own, with a capped heap and a deadline.
 */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    exclude: ['test/fuzz/torture.test.ts', 'node_modules/**'],
    env: { FUZZ: '1' },
    globalSetup: [TEMP_ROOT],
    isolate: true,
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
  },
});
