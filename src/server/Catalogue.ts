import { indexRecords, mergeCatalogues } from './CatalogueBuilder.js';
import { DoiIndex } from './DoiIndex.js';
import { FACET_NAMES, type FacetName, type FacetValue } from './FacetIndex.js';
import {
  snapshotParts,
  type BuiltCatalogue,
  type BuiltParts,
  type IndexPartName,
  type RawCatalogue,
} from './indexParts.js';
import type { IntColumn } from './IntColumn.js';
import { normalizeValue, type ValueIndexName } from './normalizeValue.js';
import { readCatalogueFile } from './readCatalogueFile.js';
import type { TokenIndexName } from './WordIndexBuilder.js';

/** Which date a date range applies to. */
export type DateKind = 'publication' | 'online';

/**
 * An in-memory, indexed catalogue of records. Records are kept as the bytes
 * of their JSON (only the records of a page are parsed); words and values are
 * kept in inverted indexes (token → sorted record ids), dates in sorted arrays,
 * facet values per record in compact arrays: the parts of `INDEX_PARTS`.
 *
 * Keys that start with `_` are catalogue-only (such as `_countries`, the
 * affiliation countries behind the `country` facet): indexed, never served.
 */
export class Catalogue {
  /** Number of records. */
  readonly size: number;
  private readonly parts: BuiltParts;
  private readonly dates: Record<DateKind, IntColumn>;
  private readonly dois: DoiIndex;

  private constructor(built: BuiltCatalogue) {
    this.size = built.size;
    this.parts = built.parts;
    this.dates = { publication: built.parts.publicationDates, online: built.parts.onlineDates };
    this.dois = new DoiIndex(built.parts.doiHashes, built.parts.records);
  }

  /** Joins consecutive parts read by `readCatalogueRange` (in file order) into one catalogue. */
  static fromParts(parts: readonly RawCatalogue[]): Catalogue {
    return new Catalogue(mergeCatalogues(parts));
  }

  /**
   * Reads a catalogue file: newline-delimited JSON (one record per line, blank
   * lines skipped) or one JSON array of records. Throws a `ParseError` naming
   * the line of a bad record, or a `ToolkitError` with code `io`.
   */
  static fromFile(path: string): Catalogue {
    return new Catalogue(readCatalogueFile(path));
  }

  /** Builds a catalogue from record objects (tests, generated catalogues). */
  static fromRecords(records: Iterable<object>, source = 'records'): Catalogue {
    return new Catalogue(indexRecords(records, source));
  }

  /** The JSON text of record `id` as served (catalogue-only `_` keys removed). */
  recordJson(id: number): string {
    return this.parts.records.json(id);
  }

  /** Record `id` as an object, as served. */
  record(id: number): Record<string, unknown> {
    return this.parts.records.record(id);
  }

  /** The JSON text of record `id` as stored, catalogue-only keys included. */
  rawText(id: number): string {
    return this.parts.records.rawText(id);
  }

  /** Record `id` with its catalogue-only keys (for checks that need them). */
  rawRecord(id: number): Record<string, unknown> {
    return this.parts.records.rawRecord(id);
  }

  /** Records holding a (folded) word. */
  tokenPostings(index: TokenIndexName, token: string): Int32Array {
    return this.parts[index].get(token);
  }

  /** Records holding a word that starts with `prefix`. */
  tokenPrefixPostings(index: TokenIndexName, prefix: string): Int32Array {
    return this.parts[index].prefix(prefix, this.size);
  }

  /** Records with a value (normalised with `normalizeValue`). */
  valuePostings(index: ValueIndexName, value: string): Int32Array {
    if (index === 'doi') return this.dois.postings(normalizeValue('doi', decodeDoiEscapes(value)));
    return this.parts[index].get(normalizeValue(index, value));
  }

  /** Records with a value that starts with `prefix`. */
  valuePrefixPostings(index: ValueIndexName, prefix: string): Int32Array {
    if (index === 'doi') return this.dois.prefixPostings(normalizeValue('doi', decodeDoiEscapes(prefix)));
    return this.parts[index].prefix(normalizeValue(index, prefix), this.size);
  }

  /** Records whose date (YYYYMMDD numbers, both included) lies in a range, sorted by id. */
  dateRange(kind: DateKind, from: number, to: number): Int32Array {
    return this.dates[kind].range(from, to);
  }

  /** The values of a facet over a set of records: at most `limit`, by count then value. */
  facet(name: FacetName, ids: Int32Array, limit = 20): FacetValue[] {
    return this.facets(ids, limit)[FACET_NAMES.indexOf(name)]!;
  }

  /** The values of every facet (in {@link FACET_NAMES} order) over a set of records, in one pass. */
  facets(ids: Int32Array, limit = 20): FacetValue[][] {
    return this.parts.facets.count(ids, limit);
  }

  /**
   * Every index part in a plain form that does not depend on how the file was
   * read (chunks, worker threads): two catalogues of the same records have
   * equal snapshots. For tests and checks; costly on large catalogues.
   */
  snapshot(): Record<IndexPartName, unknown> {
    return snapshotParts(this.parts);
  }
}

/** What a catalogue is made from: a file path, or records. */
export type CatalogueSource = string | Iterable<object>;

/**
 * Loads and indexes a catalogue: a file (newline-delimited JSON or a JSON
 * array of records in the service's own record shape) or records in memory.
 */
export function loadCatalogue(source: CatalogueSource): Catalogue {
  return typeof source === 'string' ? Catalogue.fromFile(source) : Catalogue.fromRecords(source);
}

/**
 * A DOI of a query with its percent-escapes decoded: clients write in a
 * `doi:` term what the query syntax would read otherwise (a space `%20`, a
 * quote `%22`, a `%` `%25`, a trailing `*` that is part of the DOI `%2A`; the
 * toolkit's client does: `doiInQuery`). A run of escapes that is not UTF-8
 * stays as it is.
 */
export function decodeDoiEscapes(value: string): string {
  if (!value.includes('%')) return value;
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
