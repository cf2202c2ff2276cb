import { readFileSync } from 'node:fs';
import { ToolkitError } from '../errors.js';

/**
 * The URL at which the toolkit's JSON-LD context (`vocab/context.jsonld`) is
 * published. Output written with `jsonldContext: CONTEXT_URL` references it
 * instead of embedding it.
 */
export const CONTEXT_URL = 'https://w3id.org/scholarly-rdf/context.jsonld';

/** Where the shipped context lives: `vocab/context.jsonld` of the package (same path from `src/` and `dist/`). */
export const CONTEXT_FILE_URL = new URL('../../vocab/context.jsonld', import.meta.url);

/** A JSON-LD context object: term or prefix -> IRI or expanded term definition. */
export type JsonLdContextObject = Record<string, string | { '@id': string; '@type'?: string }>;

let cached: JsonLdContextObject | undefined;

/**
 * The shipped JSON-LD context (the value of `@context` in `vocab/context.jsonld`).
 * Read once, then cached; treat it as read-only.
 */
export function shippedContext(): JsonLdContextObject {
  if (!cached) {
    try {
      const doc = JSON.parse(readFileSync(CONTEXT_FILE_URL, 'utf8')) as { '@context': JsonLdContextObject };
      cached = doc['@context'];
    } catch (cause) {
      throw new ToolkitError(`cannot read the shipped JSON-LD context ${CONTEXT_FILE_URL.pathname}`, 'internal', {
        cause,
      });
    }
  }
  return cached;
}
