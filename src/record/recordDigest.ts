import { TextHasher } from './DoiSet.js';
import { STRING_KEYS } from './normalizeRecord.js';
import type { AbstractText, ScholarlyRecord } from './types.js';

/** The text fields of a record's content (the normaliser's, but the DOI), in a fixed order. */
const TEXTS = STRING_KEYS.filter((key) => key !== 'doi' && key !== 'identifier');

/** The other fields of a record's content, each read below. */
type Structured =
  'urls' | 'creators' | 'genre' | 'subjects' | 'keywords' | 'disciplines' | 'abstract' | 'conferenceInfo';

/**
 * Left out of the digest: the DOI the records are compared by (`doi`, `identifier`: equal in any case once
 * they are duplicates), fields the mapper does not know (reported, never in the graph) and the normaliser's
 * notes (they name the record by its place).
 */
type NotContent = 'doi' | 'identifier' | 'unknownFields' | 'notes';

// Every field is content or left out on purpose: a field added to ScholarlyRecord fails to compile here.
const _every: Exclude<keyof ScholarlyRecord, (typeof STRING_KEYS)[number] | Structured | NotContent> extends never
  ? true
  : never = true;
void _every;

/** Ends a value (the record's text is cleaned of control characters: these never occur in it). */
const END = '\u0000';
/** Stands for a value that is not there. */
const NONE = '\u0001';

/** Hashes a value and its end, or that it is not there. */
function opt(h: TextHasher, value: string | undefined): void {
  if (value === undefined) h.add(NONE);
  else ended(h, value);
}

/** Hashes a value and its end (added apart: a long value joined to its end is copied when hashed). */
function ended(h: TextHasher, value: string): void {
  h.add(value);
  h.add(END);
}

function list(h: TextHasher, values: readonly string[]): void {
  for (const value of values) ended(h, value);
  h.add(NONE);
}

function abstractText(h: TextHasher, abstract: AbstractText | undefined): void {
  if (!abstract) return h.add(NONE);
  opt(h, abstract.heading);
  ended(h, abstract.text);
  for (const part of abstract.languages ?? []) {
    opt(h, part.heading);
    opt(h, part.language);
    ended(h, part.text);
  }
  h.add(NONE);
}

/**
 * A 64-bit digest of what a normalised record says (SHA-1's first 64 bits of
 * its content fields, each ended, in a fixed order: `TextHasher`), as two unsigned 32-bit
 * numbers: equal for two records of one DOI that would give the same
 * statements, whatever spelling, key case or shape of the service's JSON they
 * came in (the normaliser made those one). Left out: the DOI, unknown fields
 * and the normaliser's notes. The same in every run of one version of the
 * toolkit (not kept across versions); two records of one DOI that differ get
 * equal digests with a probability of about 2⁻⁶⁴. Cheap (no JSON; the text
 * hashed natively, once): every record of a conversion is digested.
 */
export function recordDigest(record: ScholarlyRecord): [number, number] {
  const h = new TextHasher();
  for (let i = 0; i < TEXTS.length; i++) opt(h, record[TEXTS[i]!]);
  for (const url of record.urls) for (const value of [url.format, url.platform, url.value]) ended(h, value);
  h.add(NONE);
  for (const creator of record.creators) {
    ended(h, creator.name);
    opt(h, creator.orcid);
    opt(h, creator.orcidRaw);
  }
  h.add(NONE);
  list(h, record.genre);
  list(h, record.subjects);
  list(h, record.keywords);
  for (const discipline of record.disciplines) {
    opt(h, discipline.id);
    opt(h, discipline.term);
  }
  h.add(NONE);
  abstractText(h, record.abstract);
  if (record.conferenceInfo.length > 0) h.add(JSON.stringify(record.conferenceInfo));
  return h.digest();
}
