import type { AbstractPart } from './splitAbstractLanguages.js';
/**
 * Record shapes of the metadata service, as it sends them (seed §2.3, §2.5)
 * and as the toolkit uses them after normalisation.
 *
 * The service's JSON is looser than its specification: every scalar is a
 * string and may be empty, keys may be missing, and some keys change spelling
 * by endpoint and year. `ApiRecordV2` and `ApiRecordV1` describe the specified
 * shape; the reader accepts anything and `normalizeRecord()` turns it into a
 * `ScholarlyRecord`.
 */

/** One entry of a v2 record's `url` array. */
export interface ApiUrl {
  format: string;
  platform: string;
  value: string;
}

/** One creator of a v2 record. */
export interface ApiCreator {
  creator: string;
  ORCID?: string;
}

/** One discipline of a v2 record. */
export interface ApiDiscipline {
  id: string;
  term: string;
}

/** A record of the `/meta/v2/` family (seed §2.3), as specified. */
export interface ApiRecordV2 {
  contentType: string;
  identifier: string;
  language: string;
  url: ApiUrl[];
  title: string;
  creators: ApiCreator[];
  publicationName: string;
  openaccess: string;
  doi: string;
  publisher: string;
  publisherName: string;
  publicationDate: string;
  publicationType: string;
  issn: string;
  eIssn: string;
  volume: string;
  number: string;
  issueType: string;
  topicalCollection: string;
  genre: string[];
  startingPage: string;
  endingPage: string;
  journalId: string;
  onlineDate: string;
  coverDate: string;
  copyright: string;
  abstract: string;
  conferenceInfo: unknown[];
  subjects: string[];
  disciplines: ApiDiscipline[];
  /** Book key set, sent instead of the journal one on some pages. */
  printIsbn?: string;
  electronicIsbn?: string;
  isbn?: string;
}

/** A record of the `/metadata/v1/` family (seed §2.5). */
export interface ApiRecordV1 {
  title: string;
  doi: string;
  abstract: string;
  publicationDate: string;
  journalTitle: string;
}

/** Paging summary (seed §2.2). */
export interface ApiPagingSummary {
  total: string;
  start: string;
  pageLength: string;
  recordsDisplayed?: string;
}

/** One facet (seed §2.4). */
export interface ApiFacet {
  name: string;
  values: { value: string; count: string }[];
}

/** The `/meta/v2/` envelope (seed §2.1). */
export interface ApiEnvelopeV2 {
  apiMessage?: string;
  query: string;
  apiKey?: string;
  nextPage?: string;
  result: ApiPagingSummary[];
  records: Partial<ApiRecordV2>[];
  facets?: ApiFacet[];
}

/** The `/metadata/v1/` envelope (seed §2.5). */
export interface ApiEnvelopeV1 {
  apiMessage?: string;
  query: string;
  result: ApiPagingSummary[];
  records: Partial<ApiRecordV1>[];
}

/** A record as read: any JSON object. */
export type RawRecord = Record<string, unknown>;

/** A creator after normalisation. */
export interface Creator {
  name: string;
  /** Bare ORCID iD (`0000-0002-1825-0097`), when one was given. */
  orcid?: string;
  /** The ORCID value as sent, when it could not be read as an iD. */
  orcidRaw?: string;
}

/** Abstract after normalisation: the heading (if any) and the text. */
export interface AbstractText {
  heading?: string;
  text: string;
  /**
   * An abstract sent in several languages, each after its glued language heading: one part per language
   * (`text` is then the parts' texts joined by a blank line).
   */
  languages?: AbstractPart[];
}

/** A link of the record after normalisation. */
export interface RecordUrl {
  format: string;
  platform: string;
  value: string;
}

/**
 * A record after normalisation: one spelling per key, empty strings dropped
 * (as `undefined`), arrays always arrays. Values are still the service's
 * strings; the mapper decides what they mean.
 */
export interface ScholarlyRecord {
  doi?: string;
  identifier?: string;
  contentType?: string;
  language?: string;
  urls: RecordUrl[];
  title?: string;
  creators: Creator[];
  publicationName?: string;
  journalTitle?: string;
  openaccess?: string;
  publisher?: string;
  publisherName?: string;
  publicationDate?: string;
  publicationType?: string;
  issn?: string;
  eIssn?: string;
  printIsbn?: string;
  electronicIsbn?: string;
  isbn?: string;
  volume?: string;
  number?: string;
  issueType?: string;
  topicalCollection?: string;
  genre: string[];
  startingPage?: string;
  endingPage?: string;
  journalId?: string;
  onlineDate?: string;
  coverDate?: string;
  copyright?: string;
  abstract?: AbstractText;
  conferenceInfo: unknown[];
  subjects: string[];
  keywords: string[];
  disciplines: { id?: string; term?: string }[];
  /** Keys the normaliser does not know, with their values (reported, never dropped silently). */
  unknownFields: Record<string, unknown>;
  /** What the normaliser changed, one line each (e.g. control characters removed from a field). */
  notes: string[];
}
