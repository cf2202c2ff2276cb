import { textHash } from './DoiSet.js';
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

const opt = (value: string | undefined): string => (value === undefined ? NONE : value + END);

function list(values: readonly string[]): string {
  let text = '';
  for (const value of values) text += value + END;
  return text + NONE;
}

function abstractText(abstract: AbstractText | undefined): string {
  if (!abstract) return NONE;
  let text = opt(abstract.heading) + abstract.text + END;
  for (const part of abstract.languages ?? []) text += opt(part.heading) + opt(part.language) + part.text + END;
  return text + NONE;
}

/**
 * A 64-bit digest of what a normalised record says (a fast hash of its
 * content fields, each ended, in a fixed order), as two unsigned 32-bit
 * numbers: equal for two records of one DOI that would give the same
 * statements, whatever spelling, key case or shape of the service's JSON they
 * came in (the normaliser made those one). Left out: the DOI, unknown fields
 * and the normaliser's notes. The same in every run of one version of the
 * toolkit (not kept across versions); two records of one DOI that differ get
 * equal digests with a probability of about 2⁻⁶⁴. Cheap (no JSON, no
 * `crypto`): every record of a conversion is digested.
 */
export function recordDigest(record: ScholarlyRecord): [number, number] {
  let text = '';
  for (let i = 0; i < TEXTS.length; i++) text += opt(record[TEXTS[i]!]);
  for (const url of record.urls) text += url.format + END + url.platform + END + url.value + END;
  text += NONE;
  for (const creator of record.creators) text += creator.name + END + opt(creator.orcid) + opt(creator.orcidRaw);
  text += NONE + list(record.genre) + list(record.subjects) + list(record.keywords);
  for (const discipline of record.disciplines) text += opt(discipline.id) + opt(discipline.term);
  text += NONE + abstractText(record.abstract);
  if (record.conferenceInfo.length > 0) text += JSON.stringify(record.conferenceInfo);
  return textHash(text);
}
