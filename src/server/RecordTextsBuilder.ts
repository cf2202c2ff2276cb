import type { IndexedRecord } from './IndexedRecord.js';
import { IntList, concatInt32 } from './IntList.js';
import { RecordTexts } from './RecordTexts.js';

/** The records of a part of a catalogue as plain data (what a loading worker sends back). */
export interface RawRecordTexts {
  chunks: Uint8Array[];
  chunkIds: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  hidden: Int32Array;
}

/** Builds {@link RecordTexts} record by record. */
export class RecordTextsBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly chunkIds = new IntList();
  private readonly starts = new IntList();
  private readonly ends = new IntList();
  private readonly hidden = new IntList();

  /** Adds the next record (its chunk is kept on its first record). */
  add(r: IndexedRecord): void {
    if (this.chunks[this.chunks.length - 1] !== r.chunk) this.chunks.push(r.chunk);
    this.chunkIds.push(this.chunks.length - 1);
    this.starts.push(r.start);
    this.ends.push(r.end);
    this.hidden.push(hiddenTail(r.object, r.chunk, r.start, r.end));
  }

  /** The records as built. */
  build(): RecordTexts {
    return new RecordTexts(
      this.chunks,
      this.chunkIds.freeze(),
      this.starts.freeze(),
      this.ends.freeze(),
      this.hidden.freeze(),
    );
  }

  /** The records as plain data (see {@link mergeRecordTexts}). */
  raw(): RawRecordTexts {
    return {
      chunks: this.chunks,
      chunkIds: this.chunkIds.freeze(),
      starts: this.starts.freeze(),
      ends: this.ends.freeze(),
      hidden: this.hidden.freeze(),
    };
  }
}

/** Joins the records of consecutive parts of a catalogue (in file order). */
export function mergeRecordTexts(parts: readonly RawRecordTexts[]): RecordTexts {
  const chunkOffsets: number[] = [];
  let chunks = 0;
  for (const p of parts) {
    chunkOffsets.push(chunks);
    chunks += p.chunks.length;
  }
  return new RecordTexts(
    parts.flatMap((p) => p.chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))),
    concatInt32(
      parts.map((p) => p.chunkIds),
      (k) => chunkOffsets[k]!,
    ),
    concatInt32(parts.map((p) => p.starts)),
    concatInt32(parts.map((p) => p.ends)),
    concatInt32(parts.map((p) => p.hidden)),
  );
}

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
