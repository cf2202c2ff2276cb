import { defineConfig } from 'vitest/config';
import { TEMP_ROOT } from './vitest.config.js';

/**
 * The integration suite (`npm run test:integration`, run by .ci/run): real
 * tools (Apache Jena, rapper, Python rdflib) and a private Virtuoso 7 started
 * by the global setup. Files run one at a time (they share the server).
 */
export default defineConfig({
  test: {
    include: ['test/integration/**/*.test.ts'],
    // TEMP_ROOT first: vitest tears down in the reverse order, so the stores stop before their temp dirs go.
    globalSetup: [TEMP_ROOT, 'test/integration/globalSetup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
