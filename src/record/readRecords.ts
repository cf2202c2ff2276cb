import type { Readable } from 'node:stream';
import { describeJsonError } from './describeJsonError.js';
import { NdjsonJoiner, type NdjsonPiece } from './NdjsonJoiner.js';
import { DEFAULT_MAX_DEPTH, findTooDeep } from './cutDeepJson.js';
import { ByteLineSplitter } from './ByteLineSplitter.js';
import { type Line, LineSplitter, type LongLine } from './LineSplitter.js';
import { excerptOf, recoverTruncatedRecords } from './recoverTruncated.js';
import { tryParse } from './tryParse.js';
import { withoutBoms } from './withoutBoms.js';
import { unwrap } from './unwrap.js';

/** One item read from an input: a record to map, or a part of the input that could not be read. */
export type ReadItem =
  | {
      kind: 'record';
      /** The record as parsed: any JSON value (the normaliser decides whether it is a record). */
      raw: unknown;
      source: string;
      /** 1-based position of the record in this input. */
      index: number;
      /** 1-based line where the record's JSON starts (newline-delimited input only). */
      line?: number;
      /**
       * The JSON text `raw` was parsed from, with `keepText` when the record
       * was all its line held (newline-delimited input): what a worker thread
       * parses again, cheaper than receiving the value copied.
       */
      text?: string;
    }
  | {
      kind: 'problem';
      source: string;
      /** 1-based position of the record this would have been, when known. */
      index?: number;
      line?: number;
      reason: string;
      /** The start of the text that could not be read (at most 200 characters). */
      excerpt?: string;
    };

/** Options of {@link readRecords}. */
export interface ReadRecordsOptions {
  /** Name of the input for messages. Defaults to `<input>`. */
  source?: string;
  /**
   * The largest JSON text read whole, in characters: a single JSON document
   * (an envelope or an array), or one line of newline-delimited input. A
   * larger one is a problem (the whole input, or that line), never held in
   * memory whole. Defaults to 2^23 (8 Mi): a saved page of
   * 100 records is about 1 MB, a record's line a few KB (docs/errors.md).
   */
  maxDocumentChars?: number;
  /**
   * The deepest nesting of objects and arrays read, counted from the
   * outermost bracket of a line or document (`{"records":[{…}]}` is three
   * levels). A record that holds something deeper is a problem; the other
   * records of the same document are read. Defaults to 64.
   */
  maxDepth?: number;
  /** Record items of newline-delimited input carry their JSON text (`text`). Defaults to false. */
  keepText?: boolean;
  /**
   * The input goes on from a newline-delimited input read this far: its first
   * line is line `line + 1` and its first record number `index + 1` (no byte
   * order mark is looked for). Defaults to none (the start of an input).
   */
  after?: ReadPosition;
  /**
   * Given each chunk of bytes of the input once no part of it is held any
   * longer (its lines decoded, or dropped), for its reader to read into again
   * (`openRdfFile`'s `release`). Defaults to none.
   */
  release?: (chunk: Uint8Array) => void;
}

/** How far a newline-delimited input was read: lines and numbered items. */
export interface ReadPosition {
  line: number;
  index: number;
}

/**
 * Reads the records of one input, as the service and users send them: a
 * `/meta/v2/` or `/metadata/v1/` envelope, a bare record, an array of records
 * or envelopes, or newline-delimited JSON of any of these. Bytes are decoded
 * as UTF-8 (invalid bytes become U+FFFD). Raw line breaks and other control
 * characters inside JSON strings (as in old saved responses) are repaired.
 *
 * Newline-delimited input streams line by line, in memory that does not grow
 * with it; a single JSON document is parsed whole (up to `maxDocumentChars`).
 * Nothing is dropped silently: a line or document that cannot be read, a
 * record nested deeper than `maxDepth`, or an error body of the service, comes
 * out as a `problem` item.
 */
export async function* readRecords(
  input: Readable | AsyncIterable<Uint8Array | string>,
  options: ReadRecordsOptions = {},
): AsyncGenerator<ReadItem> {
  const limits = {
    maxChars: options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  const reader = new RecordLines(options.source ?? '<input>', limits, options.keepText === true, options.after);
  for await (const lines of chunkLines(input, limits.maxChars, options.after === undefined, options.release)) {
    for (const line of lines)
      yield* reader.line(typeof line === 'string' && line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  yield* reader.end();
}

/** What to do with a response too large to read whole. */
const ONE_RECORD_A_LINE =
  "give the records as newline-delimited JSON, one record per line (for example: jq -c '.records[]' FILE)";

/** The default of `maxDocumentChars`. */
export const DEFAULT_MAX_DOCUMENT_CHARS = 2 ** 23;

/**
 * The lines of an input, decoded as UTF-8, a chunk's worth at a time (a line
 * still ends in the CR of a CR LF). Bytes are cut into lines and each line
 * decoded once ({@link ByteLineSplitter}); text comes as it is given. A byte
 * order mark at the start is dropped, two as `convert` reads an input
 * ({@link withoutBoms}); the last line needs no line break. A line longer than
 * `maxChars` comes as a {@link LongLine}. Chunks of bytes no longer held are
 * given to `release`.
 */
async function* chunkLines(
  input: Readable | AsyncIterable<Uint8Array | string>,
  maxChars: number,
  fromStart: boolean,
  release?: (chunk: Uint8Array) => void,
): AsyncGenerator<Line[]> {
  let splitter: LineSplitter | ByteLineSplitter | undefined;
  let atStart = fromStart;
  const startless = (lines: Line[]): Line[] => {
    if (!atStart || lines.length === 0) return lines;
    atStart = false;
    const first = lines[0]!;
    lines[0] = typeof first === 'string' ? withoutBoms(first) : { ...first, head: withoutBoms(first.head) };
    return lines;
  };
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    splitter ??= typeof chunk === 'string' ? new LineSplitter(maxChars) : new ByteLineSplitter(maxChars, release);
    const lines =
      splitter instanceof ByteLineSplitter
        ? splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
        : splitter.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
    if (lines.length > 0) yield startless(lines);
  }
  const lines = splitter ? splitter.end() : [];
  if (lines.length > 0) yield startless(lines);
}

/**
 * The records of one input, from its lines. The first line with JSON decides:
 * when it is a JSON value on its own, the input is newline-delimited JSON,
 * read line by line (a record broken over lines joined, see
 * {@link NdjsonJoiner}); else the input is one JSON document, gathered whole
 * (up to `maxDocumentChars`) and read at the end.
 */
export class RecordLines {
  private index = 0;
  private lineNo = 0;
  private mode: 'unknown' | 'lines' | 'document' = 'unknown';
  private documentText = '';
  private documentStartLine = 1;
  private documentTooLarge = false;
  private readonly joiner: NdjsonJoiner;

  constructor(
    private readonly source: string,
    private readonly limits: { maxChars: number; maxDepth: number },
    private readonly keepText: boolean,
    after?: ReadPosition,
  ) {
    this.joiner = new NdjsonJoiner(limits.maxDepth);
    if (after) {
      this.mode = 'lines';
      this.lineNo = after.line;
      this.index = after.index;
    }
  }

  /** Items numbered so far (the last `index` given). */
  get numbered(): number {
    return this.index;
  }

  /** The line a record broken over lines that is still open starts on (newline-delimited input); undefined when none is. */
  get openLine(): number | undefined {
    return this.joiner.openLine;
  }

  /**
   * The items a line of the input completes (without its line break), in an array (most lines give one record:
   * no generator is made and resumed for each line).
   */
  line(line: Line): ReadItem[] {
    const out: ReadItem[] = [];
    this.lineNo++;
    if (typeof line !== 'string') {
      this.longLine(line, out);
      return out;
    }
    if (this.mode === 'document') {
      this.gather(line);
      return out;
    }
    if (this.mode === 'unknown') {
      const trimmed = line.trim();
      if (trimmed === '') return out;
      if (tryParse(trimmed, this.limits.maxDepth).ok) this.mode = 'lines';
      else {
        this.mode = 'document';
        this.documentStartLine = this.lineNo;
        this.documentText = `${line}\n`;
        return out;
      }
    }
    this.items(this.joiner.push(line, this.lineNo), out);
    return out;
  }

  /** The items left at the end of the input: a record still open, the document, or the word that there was nothing. */
  end(): ReadItem[] {
    const out: ReadItem[] = [];
    this.items(this.joiner.end(), out);
    if (this.mode === 'unknown')
      out.push({ kind: 'problem', source: this.source, reason: 'the input is empty: no JSON found' });
    else if (this.mode === 'document') this.document(out);
    return out;
  }

  /**
   * A line longer than read whole: in a document, the document is too large;
   * else (newline-delimited input, or the first line) it is one problem, and
   * the lines after it are read as newline-delimited JSON.
   */
  private longLine(line: LongLine, out: ReadItem[]): void {
    if (this.mode === 'document') {
      this.gather(line);
      return;
    }
    // The first line of JSON may be a whole response on one line (its records are better given one a line); a
    // later line of newline-delimited input is one record's.
    const hint = this.mode === 'unknown' ? `: ${ONE_RECORD_A_LINE}` : '';
    this.mode = 'lines';
    this.items(this.joiner.end(false), out);
    out.push({
      kind: 'problem',
      source: this.source,
      index: ++this.index,
      line: this.lineNo,
      reason: `the line holds more than ${describeChars(this.limits.maxChars)} of JSON, more than is read as a whole (\`maxDocumentChars\` raises the limit)${hint}`,
      excerpt: excerptOf(line.head),
    });
  }

  /** A line of a JSON document, kept until the document is larger than read whole (then only its start, for the message). */
  private gather(line: Line): void {
    if (this.documentTooLarge) return;
    if (typeof line !== 'string' || this.documentText.length + line.length >= this.limits.maxChars) {
      this.documentTooLarge = true;
      this.documentText = (this.documentText + (typeof line === 'string' ? line.slice(0, 200) : line.head)).slice(
        0,
        200,
      );
    } else this.documentText += `${line}\n`;
  }

  /** The records of the whole document, or the problem with it. */
  private document(out: ReadItem[]): void {
    const { source, documentText, documentStartLine } = this;
    if (this.documentTooLarge) {
      out.push({
        kind: 'problem',
        source,
        line: documentStartLine,
        reason: `the JSON document is larger than ${describeChars(this.limits.maxChars)}, more than is read as a whole (\`maxDocumentChars\` raises the limit): ${ONE_RECORD_A_LINE}`,
        excerpt: excerptOf(documentText),
      });
      return;
    }
    const parsed = tryParse(documentText, this.limits.maxDepth);
    if (parsed.ok) {
      this.emit(out, parsed.value, undefined, parsed.deep ? documentText : undefined);
      return;
    }
    // Not one document: perhaps newline-delimited JSON whose first line is broken. Only when at least as many
    // records as problems come out: the lines of a truncated pretty-printed document (`"title": "x",`) are problems.
    const lines = documentText.split('\n');
    const dryRun = new NdjsonJoiner(this.limits.maxDepth);
    const pieces = [...lines.flatMap((l, i) => dryRun.push(l, documentStartLine + i)), ...dryRun.end()];
    const records = pieces.filter(
      (p) => p.ok && p.value !== null && typeof p.value === 'object' && Object.keys(p.value).length > 0,
    ).length;
    if (records > 0 && records >= pieces.filter((p) => !p.ok).length) {
      this.items(pieces, out);
      return;
    }
    // A response cut off (a download, a full disk): the records whole before the cut are read, the rest is one problem.
    const recovered = recoverTruncatedRecords(documentText, (json) => {
      const value = tryParse(json, this.limits.maxDepth);
      return value.ok ? value.value : undefined;
    });
    if (recovered) {
      for (const { raw, at } of recovered.records)
        out.push({
          kind: 'record',
          raw,
          source,
          index: ++this.index,
          line: documentStartLine + lineOf(documentText, at),
        });
      const line = documentStartLine + lineOf(documentText, recovered.cutAfter);
      out.push({
        kind: 'problem',
        source,
        index: ++this.index,
        line,
        reason: `the response is cut off after its record ${recovered.records.length} (line ${line}): ${describeJsonError(parsed.reason, documentText, documentStartLine)}; ${recovered.records.length === 1 ? 'the record before the cut is read' : `the ${recovered.records.length} records before the cut are read`}, those after it are missing (fetch the page again)`,
        excerpt: excerptOf(documentText.slice(recovered.cutAfter)),
      });
      return;
    }
    const reason = looksBinary(documentText)
      ? 'not JSON text: the input looks binary (NUL bytes, invalid UTF-8 or control characters near its start); expected the JSON of the service, optionally gzip-compressed'
      : describeJsonError(parsed.reason, documentText, documentStartLine);
    out.push({ kind: 'problem', source, reason, excerpt: excerptOf(documentText) });
  }

  /** The items of newline-delimited pieces: the records of each value read, a problem for each piece that was not. */
  private items(pieces: NdjsonPiece[], out: ReadItem[]): void {
    for (const piece of pieces) {
      if (piece.ok) this.emit(out, piece.value, piece.line, piece.deep, this.keepText ? piece.text : undefined);
      else
        out.push({
          kind: 'problem',
          source: this.source,
          index: ++this.index,
          line: piece.line,
          reason: piece.reason,
          excerpt: excerptOf(piece.text),
        });
    }
  }

  /**
   * The records (or problems) a parsed value holds, numbered. `deepText`: the
   * text of a value cut where it nested too deep; a record holding a cut is a problem.
   * `text`: the value's JSON text, kept on the record when the value is the record itself.
   */
  private emit(out: ReadItem[], value: unknown, line?: number, deepText?: string, text?: string): void {
    const { source } = this;
    const at = line !== undefined ? { line } : {};
    for (const item of unwrap(value)) {
      if (item.kind === 'problem') {
        out.push({ kind: 'problem', source, index: ++this.index, ...at, reason: item.reason });
        continue;
      }
      const tooDeep = deepText === undefined ? undefined : findTooDeep(item.raw);
      if (tooDeep === undefined) {
        // made field by field, not spread from parts: no object made for the parts
        const record: Extract<ReadItem, { kind: 'record' }> = {
          kind: 'record',
          raw: item.raw,
          source,
          index: ++this.index,
        };
        if (line !== undefined) record.line = line;
        if (text !== undefined && item.raw === value) record.text = text;
        out.push(record);
        continue;
      }
      const reason = `nested deeper than ${this.limits.maxDepth} levels (in ${tooDeep}): a record this deep is not read (\`maxDepth\` raises the limit)`;
      out.push({ kind: 'problem', source, index: ++this.index, ...at, reason, excerpt: excerptOf(deepText!) });
    }
  }
}

/** The 0-based line of a position of a text. */
function lineOf(text: string, at: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A count of characters for messages: `8 MiB` for whole MiB, else `1000 characters`. */
function describeChars(chars: number): string {
  return chars >= 2 ** 20 && chars % 2 ** 20 === 0 ? `${chars / 2 ** 20} MiB` : `${chars} characters`;
}

/** Whether text that is not JSON is binary: a NUL, or many U+FFFD (invalid UTF-8) or controls, in its first 1,000 characters. */
function looksBinary(text: string): boolean {
  const head = text.slice(0, 1000);
  if (head.includes('\u0000')) return true;
  const odd = head.match(/[\uFFFD\u0001-\u0008\u000B\u000C\u000E-\u001F]/g)?.length ?? 0;
  return odd > 8 && odd * 10 > head.length;
}
