import { doiHash } from './DoiIndex.js';
import type { IndexedRecord } from './IndexedRecord.js';
import { facetsPart, intColumnPart, recordTextsPart, termIndexPart, type IndexPart } from './IndexPart.js';
import type { ValueIndexName } from './normalizeValue.js';
import { ValueIndexBuilder } from './ValueIndexBuilder.js';
import { WordIndexBuilder } from './WordIndexBuilder.js';

/** A word index; `cached`: remember the words of each text (for texts that repeat). */
function words(cached: boolean, add: (builder: WordIndexBuilder, record: IndexedRecord, id: number) => void) {
  return termIndexPart(() => new WordIndexBuilder(cached), add);
}

/** A value index (exact match after `normalizeValue`). */
function values(
  index: Exclude<ValueIndexName, 'doi'>,
  add: (builder: ValueIndexBuilder, record: IndexedRecord, id: number) => void,
) {
  return termIndexPart(() => new ValueIndexBuilder(index), add);
}

/**
 * The parts of a catalogue's index, each listed once with how it is built
 * from a record, sent from a loading worker, joined and compared (see
 * {@link IndexPart}). The subjects, keywords, publication name, year,
 * countries and publication type of a record are shared texts: each feeds a
 * word index, a value index and a facet, and each of those fills its own slot
 * of the text (`words`, `value`, `facet`), so one part per slot.
 */
export const INDEX_PARTS = {
  records: recordTextsPart,

  // word indexes: free text, `title:`, `name:`, `journal:`
  title: words(false, (w, r, id) => w.add(r.title, id)),
  name: words(true, (w, r, id) => w.addAll(r.names, id)),
  journal: words(false, (w, r, id) => w.addShared(r.publicationName, id)),
  subjectWords: words(false, (w, r, id) => w.addAllShared(r.subjects, id)),
  keywordWords: words(false, (w, r, id) => w.addAllShared(r.keywords, id)),

  // value indexes; DOIs, one per record, are kept as hashes instead (doiHashes)
  year: values('year', (v, r, id) => v.addShared(r.year, id)),
  subject: values('subject', (v, r, id) => v.addAllShared(r.subjects, id)),
  keyword: values('keyword', (v, r, id) => v.addAllShared(r.keywords, id)),
  journalid: values('journalid', (v, r, id) => v.add(r.journalId, id)),
  issn: values('issn', (v, r, id) => v.addAll(r.issns, id)),
  isbn: values('isbn', (v, r, id) => v.addAll(r.isbns, id)),
  // `type:` finds the publication type (Journal, Book) and the content type (Article, Chapter)
  type: values('type', (v, r, id) => {
    v.addShared(r.publicationType, id);
    v.add(r.contentType, id);
  }),
  language: values('language', (v, r, id) => v.add(r.language, id)),
  pub: values('pub', (v, r, id) => v.addShared(r.publicationName, id)),
  country: values('country', (v, r, id) => v.addAllShared(r.countries, id)),
  openaccess: values('openaccess', (v, r, id) => v.add(r.openAccess, id)),

  facets: facetsPart,
  publicationDates: intColumnPart((r) => r.publicationDate),
  onlineDates: intColumnPart((r) => r.onlineDate),
  doiHashes: intColumnPart((r) => doiHash(r.doi)),
} satisfies Record<string, IndexPart<unknown, unknown, unknown>>;

type Parts = typeof INDEX_PARTS;

/** The name of an index part. */
export type IndexPartName = keyof Parts;

/** Every part as built, by name. */
export type BuiltParts = {
  [K in IndexPartName]: Parts[K] extends IndexPart<unknown, unknown, infer Built> ? Built : never;
};

/** Every part as plain data (what a loading worker sends back), by name. */
export type RawParts = { [K in IndexPartName]: Parts[K] extends IndexPart<unknown, infer Raw, unknown> ? Raw : never };

/** An indexed catalogue: its number of records and its parts. */
export interface BuiltCatalogue {
  size: number;
  parts: BuiltParts;
}

/** An indexed catalogue (or range of a file) as plain data. */
export interface RawCatalogue {
  size: number;
  parts: RawParts;
}

/** The names of the parts, in table order. */
export const INDEX_PART_NAMES = Object.keys(INDEX_PARTS) as IndexPartName[];

/** Any part, its types forgotten (for the loops over all parts). */
type AnyPart = IndexPart<unknown, unknown, unknown>;

/** The parts, in {@link INDEX_PART_NAMES} order. */
const PART_LIST: readonly AnyPart[] = INDEX_PART_NAMES.map((name) => INDEX_PARTS[name] as AnyPart);

/** Builders of every part, in {@link INDEX_PART_NAMES} order. */
export class PartBuilders {
  private readonly builders = PART_LIST.map((part) => part.create());

  /** Adds record `id` to every part. */
  add(record: IndexedRecord, id: number): void {
    const builders = this.builders;
    for (let i = 0; i < PART_LIST.length; i++) PART_LIST[i]!.add(builders[i], record, id);
  }

  /** Every part as built. */
  build(): BuiltParts {
    return byName((part, i) => part.build(this.builders[i])) as BuiltParts;
  }

  /** Every part as plain data. */
  raw(): RawParts {
    return byName((part, i) => part.raw(this.builders[i])) as RawParts;
  }
}

/** Joins the parts of consecutive ranges of a file (in file order). */
export function mergeParts(raws: readonly RawParts[], recordOffsets: readonly number[]): BuiltParts {
  return byName((part, i) => {
    const name = INDEX_PART_NAMES[i]!;
    return part.merge(
      raws.map((raw) => raw[name]),
      recordOffsets,
    );
  }) as BuiltParts;
}

/** Every part in its plain, comparable form (see {@link IndexPart.snapshot}). */
export function snapshotParts(parts: BuiltParts): Record<IndexPartName, unknown> {
  return byName((part, i) => part.snapshot(parts[INDEX_PART_NAMES[i]!])) as Record<IndexPartName, unknown>;
}

function byName(f: (part: AnyPart, i: number) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  PART_LIST.forEach((part, i) => {
    out[INDEX_PART_NAMES[i]!] = f(part, i);
  });
  return out;
}
