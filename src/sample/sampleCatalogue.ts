import { fileURLToPath } from 'node:url';
import { generateRecords } from './generateRecords.js';

/** Number of records in the bundled sample catalogue. */
export const SAMPLE_CATALOGUE_SIZE = 300;

/** Seed of the bundled sample catalogue. */
export const SAMPLE_CATALOGUE_SEED = 1;

/**
 * Absolute path of a file of the package (`vocab/…`, `data/…`), resolved from
 * this module: works from `src/` (vitest) and from `dist/` alike, since both
 * sit one level below the package root.
 */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(`../../${relative}`, import.meta.url));
}

/** Absolute path of the bundled sample catalogue (`data/sample-catalogue.jsonl`). */
export function sampleCataloguePath(): string {
  return packagePath('data/sample-catalogue.jsonl');
}

/**
 * The text of the bundled sample catalogue: newline-delimited JSON, one
 * generated record per line, with the catalogue-only `_countries` key.
 * `npm run sample` writes it to `data/sample-catalogue.jsonl`.
 */
export function sampleCatalogueText(count = SAMPLE_CATALOGUE_SIZE, seed = SAMPLE_CATALOGUE_SEED): string {
  let out = '';
  for (const record of generateRecords(count, seed, { catalogueFields: true })) out += `${JSON.stringify(record)}\n`;
  return out;
}
