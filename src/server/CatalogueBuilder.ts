import { ParseError, ToolkitError } from '../errors.js';
import { IndexedRecordReader } from './IndexedRecord.js';
import { PartBuilders, mergeParts, type BuiltCatalogue, type RawCatalogue } from './indexParts.js';
import { MAX_RECORDS } from './IntColumn.js';

const NEWLINE = 10;

function isBlank(byte: number): boolean {
  return byte === 32 || byte === 9 || byte === 13 || byte === 10;
}

function tooMany(): ToolkitError {
  return new ToolkitError(`a catalogue holds at most ${MAX_RECORDS} records`, 'usage');
}

/** Builds a catalogue (every part of `INDEX_PARTS`) from chunks of newline-delimited JSON. */
export class CatalogueBuilder {
  private readonly parts = new PartBuilders();
  private readonly reader = new IndexedRecordReader();
  /** Number of records so far. */
  size = 0;

  /**
   * Adds a chunk of newline-delimited JSON (whole lines only) whose first line
   * is line `firstLine` of `source` (for errors); returns the number of the
   * line after it.
   */
  addChunk(chunk: Buffer, source: string, firstLine: number): number {
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
      if (end > start) this.addRecord(parseRecord(chunk.toString('utf8', start, end), source, line), chunk, start, end);
      line++;
      pos = nl + 1;
    }
    return line;
  }

  /** The catalogue as built. */
  build(): BuiltCatalogue {
    return { size: this.size, parts: this.parts.build() };
  }

  /** The catalogue as plain data (see {@link mergeCatalogues}). */
  raw(): RawCatalogue {
    return { size: this.size, parts: this.parts.raw() };
  }

  private addRecord(object: Record<string, unknown>, chunk: Buffer, start: number, end: number): void {
    const id = this.size;
    if (id >= MAX_RECORDS) throw tooMany();
    this.size++;
    this.parts.add(this.reader.read(object, chunk, start, end), id);
  }
}

function parseRecord(text: string, source: string, line: number): Record<string, unknown> {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (err) {
    throw new ParseError(`not a JSON record: ${(err as Error).message}`, source, line, undefined, { cause: err });
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new ParseError('a catalogue line must hold one JSON object (a record)', source, line);
  }
  return record as Record<string, unknown>;
}

/** Joins consecutive parts of a catalogue (read by workers, in file order) into one. */
export function mergeCatalogues(raws: readonly RawCatalogue[]): BuiltCatalogue {
  const recordOffsets: number[] = [];
  let size = 0;
  for (const raw of raws) {
    recordOffsets.push(size);
    size += raw.size;
  }
  if (size > MAX_RECORDS) throw tooMany();
  return {
    size,
    parts: mergeParts(
      raws.map((raw) => raw.parts),
      recordOffsets,
    ),
  };
}

/** Indexes record objects (tests, generated catalogues); `source` names them in errors. */
export function indexRecords(records: Iterable<object>, source: string): BuiltCatalogue {
  if (
    records === null ||
    typeof records !== 'object' ||
    typeof (records as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
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
  return builder.build();
}
