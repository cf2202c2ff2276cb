import { KEY_SPELLINGS } from '../contract/keySpellings.js';
import { MappingError } from '../errors.js';
import { cleanJson } from './cleanJson.js';
import { readAbstract } from './readAbstract.js';
import { readCreators } from './readCreators.js';
import { readDisciplines } from './readDisciplines.js';
import { readUrls } from './readUrls.js';
import { type RecordCleaners, recordCleaners } from './recordCleaners.js';
import { recordDoi } from './recordDoi.js';
import { describe, scalar, stringList } from './scalar.js';
import type { RawRecord, ScholarlyRecord } from './types.js';

/** Options of {@link normalizeRecord}. */
export interface NormalizeOptions {
  /** How errors name the record when it has no DOI (e.g. `input.json#3`). Defaults to `record`. */
  recordLabel?: string;
}

type StringKey =
  | 'doi'
  | 'identifier'
  | 'contentType'
  | 'language'
  | 'title'
  | 'publicationName'
  | 'journalTitle'
  | 'openaccess'
  | 'publisher'
  | 'publisherName'
  | 'publicationDate'
  | 'publicationType'
  | 'issn'
  | 'eIssn'
  | 'printIsbn'
  | 'electronicIsbn'
  | 'isbn'
  | 'volume'
  | 'number'
  | 'issueType'
  | 'topicalCollection'
  | 'startingPage'
  | 'endingPage'
  | 'journalId'
  | 'onlineDate'
  | 'coverDate'
  | 'copyright';

export const STRING_KEYS: readonly StringKey[] = [
  'doi',
  'identifier',
  'contentType',
  'language',
  'title',
  'publicationName',
  'journalTitle',
  'openaccess',
  'publisher',
  'publisherName',
  'publicationDate',
  'publicationType',
  'issn',
  'eIssn',
  'printIsbn',
  'electronicIsbn',
  'isbn',
  'volume',
  'number',
  'issueType',
  'topicalCollection',
  'startingPage',
  'endingPage',
  'journalId',
  'onlineDate',
  'coverDate',
  'copyright',
];

/**
 * String keys whose values are one line of text (titles, names, labels):
 * white space in them is collapsed to single spaces. Identifiers, codes,
 * numbers and dates are left as sent.
 */
const ONE_LINE_KEYS: ReadonlySet<StringKey> = new Set<StringKey>([
  'title',
  'publicationName',
  'journalTitle',
  'publisher',
  'publisherName',
  'topicalCollection',
  'copyright',
  'contentType',
  'publicationType',
  'issueType',
]);

type OtherKey = 'url' | 'creators' | 'genre' | 'abstract' | 'conferenceInfo' | 'subjects' | 'keywords' | 'disciplines';
const OTHER_KEYS: readonly OtherKey[] = [
  'url',
  'creators',
  'genre',
  'abstract',
  'conferenceInfo',
  'subjects',
  'keywords',
  'disciplines',
];

/**
 * The spellings of a key the service uses besides its own (the contract's
 * `KEY_SPELLINGS`: `keyword` for `keywords`, `journalid` for `journalId`, ...).
 */
const OTHER_SPELLINGS: readonly (readonly [string, StringKey | OtherKey])[] = Object.entries(KEY_SPELLINGS).flatMap(
  ([key, spellings]) => spellings.filter((s) => s !== key).map((s) => [s, key as StringKey | OtherKey] as const),
);
/** A known key and how its value is read: 0 a string, 1 one-line text (a string), 2 another field. */
interface KnownKey {
  key: StringKey | OtherKey;
  kind: 0 | 1 | 2;
}

const STRING_KEY_SET: ReadonlySet<string> = new Set(STRING_KEYS);

/** How the value of `key` is read (one lookup a field tells both the key and its kind). */
function knownKey(key: StringKey | OtherKey): KnownKey {
  const kind = !STRING_KEY_SET.has(key) ? 2 : ONE_LINE_KEYS.has(key as StringKey) ? 1 : 0;
  return { key, kind };
}

/**
 * Known keys by their lower-case spelling: the service writes `journalId` or
 * `journalid`, `issueType` or `issuetype`, `openaccess` or `openAccess`
 * depending on endpoint and year; any spelling that differs only in case is
 * accepted.
 */
const KNOWN_KEYS = new Map<string, KnownKey>([
  ...[...STRING_KEYS, ...OTHER_KEYS].map((k) => [k.toLowerCase(), knownKey(k)] as const),
  ...OTHER_SPELLINGS.map(([s, k]) => [s.toLowerCase(), knownKey(k)] as const),
]);
/** The same, by the usual spellings (looked up first: most keys are spelled so, and need no lower-casing). */
const USUAL_KEYS = new Map<string, KnownKey>([
  ...[...STRING_KEYS, ...OTHER_KEYS].map((k) => [k, knownKey(k)] as const),
  ...OTHER_SPELLINGS.map(([s, k]) => [s, knownKey(k)] as const),
]);

/**
 * Turns a record as the service sent it (v2 or v1 family, any of its key
 * spellings and value shapes) into a {@link ScholarlyRecord}: one spelling
 * per key, empty strings dropped, arrays always arrays, text cleaned of
 * characters no RDF format can carry. One-line text (titles, names, journal
 * and publisher names, subjects, keywords, genres, discipline terms,
 * conference details) has its white space collapsed to single spaces; the
 * abstract keeps its paragraphs but not its wrapped lines, and the section
 * headings of a structured abstract are separated from the text. Each kind
 * of change is one note per field. Keys it does not know are kept in
 * `unknownFields`. The DOI is the `doi` field, else the `identifier` when it
 * is `doi:<doi>` (see {@link recordDoi}). A value of a type that cannot be
 * read (an object where a string belongs) throws a {@link MappingError}
 * naming the record and field.
 */
export function normalizeRecord(raw: unknown, options: NormalizeOptions = {}): ScholarlyRecord {
  const label = options.recordLabel ?? 'record';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new MappingError(`expected a record object, got ${describe(raw)}`, label, '(record)');
  }
  const input = raw as RawRecord;
  // Errors name the record by the DOI of its `doi` field as sent (the identifier is not read yet), else the label.
  const id = recordDoi({ doi: input.doi }) ?? label;
  const record = emptyRecord();
  const clean = recordCleaners(record.notes);
  for (const key of Object.keys(input)) {
    const value = input[key];
    const known = USUAL_KEYS.get(key) ?? KNOWN_KEYS.get(key.toLowerCase());
    if (!known) record.unknownFields[key] = value;
    else if (known.kind !== 2) readString(record, known.key as StringKey, known.kind === 1, value, id, key, clean);
    else readOther(record, known.key as OtherKey, value, id, key, clean);
  }
  if (record.doi === undefined) {
    const fromIdentifier = recordDoi(record);
    if (fromIdentifier !== undefined) record.doi = fromIdentifier;
  }
  return record;
}

/**
 * A record with no value yet: every field there (a string field or the
 * abstract `undefined`), in one order, so that all records have one shape
 * (objects whose fields come in varying orders slow every function that
 * reads them). Exported for the test that holds it to {@link STRING_KEYS}.
 */
export function emptyRecord(): ScholarlyRecord {
  return {
    doi: undefined,
    identifier: undefined,
    contentType: undefined,
    language: undefined,
    title: undefined,
    publicationName: undefined,
    journalTitle: undefined,
    openaccess: undefined,
    publisher: undefined,
    publisherName: undefined,
    publicationDate: undefined,
    publicationType: undefined,
    issn: undefined,
    eIssn: undefined,
    printIsbn: undefined,
    electronicIsbn: undefined,
    isbn: undefined,
    volume: undefined,
    number: undefined,
    issueType: undefined,
    topicalCollection: undefined,
    startingPage: undefined,
    endingPage: undefined,
    journalId: undefined,
    onlineDate: undefined,
    coverDate: undefined,
    copyright: undefined,
    abstract: undefined,
    urls: [],
    creators: [],
    genre: [],
    conferenceInfo: [],
    subjects: [],
    keywords: [],
    disciplines: [],
    unknownFields: {},
    notes: [],
  };
}

/** A string field: cleaned (`oneLine`: collapsed too), trimmed; the first non-empty spelling of a key wins. */
function readString(
  record: ScholarlyRecord,
  known: StringKey,
  oneLine: boolean,
  value: unknown,
  id: string,
  key: string,
  clean: RecordCleaners,
): void {
  const s = scalar(value, id, key);
  if (s === undefined) return;
  const cleaned = oneLine ? clean.line(s, key) : clean.text(s, key).trim();
  if (cleaned !== '' && record[known] === undefined) record[known] = cleaned;
}

/** A field that is not one string: links, creators, lists of text, the abstract, conferences, disciplines. */
function readOther(
  record: ScholarlyRecord,
  known: OtherKey,
  value: unknown,
  id: string,
  key: string,
  clean: RecordCleaners,
): void {
  switch (known) {
    case 'url':
      record.urls = appended(record.urls, readUrls(value, id, key, clean.text));
      break;
    case 'creators':
      record.creators = appended(record.creators, readCreators(value, id, key, clean, record));
      break;
    case 'genre':
      record.genre = appended(record.genre, stringList(value, id, key, clean.line));
      break;
    case 'subjects':
      record.subjects = appended(record.subjects, stringList(value, id, key, clean.line));
      break;
    case 'keywords':
      record.keywords = appended(record.keywords, stringList(value, id, key, clean.line));
      break;
    case 'abstract': {
      const abstract = readAbstract(value, id, key, clean, record);
      if (abstract) record.abstract = abstract;
      break;
    }
    case 'conferenceInfo':
      if (value === null || value === undefined || value === '') break;
      (Array.isArray(value) ? value : [value]).forEach((v, i) => {
        if (v === '' || v === null) return;
        record.conferenceInfo.push(
          cleanJson(v, id, Array.isArray(value) ? `${key}[${i}]` : key, clean.line, clean.text),
        );
      });
      break;
    case 'disciplines':
      record.disciplines = appended(record.disciplines, readDisciplines(value, id, key, clean, record));
      break;
  }
}

/**
 * `items` after those of `list` (a field spelled twice): `items` itself when `list` is empty, as it is but for a
 * second spelling of the field (no copy).
 */
function appended<T>(list: T[], items: T[]): T[] {
  if (list.length === 0) return items;
  list.push(...items);
  return list;
}
