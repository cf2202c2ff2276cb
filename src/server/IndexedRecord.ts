import * as fields from './recordFields.js';

/**
 * A text of a record that feeds a word index, a value index and a facet at
 * once (a subject, keyword, publication name, year, country or type), with
 * the ids it got in each. The parts fill their own slot the first time they
 * meet the text, so each distinct text is tokenised, normalised and looked up
 * once, however many records repeat it.
 */
export interface SharedText {
  readonly text: string;
  /** Term ids of its words in the field's word index (filled by that index). */
  words?: number[];
  /** Term id in the field's value index, -1 when it normalises to nothing (filled by that index). */
  value?: number;
  /** Code in the facets, value id × 8 + facet (filled by the facets). */
  facet?: number;
}

/** What the index parts read from one record: its place in the file and its values, read once. */
export interface IndexedRecord {
  /** The record as parsed (catalogue-only `_` keys included). */
  readonly object: Record<string, unknown>;
  /** The chunk of the file that holds the record's JSON text, and where the text lies in it. */
  readonly chunk: Buffer;
  readonly start: number;
  readonly end: number;
  readonly title: string;
  readonly names: readonly string[];
  readonly subjects: readonly SharedText[];
  readonly keywords: readonly SharedText[];
  readonly publicationName: SharedText | undefined;
  readonly year: SharedText | undefined;
  readonly countries: readonly SharedText[];
  readonly publicationType: SharedText | undefined;
  readonly doi: string;
  readonly contentType: string;
  readonly journalId: string;
  readonly issns: readonly string[];
  readonly isbns: readonly string[];
  readonly language: string;
  readonly openAccess: string;
  /** YYYYMMDD, or 0 when none. */
  readonly publicationDate: number;
  /** YYYYMMDD, or 0 when none. */
  readonly onlineDate: number;
}

/** Most distinct texts remembered per field (then it starts over). */
const CACHE_LIMIT = 200_000;

/** The shared texts of one field, by text. */
class SharedTexts {
  private readonly byText = new Map<string, SharedText>();

  /** The shared text of `text`; undefined for ''. */
  one(text: string): SharedText | undefined {
    if (text === '') return undefined;
    let shared = this.byText.get(text);
    if (shared === undefined) {
      shared = { text };
      if (this.byText.size >= CACHE_LIMIT) this.byText.clear();
      this.byText.set(text, shared);
    }
    return shared;
  }

  /** The shared texts of `texts` (none empty). */
  all(texts: readonly string[]): SharedText[] {
    const out = new Array<SharedText>(texts.length);
    for (let i = 0; i < texts.length; i++) out[i] = this.one(texts[i]!)!;
    return out;
  }
}

/** Reads the values of records for the index parts (see `INDEX_PARTS`), remembering the shared texts of each field. */
export class IndexedRecordReader {
  private readonly subjects = new SharedTexts();
  private readonly keywords = new SharedTexts();
  private readonly publicationNames = new SharedTexts();
  private readonly years = new SharedTexts();
  private readonly countries = new SharedTexts();
  private readonly publicationTypes = new SharedTexts();

  /** Record `object`, whose JSON text is bytes `start` … `end` of `chunk`. */
  read(object: Record<string, unknown>, chunk: Buffer, start: number, end: number): IndexedRecord {
    return {
      object,
      chunk,
      start,
      end,
      title: fields.titleOf(object),
      names: fields.namesOf(object),
      subjects: this.subjects.all(fields.subjectsOf(object)),
      keywords: this.keywords.all(fields.keywordsOf(object)),
      publicationName: this.publicationNames.one(fields.publicationNameOf(object)),
      year: this.years.one(fields.yearOf(object)),
      countries: this.countries.all(fields.countriesOf(object)),
      publicationType: this.publicationTypes.one(fields.publicationTypeOf(object)),
      doi: fields.doiOf(object),
      contentType: fields.contentTypeOf(object),
      journalId: fields.journalIdOf(object),
      issns: fields.issnsOf(object),
      isbns: fields.isbnsOf(object),
      language: fields.languageOf(object),
      openAccess: fields.openAccessOf(object),
      publicationDate: fields.dateNumber(object.publicationDate),
      onlineDate: fields.dateNumber(object.onlineDate),
    };
  }
}
