/**
 * What the catalogue index reads from a record: the searchable and facetable
 * values, whatever the key spelling (`journalId`/`journalid`,
 * `openaccess`/`openAccess`, `keyword`/`keywords`) or shape (strings or arrays).
 */

import { KEY_SPELLINGS } from '../contract/keySpellings.js';

type Json = Record<string, unknown>;

/** The first non-empty string under one of a key's spellings. */
function spelled(r: Json, spellings: readonly string[]): string {
  for (const key of spellings) {
    const v = str(r[key]);
    if (v) return v;
  }
  return '';
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const v of value) if (typeof v === 'string' && v !== '') out.push(v);
  return out;
}

/** The title. */
export function titleOf(r: Json): string {
  return str(r.title);
}

/** Creator names (`creators[].creator`, or plain strings). */
export function namesOf(r: Json): string[] {
  const creators = r.creators;
  if (!Array.isArray(creators)) return strings(creators);
  const out: string[] = [];
  for (const c of creators) {
    if (typeof c === 'string') {
      if (c) out.push(c);
    } else if (c && typeof c === 'object') {
      const name = str((c as Json).creator);
      if (name) out.push(name);
    }
  }
  return out;
}

/** Journal or book title (`publicationName`, or the v1 `journalTitle`). */
export function publicationNameOf(r: Json): string {
  return str(r.publicationName) || str(r.journalTitle);
}

/** Subjects, discipline terms and the catalogue-only `_subjects`, without duplicates. */
export function subjectsOf(r: Json): string[] {
  const out = strings(r.subjects);
  if (r._subjects !== undefined) out.push(...strings(r._subjects));
  const disciplines = r.disciplines;
  if (Array.isArray(disciplines)) {
    for (const d of disciplines) {
      const term = d && typeof d === 'object' ? str((d as Json).term) : '';
      if (term) out.push(term);
    }
  }
  return out.length > 1 ? [...new Set(out)] : out;
}

/** Author keywords (`keyword` or `keywords`, and the catalogue-only `_keywords`), without duplicates. */
export function keywordsOf(r: Json): string[] {
  const out = strings(r[KEY_SPELLINGS.keywords[0]] ?? r[KEY_SPELLINGS.keywords[1]]);
  if (r._keywords !== undefined) out.push(...strings(r._keywords));
  return out.length > 1 ? [...new Set(out)] : out;
}

/** The DOI (`doi`, else `identifier` without `doi:`). */
export function doiOf(r: Json): string {
  const doi = str(r.doi);
  if (doi) return doi;
  const id = str(r.identifier);
  return id.startsWith('doi:') ? id.slice(4) : '';
}

/** The publication year (from publicationDate, else coverDate, else onlineDate). */
export function yearOf(r: Json): string {
  for (const key of ['publicationDate', 'coverDate', 'onlineDate']) {
    const v = r[key];
    if (typeof v === 'string' && v.length >= 4 && digits(v, 0, 4)) return v.slice(0, 4);
  }
  return '';
}

function digits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The journal id, either spelling. */
export function journalIdOf(r: Json): string {
  return spelled(r, KEY_SPELLINGS.journalId);
}

/** ISSNs (print and electronic). */
export function issnsOf(r: Json): string[] {
  return [str(r.issn), str(r.eIssn), str(r.printIssn), str(r.electronicIssn)].filter((s) => s !== '');
}

/** ISBNs (`isbn`, `printIsbn`, `electronicIsbn`). */
export function isbnsOf(r: Json): string[] {
  return [str(r.isbn), str(r.printIsbn), str(r.electronicIsbn)].filter((s) => s !== '');
}

/** Publication type (Journal, Book). */
export function publicationTypeOf(r: Json): string {
  return str(r.publicationType);
}

/** Content type (Article, Chapter, Protocol). */
export function contentTypeOf(r: Json): string {
  return str(r.contentType);
}

/** Language code. */
export function languageOf(r: Json): string {
  return str(r.language);
}

/** Open access flag, either spelling, as sent (`true`/`false`). */
export function openAccessOf(r: Json): string {
  return spelled(r, KEY_SPELLINGS.openaccess).toLowerCase();
}

/** Affiliation countries: the catalogue-only `_countries` key. */
export function countriesOf(r: Json): string[] {
  return strings(r._countries);
}

/** A `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`) date as the number YYYYMMDD (missing parts 00); 0 if none. */
export function dateNumber(value: unknown): number {
  if (typeof value !== 'string' || value.length < 4 || !digits(value, 0, 4)) return 0;
  let n = Number(value.slice(0, 4)) * 10000;
  if (value.length >= 7 && value.charCodeAt(4) === 45 && digits(value, 5, 7)) {
    n += Number(value.slice(5, 7)) * 100;
    if (value.length >= 10 && value.charCodeAt(7) === 45 && digits(value, 8, 10)) n += Number(value.slice(8, 10));
  }
  return n;
}

/** The abstract as plain text (`{h1, p}` objects joined). */
export function abstractText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Json;
    const p = Array.isArray(o.p) ? o.p.filter((x) => typeof x === 'string').join(' ') : str(o.p);
    return [str(o.h1), p].filter((s) => s !== '').join(' ');
  }
  if (Array.isArray(value)) return value.filter((x) => typeof x === 'string').join(' ');
  return '';
}
