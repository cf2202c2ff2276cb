/**
 * `npm run sample`: (re)writes the bundled sample catalogue
 * `data/sample-catalogue.jsonl` from the generator (or the file named by the
 * first argument). A script, not library code.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { sampleCataloguePath, sampleCatalogueText } from './sampleCatalogue.js';

/** Writes the sample catalogue and returns its path. */
export function writeSampleCatalogue(path = sampleCataloguePath()): string {
  writeFileSync(path, sampleCatalogueText());
  return path;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = writeSampleCatalogue(process.argv[2] || undefined);
  process.stdout.write(`wrote ${path}\n`);
}
