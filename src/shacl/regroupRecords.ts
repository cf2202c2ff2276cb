import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { RecordText } from './RecordText.js';
import { registerTempFile, unregisterTempFile } from '../tempFiles.js';

/** A group of lines of one record (`key`), or of no record (`key` undefined), as {@link groupNTriplesRecords} gives them. */
export interface KeyedRecordText extends RecordText {
  key: string | undefined;
}

/** Options of {@link regroupRecords}. */
export interface RegroupRecordsOptions {
  /** Number of temporary files the groups are spread over: a pass holds one at a time. Defaults to 64. */
  buckets?: number;
  /** Directory for the temporary files (removed at the end). Defaults to the system's. */
  tmpDir?: string;
}

/** Bytes a bucket holds in memory before they are appended to its file. */
const FLUSH_BYTES = 1 << 20;

/**
 * Brings together the pieces of records whose lines are scattered over the
 * input (a dump sorted by subject, a store's export): a first pass spreads the
 * groups over `buckets` temporary files by a hash of their record key, a
 * second pass reads one file at a time and yields each record whole, with the
 * input line numbers of all its lines. Memory is that of one file, about
 * 1/`buckets` of the input; records come out in the order of their buckets,
 * not of the input. Groups of no record come last, as they were.
 */
export async function* regroupRecords(
  groups: AsyncIterable<KeyedRecordText>,
  options: RegroupRecordsOptions = {},
): AsyncGenerator<KeyedRecordText, void, undefined> {
  const count = Math.max(1, options.buckets ?? 64);
  const dir = mkdtempSync(join(options.tmpDir ?? tmpdir(), 'scholarly-rdf-regroup-'));
  registerTempFile(dir);
  try {
    const files = Array.from({ length: count + 1 }, (_, i) => join(dir, `bucket-${i}.jsonl`));
    const pending: string[][] = files.map(() => []);
    const sizes = files.map(() => 0);
    const flush = (i: number) => {
      if (pending[i]!.length === 0) return;
      appendFileSync(files[i]!, pending[i]!.join(''));
      pending[i] = [];
      sizes[i] = 0;
    };
    let format: RecordText['format'] = 'ntriples';
    let source = '<input>';
    for await (const g of groups) {
      format = g.format;
      source = g.source;
      // The last file holds the groups of no record.
      const i = g.key === undefined ? count : bucketOf(g.key, count);
      const line = `${JSON.stringify([g.key ?? null, g.text, g.lines])}\n`;
      pending[i]!.push(line);
      sizes[i]! += line.length;
      if (sizes[i]! >= FLUSH_BYTES) flush(i);
    }
    for (let i = 0; i <= count; i++) flush(i);
    for (let i = 0; i <= count; i++) {
      let text: string;
      try {
        text = readFileSync(files[i]!, 'utf8');
      } catch {
        continue; // no group went there
      }
      const merged = new Map<string, { texts: string[]; lines: number[] }>();
      const others: KeyedRecordText[] = [];
      for (const row of text.split('\n')) {
        if (row === '') continue;
        const [key, body, lines] = JSON.parse(row) as [string | null, string, number[]];
        if (key === null) {
          others.push({ key: undefined, format, source, text: body, lines });
          continue;
        }
        const m = merged.get(key);
        if (m) {
          m.texts.push(body);
          m.lines.push(...lines);
        } else merged.set(key, { texts: [body], lines: [...lines] });
      }
      for (const [key, m] of merged) yield { key, format, source, text: m.texts.join(''), lines: m.lines };
      yield* others;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    unregisterTempFile(dir);
  }
}

function bucketOf(key: string, count: number): number {
  return createHash('md5').update(key).digest().readUInt32BE(0) % count;
}
