/**
 * How hard the property tests run. `npm test`: a fixed seed and a few
 * thousand cases in all. `npm run test:fuzz` (vitest.fuzz.config.ts sets
 * FUZZ=1): 50 times as many cases, a fresh seed each run unless FUZZ_SEED is
 * set (the seed is printed, and fast-check prints it again on a failure).
 */
import fc from 'fast-check';

const nightly = process.env['FUZZ'] === '1';
const scale = Number(process.env['FUZZ_SCALE'] ?? (nightly ? 50 : 1));
const seed =
  process.env['FUZZ_SEED'] !== undefined ? Number(process.env['FUZZ_SEED']) : nightly ? Date.now() % 2 ** 31 : 20261122;

/** Cases run per property, by name (for the report printed in fuzz mode). */
export const casesRun = new Map<string, number>();

/** fast-check parameters for a property with `base` cases in `npm test`. */
export function fuzzParams(name: string, base: number): fc.Parameters<unknown> {
  const numRuns = Math.max(1, Math.round(base * scale));
  casesRun.set(name, numRuns);
  return { seed, numRuns };
}

/** Whether this is the nightly-sized run. */
export const isNightly = nightly;

/** The seed in use. */
export const fuzzSeed = seed;

/** Prints the cases run by a file (fuzz mode only). */
export function reportCases(file: string, startedAt: number): void {
  if (!nightly) return;
  const total = [...casesRun.values()].reduce((a, b) => a + b, 0);
  const lines = [...casesRun].map(([n, c]) => `  ${n}: ${c}`).join('\n');
  console.log(
    `[fuzz] ${file}: seed ${seed}, ${total} cases in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n${lines}`,
  );
}
