import { defineConfig } from 'vitest/config';

/**
 * The integration suite (`npm run test:integration`, run by .ci/run): real
 * tools (Apache Jena, rapper, Python rdflib) and a private Virtuoso 7 started
 * by the global setup. Files run one at a time (they share the server).
 */
export default defineConfig({
  test: {
    include: ['test/integration/**/*.test.ts'],
    globalSetup: ['test/integration/globalSetup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
