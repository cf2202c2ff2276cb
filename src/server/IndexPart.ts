import type { FacetIndex } from './FacetIndex.js';
import { FacetsBuilder, mergeFacets, type RawFacets } from './FacetsBuilder.js';
import type { IndexedRecord } from './IndexedRecord.js';
import { IntColumn } from './IntColumn.js';
import { IntList, concatInt32 } from './IntList.js';
import type { RecordTexts } from './RecordTexts.js';
import { RecordTextsBuilder, mergeRecordTexts, type RawRecordTexts } from './RecordTextsBuilder.js';
import { mergeTermPairs, type TermIndex, type TermIndexBuilder, type TermPairs } from './TermIndex.js';

/**
 * One part of a catalogue's index: how it is built record by record on this
 * thread, sent back by a loading worker as plain data, and joined from the
 * ranges of the file the workers read. `INDEX_PARTS` lists every part once;
 * whatever handles all the parts (building, sending, joining, comparing)
 * goes through that table, so that no place can forget one.
 */
export interface IndexPart<Builder, Raw, Built> {
  /** An empty builder (for a catalogue, or for a range of a file). */
  create(): Builder;
  /** Adds record `id` (ids come in ascending order from 0, once each). */
  add(builder: Builder, record: IndexedRecord, id: number): void;
  /** The part as built on this thread. */
  build(builder: Builder): Built;
  /**
   * The part as plain data: what a worker sends back. Structured-cloneable;
   * its typed arrays are transferred rather than copied (see `transferables`).
   */
  raw(builder: Builder): Raw;
  /** Joins the raw parts of consecutive ranges (in file order); the records of range `k` start at id `recordOffsets[k]`. */
  merge(raws: readonly Raw[], recordOffsets: readonly number[]): Built;
  /**
   * The part in a plain form that does not depend on how the records were
   * read (chunks, ranges, threads): catalogues of the same records have equal
   * snapshots. For tests and checks; costly on large catalogues.
   */
  snapshot(built: Built): unknown;
}

/** An inverted index (term → records): a word index or a value index. */
export function termIndexPart<B extends { readonly terms: TermIndexBuilder }>(
  create: () => B,
  add: (builder: B, record: IndexedRecord, id: number) => void,
): IndexPart<B, TermPairs, TermIndex> {
  return {
    create,
    add,
    build: (builder) => builder.terms.freeze(),
    raw: (builder) => builder.terms.pairs(),
    merge: (raws, recordOffsets) => mergeTermPairs(raws, recordOffsets),
    snapshot: (index) => index.sortedTerms().map((term) => [term, Array.from(index.get(term))]),
  };
}

/** A number per record, and the records sorted by it (see {@link IntColumn}). */
export function intColumnPart(valueOf: (record: IndexedRecord) => number): IndexPart<IntList, Int32Array, IntColumn> {
  return {
    create: () => new IntList(),
    add: (list, record) => list.push(valueOf(record)),
    build: (list) => new IntColumn(list.freeze()),
    raw: (list) => list.freeze(),
    merge: (raws) => new IntColumn(concatInt32(raws)),
    snapshot: (column) => Array.from(column.byRecord),
  };
}

/** The records' JSON texts (see {@link RecordTexts}). */
export const recordTextsPart: IndexPart<RecordTextsBuilder, RawRecordTexts, RecordTexts> = {
  create: () => new RecordTextsBuilder(),
  add: (builder, record) => builder.add(record),
  build: (builder) => builder.build(),
  raw: (builder) => builder.raw(),
  merge: (raws) => mergeRecordTexts(raws),
  snapshot: (records) => Array.from({ length: records.size }, (_, id) => [records.rawText(id), records.json(id)]),
};

/** The facet values of every record (see {@link FacetIndex}). */
export const facetsPart: IndexPart<FacetsBuilder, RawFacets, FacetIndex> = {
  create: () => new FacetsBuilder(),
  add: (builder, record) => builder.add(record),
  build: (builder) => builder.build(),
  raw: (builder) => builder.raw(),
  merge: (raws) => mergeFacets(raws),
  snapshot: (facets) => Array.from({ length: facets.size }, (_, id) => facets.valuesOf(id)),
};
