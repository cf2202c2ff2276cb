import { defineConfig } from 'vitest/config';
import { CONFORMANCE, TEMP_ROOT } from './vitest.config.js';

/**
 * The spec suites (`npm run spec`, run by .ci/run): the W3C test suites copied into test/spec/ by
 * scripts/fetchSpecSuites.sh, run offline through the toolkit's own paths (test/spec/*.test.ts). Each
 * prints an EARL-like table of its tests' outcomes. Also the conformance checks too slow for the unit suite
 * (CONFORMANCE in vitest.config.ts: the shipped shapes' native constraints against their SPARQL originals).
 */
export default defineConfig({
  test: {
    include: ['test/spec/**/*.test.ts', ...CONFORMANCE],
    globalSetup: [TEMP_ROOT],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
