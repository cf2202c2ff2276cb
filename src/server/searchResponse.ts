import type { Catalogue } from './Catalogue.js';
import { FACET_NAMES, type FacetValue } from './FacetIndex.js';
import { abstractText } from './recordFields.js';

import type { EnvelopeKind } from '../contract/endpoints.js';

export type { EnvelopeKind } from '../contract/endpoints.js';

/** What a search page is made of. */
export interface SearchPage {
  kind: EnvelopeKind;
  /** Path of the endpoint (for `nextPage`). */
  path: string;
  apiMessage: string;
  query: string;
  apiKey: string;
  callback: string;
  s: number;
  p: number;
  /** All matching ids, in catalogue order. */
  ids: Int32Array;
  /** Facets over all matches (not for articles-v1). */
  facets?: { name: string; values: FacetValue[] }[];
}

/** Facets of a result: every facet of {@link FACET_NAMES}, at most 20 values each. */
export function facetsOf(catalogue: Catalogue, ids: Int32Array): { name: string; values: FacetValue[] }[] {
  const values = catalogue.facets(ids);
  return FACET_NAMES.map((name, k) => ({ name, values: values[k]! }));
}

/**
 * The relative URL of the next page: the endpoint's path with q, s (+p), p,
 * api_key and callback, each percent-encoded.
 */
export function nextPageUrl(
  path: string,
  query: string,
  s: number,
  p: number,
  apiKey: string,
  callback: string,
): string {
  const e = encodeURIComponent;
  return `${path}?q=${e(query)}&s=${s + p}&p=${p}&api_key=${e(apiKey)}&callback=${e(callback)}`;
}

/**
 * The JSON text of a search page, keys in the order the real service sends
 * them, every value a string. Past the end (s > total) the page says
 * `total "0"`, has no records and facets with empty values, as the service does.
 */
export function searchPageJson(catalogue: Catalogue, page: SearchPage): string {
  const { kind, s, p, ids } = page;
  const pastEnd = s - 1 >= ids.length;
  const pageIds = pastEnd ? new Int32Array(0) : ids.subarray(s - 1, s - 1 + p);
  const total = pastEnd ? 0 : ids.length;
  const more = !pastEnd && s - 1 + p < ids.length;
  const parts: string[] = [];
  if (kind !== 'meta-v1') parts.push(`"apiMessage":${JSON.stringify(page.apiMessage)}`);
  parts.push(`"query":${JSON.stringify(page.query)}`);
  if (kind !== 'articles-v1') {
    parts.push(`"apiKey":${JSON.stringify(page.apiKey)}`);
    if (more)
      parts.push(`"nextPage":${JSON.stringify(nextPageUrl(page.path, page.query, s, p, page.apiKey, page.callback))}`);
  }
  const summary: Record<string, string> = { total: String(total), start: String(s), pageLength: String(p) };
  if (kind !== 'meta-v1') summary.recordsDisplayed = String(pageIds.length);
  parts.push(`"result":[${JSON.stringify(summary)}]`);
  const records: string[] = [];
  for (let i = 0; i < pageIds.length; i++) {
    const id = pageIds[i]!;
    records.push(kind === 'articles-v1' ? JSON.stringify(articleV1(catalogue.record(id))) : catalogue.recordJson(id));
  }
  parts.push(`"records":[${records.join(',')}]`);
  if (kind !== 'articles-v1') {
    const facets = pastEnd
      ? FACET_NAMES.map((name) => ({ name, values: [] }))
      : (page.facets ?? facetsOf(catalogue, ids));
    parts.push(`"facets":${JSON.stringify(facets)}`);
  }
  return `{${parts.join(',')}}`;
}

/** A record of the `/metadata/v1/` family (seed §2.5): title, doi, abstract, publicationDate, journalTitle. */
export function articleV1(r: Record<string, unknown>): Record<string, string> {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    title: s(r.title),
    doi: s(r.doi) || (s(r.identifier).startsWith('doi:') ? s(r.identifier).slice(4) : ''),
    abstract: abstractText(r.abstract),
    publicationDate: s(r.publicationDate),
    journalTitle: s(r.publicationName) || s(r.journalTitle),
  };
}
