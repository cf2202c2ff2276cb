import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ParseError, ToolkitError } from '../errors.js';
import { foldText, tokenize } from './foldText.js';
import * as fields from './recordFields.js';
import { EMPTY } from './sortedSets.js';
import { IntList, TermIndex, TermIndexBuilder, mergeTermPairs, type TermPairs } from './TermIndex.js';

/** Indexes of words (free text, `title:`, `name:`, `journal:`). */
export type TokenIndexName = 'title' | 'name' | 'journal' | 'subjectWords' | 'keywordWords';

/** Indexes of whole values (exact match after folding). */
export type ValueIndexName =
  | 'doi'
  | 'year'
  | 'subject'
  | 'keyword'
  | 'journalid'
  | 'issn'
  | 'isbn'
  | 'type'
  | 'language'
  | 'pub'
  | 'country'
  | 'openaccess';

/** The facets, in the order the service sends them. */
export const FACET_NAMES = ['subject', 'keyword', 'pub', 'year', 'country', 'type'] as const;

/** A facet name. */
export type FacetName = (typeof FACET_NAMES)[number];

/** One value of a facet with its count (both strings, as the service sends them). */
export interface FacetValue {
  value: string;
  count: string;
}

/** Which date a date range applies to. */
export type DateKind = 'publication' | 'online';

const TOKEN_INDEXES: readonly TokenIndexName[] = ['title', 'name', 'journal', 'subjectWords', 'keywordWords'];
/** Value indexes kept as term → ids; DOIs, one per record, are kept as sorted hashes instead. */
const VALUE_INDEXES: readonly Exclude<ValueIndexName, 'doi'>[] = [
  'year',
  'subject',
  'keyword',
  'journalid',
  'issn',
  'isbn',
  'type',
  'language',
  'pub',
  'country',
  'openaccess',
];
const MAX_RECORDS = 1 << 24;
const NEWLINE = 10;

/** Normalises a value of an exact-match field the way the index stores it. */
export function normalizeValue(index: ValueIndexName, value: string): string {
  switch (index) {
    case 'doi':
      return value.trim().toLowerCase();
    case 'issn':
      return value.replace(/[\s-]/g, '').toUpperCase();
    case 'isbn':
      return value.replace(/[\s-]/g, '').toUpperCase();
    default:
      return foldText(value);
  }
}

/**
 * Facet values of every record, all facets interleaved in one compact array
 * (value id × 8 + facet index), so counting touches each matching record once.
 */
class FacetsBuilder {
  readonly dicts = FACET_NAMES.map(() => new Map<string, number>());
  readonly labels: string[][] = FACET_NAMES.map(() => []);
  readonly offsets = new IntList();
  readonly values = new IntList();
  constructor() {
    this.offsets.push(0);
  }
  /** The code (value id × 8 + k) of a value of facet `k`. */
  code(k: number, value: string): number {
    const dict = this.dicts[k]!;
    let id = dict.get(value);
    if (id === undefined) {
      id = dict.size;
      dict.set(value, id);
      this.labels[k]!.push(value);
    }
    return id * 8 + k;
  }

  /** Ends the current record. */
  next(): void {
    this.offsets.push(this.values.length);
  }
}

interface DateIndex {
  /** Per record: YYYYMMDD or 0. */
  byRecord: Int32Array;
  /** Dates in ascending order, and the record of each. */
  sortedDates: Int32Array;
  sortedIds: Int32Array;
}

/** Builds a {@link Catalogue} record by record. */
/** A word index being built, with a cache of the term ids of texts that repeat. */
class TokenField {
  readonly builder = new TermIndexBuilder();
  private readonly cache: Map<string, number[]> | undefined;
  constructor(cached: boolean) {
    this.cache = cached ? new Map() : undefined;
  }
  add(text: string, id: number): void {
    if (text === '') return;
    const builder = this.builder;
    const cache = this.cache;
    let ids = cache?.get(text);
    if (ids === undefined) {
      const tokens = tokenize(text);
      ids = new Array<number>(tokens.length);
      for (let i = 0; i < tokens.length; i++) ids[i] = builder.termId(tokens[i]!);
      if (cache) {
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(text, ids);
      }
    }
    for (let i = 0; i < ids.length; i++) builder.addId(ids[i]!, id);
  }
}

/** A value index being built, with a cache of the term ids of values that repeat. */
class ValueField {
  readonly builder = new TermIndexBuilder();
  /** The term id of a value (-1 when it normalises to nothing), without adding it. */
  termIdOf(value: string): number {
    const key = normalizeValue(this.index, value);
    return key === '' ? -1 : this.builder.termId(key);
  }
  private readonly cache: Map<string, number> | undefined;
  constructor(
    private readonly index: ValueIndexName,
    cached = true,
  ) {
    this.cache = cached ? new Map() : undefined;
  }
  add(value: string, id: number): void {
    if (value === '') return;
    const cache = this.cache;
    let t = cache?.get(value);
    if (t === undefined) {
      const key = normalizeValue(this.index, value);
      if (key === '') return;
      t = this.builder.termId(key);
      if (cache) {
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(value, t);
      }
    }
    this.builder.addId(t, id);
  }
  addAll(values: readonly string[], id: number): void {
    for (let i = 0; i < values.length; i++) this.add(values[i]!, id);
  }
}

interface GroupEntry {
  tokens: number[];
  value: number;
  facet: number;
}

/**
 * A field whose texts feed a word index, a value index and a facet at once
 * (subjects, keywords, publication name, year, country, type): each distinct
 * text is tokenised, normalised and looked up once, then remembered.
 */
class FieldGroup {
  private readonly cache = new Map<string, GroupEntry>();
  constructor(
    private readonly words: TermIndexBuilder | undefined,
    private readonly values: ValueField,
    private readonly facets: FacetsBuilder,
    private readonly facet: number,
  ) {}

  add(text: string, id: number): void {
    if (text === '') return;
    let e = this.cache.get(text);
    if (e === undefined) {
      const words = this.words;
      const tokens = words ? tokenize(text) : [];
      const ids = new Array<number>(tokens.length);
      for (let i = 0; i < tokens.length; i++) ids[i] = words!.termId(tokens[i]!);
      e = { tokens: ids, value: this.values.termIdOf(text), facet: this.facets.code(this.facet, text) };
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(text, e);
    }
    const words = this.words;
    for (let i = 0; i < e.tokens.length; i++) words!.addId(e.tokens[i]!, id);
    if (e.value >= 0) this.values.builder.addId(e.value, id);
    this.facets.values.push(e.facet);
  }

  addAll(texts: readonly string[], id: number): void {
    for (let i = 0; i < texts.length; i++) this.add(texts[i]!, id);
  }
}

/** Builds a {@link Catalogue} record by record. */
class CatalogueBuilder {
  readonly chunks: Buffer[] = [];
  readonly recChunk = new IntList();
  readonly recStart = new IntList();
  readonly recEnd = new IntList();
  readonly hidden = new IntList();
  readonly tokens: Record<TokenIndexName, TokenField> = {
    title: new TokenField(false),
    name: new TokenField(true),
    journal: new TokenField(true),
    subjectWords: new TokenField(true),
    keywordWords: new TokenField(true),
  };
  readonly values: Record<Exclude<ValueIndexName, 'doi'>, ValueField> = {
    year: new ValueField('year'),
    subject: new ValueField('subject'),
    keyword: new ValueField('keyword'),
    journalid: new ValueField('journalid'),
    issn: new ValueField('issn'),
    isbn: new ValueField('isbn'),
    type: new ValueField('type'),
    language: new ValueField('language'),
    pub: new ValueField('pub'),
    country: new ValueField('country'),
    openaccess: new ValueField('openaccess'),
  };
  readonly facets = new FacetsBuilder();
  private readonly subjectGroup = new FieldGroup(this.tokens.subjectWords.builder, this.values.subject, this.facets, 0);
  private readonly keywordGroup = new FieldGroup(this.tokens.keywordWords.builder, this.values.keyword, this.facets, 1);
  private readonly pubGroup = new FieldGroup(this.tokens.journal.builder, this.values.pub, this.facets, 2);
  private readonly yearGroup = new FieldGroup(undefined, this.values.year, this.facets, 3);
  private readonly countryGroup = new FieldGroup(undefined, this.values.country, this.facets, 4);
  private readonly typeGroup = new FieldGroup(undefined, this.values.type, this.facets, 5);
  private readonly noCountry: number;
  readonly pubDates = new IntList();
  readonly onlineDates = new IntList();
  /** Per record: a hash of the normalised DOI (0 when none). */
  readonly doiHashes = new IntList();
  size = 0;

  constructor() {
    this.noCountry = this.facets.code(4, '');
  }

  /** The catalogue as built. */
  parts(): CatalogueParts {
    return {
      size: this.size,
      chunks: this.chunks,
      recChunk: this.recChunk.freeze(),
      recStart: this.recStart.freeze(),
      recEnd: this.recEnd.freeze(),
      hidden: this.hidden.freeze(),
      tokenIndexes: new Map(TOKEN_INDEXES.map((k) => [k, this.tokens[k].builder.freeze()])),
      valueIndexes: new Map(VALUE_INDEXES.map((k) => [k, this.values[k].builder.freeze()])),
      facetLabels: this.facets.labels,
      facetOffsets: this.facets.offsets.freeze(),
      facetValues: this.facets.values.freeze(),
      pubDates: this.pubDates.freeze(),
      onlineDates: this.onlineDates.freeze(),
      doiHashes: this.doiHashes.freeze(),
    };
  }

  /** The catalogue as built, as plain data (see {@link mergeParts}). */
  raw(): RawCatalogueParts {
    const tokens = {} as Record<TokenIndexName, TermPairs>;
    for (const k of TOKEN_INDEXES) tokens[k] = this.tokens[k].builder.pairs();
    const values = {} as Record<Exclude<ValueIndexName, 'doi'>, TermPairs>;
    for (const k of VALUE_INDEXES) values[k] = this.values[k].builder.pairs();
    return {
      size: this.size,
      chunks: this.chunks,
      recChunk: this.recChunk.freeze(),
      recStart: this.recStart.freeze(),
      recEnd: this.recEnd.freeze(),
      hidden: this.hidden.freeze(),
      tokens,
      values,
      facetLabels: this.facets.labels,
      facetOffsets: this.facets.offsets.freeze(),
      facetValues: this.facets.values.freeze(),
      pubDates: this.pubDates.freeze(),
      onlineDates: this.onlineDates.freeze(),
      doiHashes: this.doiHashes.freeze(),
    };
  }

  /** Adds a chunk of newline-delimited JSON (whole lines only). */
  addChunk(chunk: Buffer, source: string, firstLine: number): number {
    const chunkIndex = this.chunks.length;
    this.chunks.push(chunk);
    let line = firstLine;
    let pos = 0;
    while (pos < chunk.length) {
      let nl = chunk.indexOf(NEWLINE, pos);
      if (nl < 0) nl = chunk.length;
      let start = pos;
      let end = nl;
      if (end > start && chunk[end - 1] === 13) end--;
      if (line === 1 && chunk[start] === 0xef && chunk[start + 1] === 0xbb && chunk[start + 2] === 0xbf) start += 3;
      while (start < end && isBlank(chunk[start]!)) start++;
      while (end > start && isBlank(chunk[end - 1]!)) end--;
      if (end > start) {
        const text = chunk.toString('utf8', start, end);
        let record: unknown;
        try {
          record = JSON.parse(text);
        } catch (err) {
          throw new ParseError(`not a JSON record: ${(err as Error).message}`, source, line, undefined, { cause: err });
        }
        if (record === null || typeof record !== 'object' || Array.isArray(record)) {
          throw new ParseError('a catalogue line must hold one JSON object (a record)', source, line);
        }
        this.addRecord(record as Record<string, unknown>, chunkIndex, start, end);
      }
      line++;
      pos = nl + 1;
    }
    return line;
  }

  private addRecord(r: Record<string, unknown>, chunk: number, start: number, end: number): void {
    const id = this.size;
    if (id >= MAX_RECORDS) throw new ToolkitError(`a catalogue holds at most ${MAX_RECORDS} records`, 'usage');
    this.size++;
    this.recChunk.push(chunk);
    this.recStart.push(start);
    this.recEnd.push(end);
    this.hidden.push(hiddenTail(r, this.chunks[chunk]!, start, end));

    const t = this.tokens;
    const v = this.values;
    t.title.add(fields.titleOf(r), id);
    const names = fields.namesOf(r);
    for (let i = 0; i < names.length; i++) t.name.add(names[i]!, id);
    // the facet values of the record go in this order: subject, keyword, pub, year, country, type
    this.subjectGroup.addAll(fields.subjectsOf(r), id);
    this.keywordGroup.addAll(fields.keywordsOf(r), id);
    this.pubGroup.add(fields.publicationNameOf(r), id);
    this.yearGroup.add(fields.yearOf(r), id);
    const countries = fields.countriesOf(r);
    if (countries.length > 0) this.countryGroup.addAll(countries, id);
    else this.facets.values.push(this.noCountry);
    this.typeGroup.add(fields.publicationTypeOf(r), id);
    this.facets.next();

    this.doiHashes.push(doiHash(fields.doiOf(r)));
    v.type.add(fields.contentTypeOf(r), id);
    v.journalid.add(fields.journalIdOf(r), id);
    v.issn.addAll(fields.issnsOf(r), id);
    v.isbn.addAll(fields.isbnsOf(r), id);
    v.language.add(fields.languageOf(r), id);
    v.openaccess.add(fields.openAccessOf(r), id);

    this.pubDates.push(fields.dateNumber(r.publicationDate));
    this.onlineDates.push(fields.dateNumber(r.onlineDate));
  }
}

const CACHE_LIMIT = 200_000;

/**
 * Where the catalogue-only keys of a record start: 0 when it has none; the
 * byte offset of the `,"_…":` that starts them when they are all at the end
 * (the common case: the page then serves the bytes before it, plus `}`);
 * -1 otherwise (the page parses the record and drops them).
 */
function hiddenTail(r: Record<string, unknown>, chunk: Buffer, start: number, end: number): number {
  let i = 0;
  let first = -1;
  let firstKey = '';
  let trailing = true;
  for (const key in r) {
    if (key.charCodeAt(0) === 95) {
      if (first < 0) {
        first = i;
        firstKey = key;
      }
    } else if (first >= 0) trailing = false;
    i++;
  }
  if (first < 0) return 0;
  if (first === 0 || !trailing || JSON.stringify(firstKey) !== `"${firstKey}"`) return -1;
  const cut = chunk.lastIndexOf(`,"${firstKey}":`, end - 1, 'utf8');
  if (cut <= start) return -1;
  try {
    const tail = JSON.parse(`{${chunk.toString('utf8', cut + 1, end)}`) as Record<string, unknown>;
    const keys = Object.keys(tail);
    if (keys.length === i - first && keys.every((k) => k.charCodeAt(0) === 95)) return cut;
  } catch {
    // not a clean tail: strip by parsing
  }
  return -1;
}

const DOI_IN_TEXT = /"doi":"((?:[^"\\]|\\.)*)"/;

/** A 28-bit hash (FNV-1a) of a DOI after normalisation; 0 for none. */
function doiHash(doi: string): number {
  if (doi === '') return 0;
  const key = normalizeValue('doi', doi);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 4 || 1;
}

/** Values (non-negative, below 2^28) in ascending order, and the record of each. */
function sortedPairs(byRecord: Int32Array): { values: Int32Array; ids: Int32Array } {
  const keys = new Float64Array(byRecord.length);
  for (let i = 0; i < byRecord.length; i++) keys[i] = byRecord[i]! * MAX_RECORDS + i;
  keys.sort();
  const values = new Int32Array(keys.length);
  const ids = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const id = k % MAX_RECORDS;
    ids[i] = id;
    values[i] = byRecord[id]!;
  }
  return { values, ids };
}

function isBlank(byte: number): boolean {
  return byte === 32 || byte === 9 || byte === 13 || byte === 10;
}

function dateIndex(byRecord: Int32Array): DateIndex {
  const keys = new Float64Array(byRecord.length);
  for (let i = 0; i < byRecord.length; i++) keys[i] = byRecord[i]! * MAX_RECORDS + i;
  keys.sort();
  const sortedDates = new Int32Array(keys.length);
  const sortedIds = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const date = Math.floor(k / MAX_RECORDS);
    sortedDates[i] = date;
    sortedIds[i] = k - date * MAX_RECORDS;
  }
  return { byRecord, sortedDates, sortedIds };
}

/** Everything a {@link Catalogue} is made of. */
interface CatalogueParts {
  size: number;
  chunks: Buffer[];
  recChunk: Int32Array;
  recStart: Int32Array;
  recEnd: Int32Array;
  hidden: Int32Array;
  tokenIndexes: Map<TokenIndexName, TermIndex>;
  valueIndexes: Map<ValueIndexName, TermIndex>;
  facetLabels: string[][];
  facetOffsets: Int32Array;
  facetValues: Int32Array;
  pubDates: Int32Array;
  onlineDates: Int32Array;
  doiHashes: Int32Array;
}

/** A part of a catalogue as plain data (what a loading worker sends back). */
export interface RawCatalogueParts {
  size: number;
  chunks: Uint8Array[];
  recChunk: Int32Array;
  recStart: Int32Array;
  recEnd: Int32Array;
  hidden: Int32Array;
  tokens: Record<TokenIndexName, TermPairs>;
  values: Record<Exclude<ValueIndexName, 'doi'>, TermPairs>;
  facetLabels: string[][];
  facetOffsets: Int32Array;
  facetValues: Int32Array;
  pubDates: Int32Array;
  onlineDates: Int32Array;
  doiHashes: Int32Array;
}

function concatInt32(arrays: readonly Int32Array[], shift: (k: number) => number = () => 0): Int32Array {
  const out = new Int32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  arrays.forEach((a, k) => {
    const d = shift(k);
    if (d === 0) out.set(a, at);
    else for (let i = 0; i < a.length; i++) out[at + i] = a[i]! + d;
    at += a.length;
  });
  return out;
}

/** Joins consecutive parts of a catalogue (read by workers) into one. */
function mergeParts(parts: readonly RawCatalogueParts[]): CatalogueParts {
  const recordOffsets: number[] = [];
  const chunkOffsets: number[] = [];
  let records = 0;
  let chunks = 0;
  for (const p of parts) {
    recordOffsets.push(records);
    chunkOffsets.push(chunks);
    records += p.size;
    chunks += p.chunks.length;
  }
  if (records > MAX_RECORDS) throw new ToolkitError(`a catalogue holds at most ${MAX_RECORDS} records`, 'usage');
  // facets: one dictionary per facet, values re-coded
  const facetLabels: string[][] = FACET_NAMES.map(() => []);
  const dicts = FACET_NAMES.map(() => new Map<string, number>());
  const facetValues = concatInt32(
    parts.map((p) => {
      const remaps = p.facetLabels.map((labels, k) =>
        labels.map((label) => {
          let id = dicts[k]!.get(label);
          if (id === undefined) {
            id = dicts[k]!.size;
            dicts[k]!.set(label, id);
            facetLabels[k]!.push(label);
          }
          return id;
        }),
      );
      const out = new Int32Array(p.facetValues.length);
      for (let i = 0; i < out.length; i++) {
        const code = p.facetValues[i]!;
        out[i] = remaps[code & 7]![code >>> 3]! * 8 + (code & 7);
      }
      return out;
    }),
  );
  let valueOffset = 0;
  const facetOffsets = concatInt32(
    parts.map((p, k) => (k === 0 ? p.facetOffsets : p.facetOffsets.subarray(1))),
    (k) => {
      const d = valueOffset;
      valueOffset += parts[k]!.facetValues.length;
      return d;
    },
  );
  return {
    size: records,
    chunks: parts.flatMap((p) => p.chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))),
    recChunk: concatInt32(
      parts.map((p) => p.recChunk),
      (k) => chunkOffsets[k]!,
    ),
    recStart: concatInt32(parts.map((p) => p.recStart)),
    recEnd: concatInt32(parts.map((p) => p.recEnd)),
    hidden: concatInt32(parts.map((p) => p.hidden)),
    tokenIndexes: new Map(
      TOKEN_INDEXES.map((n) => [
        n,
        mergeTermPairs(
          parts.map((p) => p.tokens[n]),
          recordOffsets,
        ),
      ]),
    ),
    valueIndexes: new Map(
      VALUE_INDEXES.map((n) => [
        n,
        mergeTermPairs(
          parts.map((p) => p.values[n]),
          recordOffsets,
        ),
      ]),
    ),
    facetLabels,
    facetOffsets,
    facetValues,
    pubDates: concatInt32(parts.map((p) => p.pubDates)),
    onlineDates: concatInt32(parts.map((p) => p.onlineDates)),
    doiHashes: concatInt32(parts.map((p) => p.doiHashes)),
  };
}

/**
 * Reads the whole lines of NDJSON in bytes `start` … `end` of an open file
 * into a builder; line numbers in errors count from `firstLine`.
 */
function readNdjson(fd: number, start: number, end: number, builder: CatalogueBuilder, source: string, firstLine = 1): void {
  const chunkSize = 8 * 1024 * 1024;
  let carry: Buffer = Buffer.alloc(0);
  let line = firstLine;
  let position = start;
  for (;;) {
    const want = Math.min(chunkSize, end - position);
    const buf = Buffer.allocUnsafe(carry.length + Math.max(want, 0));
    carry.copy(buf, 0);
    const read = want > 0 ? readSync(fd, buf, carry.length, want, position) : 0;
    position += read;
    const total = carry.length + read;
    if (read === 0) {
      if (total > 0) builder.addChunk(buf.subarray(0, total), source, line);
      return;
    }
    const lastNl = buf.lastIndexOf(NEWLINE, total - 1);
    if (lastNl < 0) {
      carry = buf.subarray(0, total);
      continue;
    }
    line = builder.addChunk(buf.subarray(0, lastNl + 1), source, line);
    carry = Buffer.from(buf.subarray(lastNl + 1, total));
  }
}

function openCatalogue(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw new ToolkitError(`cannot read the catalogue ${path}: ${(err as Error).message}`, 'io', { cause: err });
  }
}

/**
 * Reads and indexes the records of bytes `start` … `end` of an NDJSON
 * catalogue (both at line starts) as plain data: what a loading worker does.
 */
export function readCatalogueRange(path: string, start: number, end: number): RawCatalogueParts {
  const fd = openCatalogue(path);
  try {
    const builder = new CatalogueBuilder();
    readNdjson(fd, start, end, builder, path);
    return builder.raw();
  } finally {
    closeSync(fd);
  }
}

/**
 * An in-memory, indexed catalogue of records. Records are kept as the bytes
 * of their JSON (only the records of a page are parsed); words and values are
 * kept in inverted indexes (token → sorted record ids), dates in sorted arrays,
 * facet values per record in compact arrays.
 *
 * Keys that start with `_` are catalogue-only (such as `_countries`, the
 * affiliation countries behind the `country` facet): indexed, never served.
 */
export class Catalogue {
  /** Number of records. */
  readonly size: number;
  private readonly chunks: Buffer[];
  private readonly recChunk: Int32Array;
  private readonly recStart: Int32Array;
  private readonly recEnd: Int32Array;
  private readonly hidden: Int32Array;
  private readonly tokenIndexes: Map<TokenIndexName, TermIndex>;
  private readonly valueIndexes: Map<ValueIndexName, TermIndex>;
  private readonly facetLabels: string[][];
  private readonly facetOffsets: Int32Array;
  private readonly facetValues: Int32Array;
  private readonly facetBases: number[];
  private readonly facetValueCount: number;
  private readonly dates: Record<DateKind, DateIndex>;
  /** DOI hashes in ascending order, and the record of each. */
  private readonly doiSortedHashes: Int32Array;
  private readonly doiSortedIds: Int32Array;
  /** Normalised DOIs in ascending order with their records (built on the first prefix search). */
  private doiSorted: { dois: string[]; ids: Int32Array } | undefined;

  private constructor(p: CatalogueParts) {
    this.size = p.size;
    this.chunks = p.chunks;
    this.recChunk = p.recChunk;
    this.recStart = p.recStart;
    this.recEnd = p.recEnd;
    this.hidden = p.hidden;
    this.tokenIndexes = p.tokenIndexes;
    this.valueIndexes = p.valueIndexes;
    this.facetLabels = p.facetLabels;
    this.facetOffsets = p.facetOffsets;
    // value codes (value id × 8 + facet) become ids over all facets: facet k's values from facetBases[k]
    this.facetBases = [];
    let base = 0;
    for (const labels of p.facetLabels) {
      this.facetBases.push(base);
      base += labels.length;
    }
    this.facetValues = p.facetValues;
    for (let i = 0; i < this.facetValues.length; i++) {
      const code = this.facetValues[i]!;
      this.facetValues[i] = this.facetBases[code & 7]! + (code >>> 3);
    }
    this.facetValueCount = base;
    this.dates = { publication: dateIndex(p.pubDates), online: dateIndex(p.onlineDates) };
    const doi = sortedPairs(p.doiHashes);
    this.doiSortedHashes = doi.values;
    this.doiSortedIds = doi.ids;
  }

  /** Joins consecutive parts read by {@link readCatalogueRange} (in file order) into one catalogue. */
  static fromParts(parts: readonly RawCatalogueParts[]): Catalogue {
    return new Catalogue(mergeParts(parts));
  }

  /**
   * Reads a catalogue file: newline-delimited JSON (one record per line, blank
   * lines skipped) or one JSON array of records. Throws a `ParseError` naming
   * the line of a bad record, or a `ToolkitError` with code `io`.
   */
  static fromFile(path: string): Catalogue {
    const fd = openCatalogue(path);
    try {
      const size = fstatSync(fd).size;
      if (catalogueIsArray(fd, size)) {
        const all = Buffer.alloc(size);
        readSync(fd, all, 0, size, 0);
        let records: unknown;
        try {
          records = JSON.parse(all.toString('utf8').replace(/^\uFEFF/, ''));
        } catch (err) {
          throw new ParseError(`not a JSON array of records: ${(err as Error).message}`, path, undefined, undefined, { cause: err });
        }
        return Catalogue.fromRecords(records as Iterable<object>, path);
      }
      const builder = new CatalogueBuilder();
      readNdjson(fd, 0, size, builder, path);
      return new Catalogue(builder.parts());
    } finally {
      closeSync(fd);
    }
  }

  /** Builds a catalogue from record objects (tests, generated catalogues). */
  static fromRecords(records: Iterable<object>, source = 'records'): Catalogue {
    if (records === null || typeof records !== 'object' || typeof (records as Iterable<unknown>)[Symbol.iterator] !== 'function') {
      throw new ParseError('a catalogue must be a JSON array of records', source);
    }
    const builder = new CatalogueBuilder();
    let text = '';
    let line = 1;
    for (const r of records) {
      text += `${JSON.stringify(r)}\n`;
      if (text.length > 4 * 1024 * 1024) {
        line = builder.addChunk(Buffer.from(text, 'utf8'), source, line);
        text = '';
      }
    }
    if (text !== '') builder.addChunk(Buffer.from(text, 'utf8'), source, line);
    return new Catalogue(builder.parts());
  }

  /** The JSON text of record `id` as served (catalogue-only `_` keys removed). */
  recordJson(id: number): string {
    const chunk = this.chunks[this.recChunk[id]!]!;
    const hidden = this.hidden[id]!;
    if (hidden > 0) return `${chunk.toString('utf8', this.recStart[id]!, hidden)}}`;
    const text = chunk.toString('utf8', this.recStart[id]!, this.recEnd[id]!);
    if (hidden === 0) return text;
    return JSON.stringify(stripHidden(JSON.parse(text) as Record<string, unknown>));
  }

  /** Record `id` as an object, as served. */
  record(id: number): Record<string, unknown> {
    if (this.hidden[id]! > 0) return JSON.parse(this.recordJson(id)) as Record<string, unknown>;
    const text = this.chunks[this.recChunk[id]!]!.toString('utf8', this.recStart[id]!, this.recEnd[id]!);
    const r = JSON.parse(text) as Record<string, unknown>;
    return this.hidden[id] === 0 ? r : stripHidden(r);
  }

  /** The JSON text of record `id` as stored, catalogue-only keys included. */
  rawText(id: number): string {
    return this.chunks[this.recChunk[id]!]!.toString('utf8', this.recStart[id]!, this.recEnd[id]!);
  }

  /** Record `id` with its catalogue-only keys (for checks that need them). */
  rawRecord(id: number): Record<string, unknown> {
    return JSON.parse(this.chunks[this.recChunk[id]!]!.toString('utf8', this.recStart[id]!, this.recEnd[id]!)) as Record<string, unknown>;
  }

  /** Records holding a (folded) word. */
  tokenPostings(index: TokenIndexName, token: string): Int32Array {
    return this.tokenIndexes.get(index)!.get(token);
  }

  /** Records holding a word that starts with `prefix`. */
  tokenPrefixPostings(index: TokenIndexName, prefix: string): Int32Array {
    return this.tokenIndexes.get(index)!.prefix(prefix, this.size);
  }

  /** Records with a value (normalised with {@link normalizeValue}). */
  valuePostings(index: ValueIndexName, value: string): Int32Array {
    if (index === 'doi') return this.doiPostings(normalizeValue('doi', value));
    return this.valueIndexes.get(index)!.get(normalizeValue(index, value));
  }

  /** Records with a value that starts with `prefix`. */
  valuePrefixPostings(index: ValueIndexName, prefix: string): Int32Array {
    if (index === 'doi') return this.doiPrefixPostings(normalizeValue('doi', prefix));
    return this.valueIndexes.get(index)!.prefix(normalizeValue(index, prefix), this.size);
  }

  /** The normalised DOI of a record, read from its text. */
  private doiOf(id: number): string {
    const m = DOI_IN_TEXT.exec(this.rawText(id));
    let doi = '';
    try {
      doi = m ? (JSON.parse(`"${m[1]}"`) as string) : '';
    } catch {
      doi = '';
    }
    if (doi === '') doi = fields.doiOf(this.rawRecord(id));
    return normalizeValue('doi', doi);
  }

  private doiPostings(doi: string): Int32Array {
    if (doi === '') return EMPTY;
    const h = doiHash(doi);
    const hashes = this.doiSortedHashes;
    let i = lowerIndex(hashes, h);
    const out: number[] = [];
    for (; i < hashes.length && hashes[i] === h; i++) {
      const id = this.doiSortedIds[i]!;
      if (this.doiOf(id) === doi) out.push(id);
    }
    return Int32Array.from(out).sort();
  }

  private doiPrefixPostings(prefix: string): Int32Array {
    if (!this.doiSorted) {
      const pairs: [string, number][] = [];
      for (let id = 0; id < this.size; id++) {
        const doi = this.doiOf(id);
        if (doi !== '') pairs.push([doi, id]);
      }
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      this.doiSorted = { dois: pairs.map((p) => p[0]), ids: Int32Array.from(pairs.map((p) => p[1])) };
    }
    const { dois, ids } = this.doiSorted;
    let lo = 0;
    let hi = dois.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dois[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < dois.length && dois[end]!.startsWith(prefix)) end++;
    return ids.slice(lo, end).sort();
  }

  /** Records whose date (YYYYMMDD numbers, both included) lies in a range, sorted by id. */
  dateRange(kind: DateKind, from: number, to: number): Int32Array {
    const { sortedDates, sortedIds } = this.dates[kind];
    const lo = lowerIndex(sortedDates, Math.max(from, 1));
    const hi = lowerIndex(sortedDates, to + 1);
    if (hi <= lo) return EMPTY;
    if (hi - lo < this.size >>> 5) return sortedIds.slice(lo, hi).sort();
    // a large range: mark and scan (linear) rather than sort
    const mark = new Uint8Array(this.size);
    for (let i = lo; i < hi; i++) mark[sortedIds[i]!] = 1;
    const out = new Int32Array(hi - lo);
    let n = 0;
    for (let id = 0; id < mark.length; id++) if (mark[id] === 1) out[n++] = id;
    return out;
  }

  /** The values of a facet over a set of records: at most `limit`, by count then value. */
  facet(name: FacetName, ids: Int32Array, limit = 20): FacetValue[] {
    return this.facets(ids, limit)[FACET_NAMES.indexOf(name)]!;
  }

  /** The values of every facet (in {@link FACET_NAMES} order) over a set of records, in one pass. */
  facets(ids: Int32Array, limit = 20): FacetValue[][] {
    // one counter per facet value, all facets in one array: no branching per value
    const counts = new Int32Array(this.facetValueCount);
    const offsets = this.facetOffsets;
    const values = this.facetValues;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const end = offsets[id + 1]!;
      for (let k = offsets[id]!; k < end; k++) counts[values[k]!]!++;
    }
    return this.facetLabels.map((labels, k) => topValues(counts, this.facetBases[k]!, labels, limit));
  }
}

/** The `limit` values of a facet (its counters from `base`) with the highest counts (ties by value), as strings. */
function topValues(counts: Int32Array, base: number, labels: readonly string[], limit: number): FacetValue[] {
  const top: number[] = [];
  const count = (v: number) => counts[base + v]!;
  const better = (a: number, b: number) => count(a) > count(b) || (count(a) === count(b) && labels[a]! < labels[b]!);
  for (let v = 0; v < labels.length; v++) {
    if (count(v) === 0) continue;
    if (top.length === limit && !better(v, top[top.length - 1]!)) continue;
    let at = top.length;
    while (at > 0 && better(v, top[at - 1]!)) at--;
    top.splice(at, 0, v);
    if (top.length > limit) top.pop();
  }
  return top.map((v) => ({ value: labels[v]!, count: String(count(v)) }));
}

/** Whether a catalogue file is one JSON array (else NDJSON). */
export function catalogueIsArray(fd: number, size: number): boolean {
  const head = Buffer.alloc(Math.min(size, 4096));
  readSync(fd, head, 0, head.length, 0);
  return head.toString('utf8').replace(/^\uFEFF/, '').trimStart().startsWith('[');
}

function lowerIndex(list: Int32Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function stripHidden(r: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(r)) if (key.startsWith('_')) delete r[key];
  return r;
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
