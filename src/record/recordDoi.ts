/**
 * DOIs: where a record names its DOI, what a DOI looks like, and when two
 * DOIs are the same. Every place that derives or compares a record's DOI
 * (the normaliser and so the mapper, the harvest's de-duplication, the
 * catalogue's DOI index, the CLI's `get`) goes through these rules.
 */

import { cleanText, cleanedText } from './cleanText.js';

/** The fields that may name a record's DOI: of a record as the service sent it, or of a normalised one. */
export interface DoiFields {
  doi?: unknown;
  identifier?: unknown;
}

// The DOI resolver, as record links and users write it: http or https, doi.org or dx.doi.org, any case.
const RESOLVER = /^https?:\/\/(dx\.)?doi\.org\//i;
const PREFIX = /^doi:/i;
const SHAPE = /^10\.\d+\/./;

/**
 * The DOI a record names: its `doi` when that is a string with more than
 * white space, trimmed; else its `identifier` when that is `doi:<doi>`
 * (the prefix in any case; white space around the identifier and after the
 * prefix trimmed); else `undefined`. The DOI is kept as written, its case
 * too (the work's IRI is made of it): compare DOIs by {@link doiKey}.
 */
export function recordDoi(record: DoiFields): string | undefined {
  const { doi, identifier } = record;
  if (typeof doi === 'string') {
    const trimmed = doi.trim();
    if (trimmed !== '') return trimmed;
  }
  if (typeof identifier !== 'string') return undefined;
  const id = identifier.trim();
  if (!PREFIX.test(id)) return undefined;
  const fromIdentifier = id.slice(4).trim();
  return fromIdentifier === '' ? undefined : fromIdentifier;
}

/**
 * What a DOI is known by, for de-duplication and look-up: cleaned as the
 * normaliser cleans a record's text ({@link cleanText}: the characters no RDF
 * format can carry removed — NUL, U+FFFE… —, lone surrogates replaced, NFC),
 * trimmed and lower case (DOIs are case-insensitive: `10.1/ABC` and
 * `10.1/abc` are one work). Two DOIs as sent that the normaliser makes one
 * (`10.1/a` and `10.1/a\u0000`, or a decomposed and a composed `é`) have one
 * key: the harvest, the record pipeline, the catalogue and `get` see one DOI
 * where the mapped output has one work.
 */
export function doiKey(doi: string): string {
  // Printable ASCII (nearly every DOI) is text cleaning leaves as it is.
  return (PLAIN.test(doi) ? doi : cleanText(doi).text).trim().toLowerCase();
}

const PLAIN = /^[\t\n\r\x20-\x7E]*$/;

/**
 * The DOI the normaliser (`normalizeRecord`) gives a record as sent, without normalising
 * the rest of it: its `doi` key in any case (the first non-empty one), else
 * its `identifier` when that is `doi:<doi>`, each cleaned ({@link cleanText})
 * and trimmed as the normaliser does; `undefined` when it names none. The
 * harvest de-duplicates by it, so it drops exactly the records that would be
 * one work after mapping. (A `doi` that is not text, which the normaliser
 * rejects, is passed over.)
 */
export function sentRecordDoi(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  let doi: string | undefined;
  let identifier: string | undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const k = key.toLowerCase();
    if ((k !== 'doi' && k !== 'identifier') || (k === 'doi' ? doi : identifier) !== undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const cleaned = cleanedText(String(value)).trim();
    if (cleaned === '') continue;
    if (k === 'doi') doi = cleaned;
    else identifier = cleaned;
  }
  return recordDoi({ doi, identifier });
}

/** Whether text has the shape of a DOI: `10.<digits>/<suffix>`. */
export function isDoi(text: string): boolean {
  return SHAPE.test(text);
}

/**
 * A DOI as a user types it, bare: trimmed, without one leading resolver
 * (`https://doi.org/`, `http://dx.doi.org/`, any case) or `doi:` prefix, and
 * trimmed again. Anything else is returned trimmed, as typed.
 */
export function bareDoi(text: string): string {
  const trimmed = text.trim();
  const prefix = RESOLVER.exec(trimmed)?.[0] ?? PREFIX.exec(trimmed)?.[0];
  return prefix === undefined ? trimmed : trimmed.slice(prefix.length).trim();
}

/** Whether a URL is a DOI resolver's (`https://doi.org/...`, `http://dx.doi.org/...`, any case). */
export function isDoiResolverUrl(url: string): boolean {
  return RESOLVER.test(url);
}

/**
 * Whether an identifier names a DOI: it is `doi:` followed by the DOI,
 * compared without regard to case (nothing else around them).
 */
export function identifierNamesDoi(identifier: string, doi: string): boolean {
  return identifier.toLowerCase() === `doi:${doi}`.toLowerCase();
}
