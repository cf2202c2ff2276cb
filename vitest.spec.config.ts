import { defineConfig } from 'vitest/config';

/**
 * The spec suites (`npm run spec`, run by .ci/run): the W3C test suites copied into test/spec/ by
 * scripts/fetchSpecSuites.sh, run offline through the toolkit's own paths (test/spec/*.test.ts). Each
 * prints an EARL-like table of its tests' outcomes.
 */
export default defineConfig({
  test: {
    include: ['test/spec/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
