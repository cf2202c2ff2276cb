import { DEFAULT_MAX_DEPTH } from './cutDeepJson.js';
import { ByteLineSplitter } from './ByteLineSplitter.js';
import { DEFAULT_MAX_DOCUMENT_CHARS, type ReadItem, RecordLines } from './readRecords.js';
import { withoutBoms } from './withoutBoms.js';

export { withoutBoms };

/** Where a part of an input lies in it (see {@link readRecordPart}). */
export interface RecordPartPlace {
  /** Name of the input for messages. */
  source: string;
  /** The line the part starts on (1-based; 1 for the first part). */
  line: number;
  /** The part starts the input: its first line with JSON decides how it is read, and a byte order mark is dropped. */
  first: boolean;
  /** The part ends the input: a record still open at its end is a problem (the input was cut). */
  last: boolean;
}

/** Options of {@link readRecordPart}: the reader's limits, as `readRecords` takes them. */
export interface RecordPartOptions {
  /** As `readRecords`' `maxDocumentChars`. Defaults to 2^23. */
  maxDocumentChars?: number;
  /** As `readRecords`' `maxDepth`. Defaults to 64. */
  maxDepth?: number;
}

/** What {@link readRecordPart} returns once its items are read. */
export interface RecordPartEnd {
  /** How many items were numbered (those with an `index`). */
  numbered: number;
  /**
   * Not the last part: the line a record broken over lines starts on that the
   * part did not end. Its items stop before that line; the record is read
   * again with the next part (from that line on). Undefined when none is open.
   */
  openLine?: number;
}

/**
 * Reads the records of a part of an input, given as bytes: the whole input,
 * or lines of newline-delimited JSON cut after a line break (a worker thread's
 * share of a large input). A part that starts the input is read as
 * `readRecords` reads an input; a later one goes on as newline-delimited JSON
 * from its first line. The items are those `readRecords` gives for the same
 * lines of the whole input, numbered from 1 (and, where a record broken over
 * lines goes past the part's end, stopped before it: see
 * {@link RecordPartEnd.openLine}), and returns how many it numbered.
 */
export function* readRecordPart(
  bytes: Uint8Array,
  place: RecordPartPlace,
  options: RecordPartOptions = {},
): Generator<ReadItem, RecordPartEnd> {
  const limits = {
    maxChars: options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  const reader = new RecordLines(
    place.source,
    limits,
    false,
    place.first ? undefined : { line: place.line - 1, index: 0 },
  );
  // Each line decoded alone, as `readRecords` decodes the bytes of a file (`ByteLineSplitter`): a line of Latin-1 is
  // one byte a character, and the text of a line dies with its record. The part decoded whole was one two-byte
  // string of about 262 KB (every part holds a character past U+00FF), alive through the part: a worker's scavenges
  // promoted it about once a part.
  const splitter = new ByteLineSplitter(limits.maxChars);
  const lines = [...splitter.push(bytes), ...splitter.end()];
  // As `readRecords` reads the start of an input: byte order marks dropped from its first line.
  const first = lines[0];
  if (place.first && first !== undefined)
    lines[0] = typeof first === 'string' ? withoutBoms(first) : { ...first, head: withoutBoms(first.head) };
  // Item by item (each mapped before the next is read: short-lived objects), each line let go once read.
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    lines[i] = '';
    yield* reader.line(typeof line === 'string' && line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  if (place.last) {
    yield* reader.end();
    return { numbered: reader.numbered };
  }
  const openLine = reader.openLine;
  return { numbered: reader.numbered, ...(openLine !== undefined ? { openLine } : {}) };
}
