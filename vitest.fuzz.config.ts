import { defineConfig } from 'vitest/config';

/**
 * The nightly-sized fuzz run (`npm run test:fuzz`): the property tests of
 * test/fuzz/ with 50 times the cases of `npm test` (FUZZ_SCALE to change
 * that) and a fresh seed each run (FUZZ_SEED to replay one; fast-check
 * prints the seed and the shrunk counterexample of a failure). Each file
 * prints its seed, case count and time.
 */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    exclude: ['test/fuzz/torture.test.ts', 'node_modules/**'],
    env: { FUZZ: '1' },
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
  },
});
