import { sampleCataloguePath } from '../sample/sampleCatalogue.js';
import { Catalogue } from './Catalogue.js';
import { SAMPLE_API_KEY, type ServeOptions } from './ServeOptions.js';

let cached: Catalogue | undefined;

/**
 * Options that serve the bundled sample catalogue (300 generated records,
 * loaded once per process and shared) and accept the key `sample` with a
 * premium plan (pages up to 100): what `export --sample` runs against.
 */
export function sampleCatalogueOptions(): ServeOptions & { apiKeys: { key: string; plan: 'premium' }[] } {
  cached ??= Catalogue.fromFile(sampleCataloguePath());
  return { catalogue: cached, apiKeys: [{ key: SAMPLE_API_KEY, plan: 'premium' }] };
}
