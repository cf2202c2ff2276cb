import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { recordGraphKeyOf } from './groupNTriplesRecords.js';
import { isDescriptionIri, recordKeyOfIri } from './groupRecords.js';
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
 *
 * Shared entities (a journal, its volumes and issues, a publisher, a person
 * with an ORCID iD: IRI subjects of no record) sort far from the records that
 * name them. Their lines are kept apart, once each, and joined back to every
 * record that names them, following the IRIs its lines have as objects (an
 * issue brings its volume, the volume its journal). Memory then also holds
 * the distinct lines of the shared entities (a few percent of a dump); lines
 * in a record graph (N-Quads of `--graph-per-record`) stay in their record,
 * which needs no join. Shared entities no record names come last, with the
 * groups of no record.
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
    const shared = new SharedLines();
    for await (const g0 of groups) {
      format = g0.format;
      source = g0.source;
      const g = shared.takeFrom(g0);
      if (g === undefined) continue;
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
        // No group went there (the shared entities no record named still come last).
        if (i === count) yield* shared.unnamed(format, source);
        continue;
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
      for (const [key, m] of merged) {
        const text = m.texts.join('');
        const joined = shared.linesNamedBy(text);
        yield { key, format, source, text: text + joined.text, lines: [...m.lines, ...joined.lines] };
      }
      if (i === count) yield* shared.unnamed(format, source);
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

/**
 * The lines of shared entities (IRI subjects of no record), each kept once,
 * by subject, to be joined to the records that name them.
 */
class SharedLines {
  private readonly bySubject = new Map<string, Map<string, number>>();
  private readonly named = new Set<string>();

  /** Keeps the shared lines of a group apart; returns the rest of the group (undefined when nothing is left). */
  takeFrom(g: KeyedRecordText): KeyedRecordText | undefined {
    if (!g.text.includes('\n<') && !g.text.startsWith('<')) return g;
    const rows = g.text.split('\n');
    if (rows[rows.length - 1] === '') rows.pop();
    // A group's lines and line numbers correspond one to one only when the group has as many numbers as lines.
    if (rows.length !== g.lines.length) return g;
    const keptText: string[] = [];
    const keptLines: number[] = [];
    rows.forEach((row, n) => {
      const subject = subjectOf(row);
      if (
        subject !== undefined &&
        recordKeyOfIri(subject) === undefined &&
        !isDescriptionIri(subject) &&
        (g.format !== 'nquads' || recordGraphKeyOf(row) === undefined)
      ) {
        let lines = this.bySubject.get(subject);
        if (!lines) this.bySubject.set(subject, (lines = new Map()));
        if (!lines.has(row)) lines.set(row, g.lines[n]!);
      } else {
        keptText.push(row);
        keptLines.push(g.lines[n]!);
      }
    });
    if (keptText.length === 0) return undefined;
    return { ...g, text: `${keptText.join('\n')}\n`, lines: keptLines };
  }

  /** The shared lines a record's text names: of the IRIs its lines have as objects, and of theirs in turn. */
  linesNamedBy(text: string): { text: string; lines: number[] } {
    if (this.bySubject.size === 0) return { text: '', lines: [] };
    const out: string[] = [];
    const lines: number[] = [];
    const seen = new Set<string>();
    const todo = objectsOf(text).filter((o) => this.bySubject.has(o));
    while (todo.length) {
      const subject = todo.pop()!;
      if (seen.has(subject)) continue;
      seen.add(subject);
      this.named.add(subject);
      for (const [row, line] of this.bySubject.get(subject)!) {
        out.push(row);
        lines.push(line);
        const o = objectOf(row);
        if (o !== undefined && this.bySubject.has(o) && !seen.has(o)) todo.push(o);
      }
    }
    return { text: out.length ? `${out.join('\n')}\n` : '', lines };
  }

  /** The shared entities no record named, as groups of no record. */
  *unnamed(format: RecordText['format'], source: string): Generator<KeyedRecordText> {
    for (const [subject, rows] of this.bySubject) {
      if (this.named.has(subject)) continue;
      yield { key: undefined, format, source, text: `${[...rows.keys()].join('\n')}\n`, lines: [...rows.values()] };
    }
  }
}

/** The subject IRI of an N-Triples/N-Quads line (as written), or undefined (a blank node, no subject). */
function subjectOf(row: string): string | undefined {
  let i = 0;
  while (row.charCodeAt(i) === 32 || row.charCodeAt(i) === 9) i++;
  if (row.charCodeAt(i) !== 60 /* < */) return undefined;
  const end = row.indexOf('>', i + 1);
  return end < 0 ? undefined : row.slice(i + 1, end);
}

/** The object IRI of an N-Triples/N-Quads line (as written), or undefined (a literal or blank node). */
function objectOf(row: string): string | undefined {
  let i = row.indexOf('>');
  for (let term = 0; term < 2; term++) {
    if (i < 0) return undefined;
    i++;
    while (row.charCodeAt(i) === 32 || row.charCodeAt(i) === 9) i++;
    if (term === 0) {
      if (row.charCodeAt(i) !== 60) return undefined;
      i = row.indexOf('>', i + 1);
    }
  }
  if (row.charCodeAt(i) !== 60 /* < */) return undefined;
  const end = row.indexOf('>', i + 1);
  return end < 0 ? undefined : row.slice(i + 1, end);
}

/** The object IRIs of the lines of a text. */
function objectsOf(text: string): string[] {
  const out: string[] = [];
  for (const row of text.split('\n')) {
    const o = objectOf(row);
    if (o !== undefined) out.push(o);
  }
  return out;
}
