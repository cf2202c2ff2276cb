import { STRING_KEYS } from './normalizeRecord.js';
import { TextHash64 } from './TextHash64.js';
import type { AbstractText, ScholarlyRecord } from './types.js';

/** The text fields of a record's content (the normaliser's, but the DOI), in a fixed order. */
export const TEXTS = STRING_KEYS.filter((key) => key !== 'doi' && key !== 'identifier');

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

/** Stands for a value that is not there (a text adds its length first: never this). */
const NONE = -1;

/** Hashes a value, or that it is not there. */
function opt(h: TextHash64, value: string | undefined): void {
  if (value === undefined) h.number(NONE);
  else h.text(value);
}

/** Hashes a list: its length, then its values. */
function list(h: TextHash64, values: readonly string[]): void {
  h.number(values.length);
  for (let i = 0; i < values.length; i++) h.text(values[i]!);
}

function abstractText(h: TextHash64, abstract: AbstractText | undefined): void {
  if (!abstract) return h.number(NONE);
  opt(h, abstract.heading);
  h.text(abstract.text);
  const languages = abstract.languages ?? [];
  h.number(languages.length);
  for (const part of languages) {
    opt(h, part.heading);
    opt(h, part.language);
    h.text(part.text);
  }
}

/**
 * The text fields ({@link TEXTS}), in their order, each read by its name: a read by a key from a list goes
 * megamorphic (about 4 k instructions a record). `test/record/recordDigest.test.ts` holds this to {@link TEXTS}.
 */
function texts(h: TextHash64, r: ScholarlyRecord): void {
  opt(h, r.contentType);
  opt(h, r.language);
  opt(h, r.title);
  opt(h, r.publicationName);
  opt(h, r.journalTitle);
  opt(h, r.openaccess);
  opt(h, r.publisher);
  opt(h, r.publisherName);
  opt(h, r.publicationDate);
  opt(h, r.publicationType);
  opt(h, r.issn);
  opt(h, r.eIssn);
  opt(h, r.printIsbn);
  opt(h, r.electronicIsbn);
  opt(h, r.isbn);
  opt(h, r.volume);
  opt(h, r.number);
  opt(h, r.issueType);
  opt(h, r.topicalCollection);
  opt(h, r.startingPage);
  opt(h, r.endingPage);
  opt(h, r.journalId);
  opt(h, r.onlineDate);
  opt(h, r.coverDate);
  opt(h, r.copyright);
}

/**
 * A 64-bit digest of what a normalised record says ({@link TextHash64} of its
 * content fields in a fixed order, each list with its length), as two unsigned 32-bit
 * numbers: equal for two records of one DOI that would give the same
 * statements, whatever spelling, key case or shape of the service's JSON they
 * came in (the normaliser made those one). Left out: the DOI, unknown fields
 * and the normaliser's notes. The same in every run and thread of one version of the
 * toolkit (not kept across versions); two records of one DOI that differ get
 * equal digests with a probability of about 2⁻⁶⁴. Cheap (no JSON, no text
 * joined or encoded): every record of a conversion is digested.
 */
export function recordDigest(record: ScholarlyRecord): [number, number] {
  const h = new TextHash64();
  texts(h, record);
  h.number(record.urls.length);
  for (const url of record.urls) {
    h.text(url.format);
    h.text(url.platform);
    h.text(url.value);
  }
  h.number(record.creators.length);
  for (const creator of record.creators) {
    h.text(creator.name);
    opt(h, creator.orcid);
    opt(h, creator.orcidRaw);
  }
  list(h, record.genre);
  list(h, record.subjects);
  list(h, record.keywords);
  h.number(record.disciplines.length);
  for (const discipline of record.disciplines) {
    opt(h, discipline.id);
    opt(h, discipline.term);
  }
  abstractText(h, record.abstract);
  h.number(record.conferenceInfo.length);
  if (record.conferenceInfo.length > 0) h.text(JSON.stringify(record.conferenceInfo));
  return h.digest();
}
