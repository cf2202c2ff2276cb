import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { describeJsonError } from './describeJsonError.js';
import { NdjsonJoiner, type NdjsonPiece } from './NdjsonJoiner.js';
import { tryParse } from './tryParse.js';
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
   * The largest single JSON document read whole, in characters (newline-delimited
   * input streams and has no limit). A larger one is reported as a problem, not
   * a crash. Defaults to 2^28 (256 Mi).
   */
  maxDocumentChars?: number;
}

/**
 * Reads the records of one input, as the service and users send them: a
 * `/meta/v2/` or `/metadata/v1/` envelope, a bare record, an array of records
 * or envelopes, or newline-delimited JSON of any of these. Bytes are decoded
 * as UTF-8 (invalid bytes become U+FFFD). Raw line breaks and other control
 * characters inside JSON strings (as in old saved responses) are repaired.
 *
 * Newline-delimited input streams line by line; a single JSON document is
 * parsed whole. Nothing is dropped silently: a line or document that cannot
 * be read, or an error body of the service, comes out as a `problem` item.
 */
export async function* readRecords(input: Readable | AsyncIterable<Buffer | string>, options: ReadRecordsOptions = {}): AsyncGenerator<ReadItem> {
  const reader = new RecordLines(options.source ?? '<input>', options.maxDocumentChars ?? 2 ** 28);
  for await (const lines of chunkLines(input)) {
    for (const line of lines) yield* reader.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  yield* reader.end();
}

/**
 * The lines of an input, decoded as UTF-8, a chunk's worth at a time (a line
 * still ends in the CR of a CR LF). A byte order mark at the start is
 * dropped; the last line needs no line break.
 */
async function* chunkLines(input: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let atStart = true;
  // The start of a line not ended yet, in pieces: a 10 MB line read in 64 KB chunks is joined once, not once per chunk.
  let carryParts: string[] = [];
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    let piece = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (atStart && piece !== '') {
      // A byte order mark (editors on Windows write one) is not part of the JSON.
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
      atStart = false;
    }
    if (!piece.includes('\n')) {
      if (piece !== '') carryParts.push(piece);
      continue;
    }
    carryParts.push(piece);
    const lines = carryParts.join('').split('\n');
    carryParts = [lines.pop()!];
    yield lines;
  }
  let rest = carryParts.join('') + decoder.end();
  if (atStart && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
  if (rest !== '') yield [rest];
}

/**
 * The records of one input, from its lines. The first line with JSON decides:
 * when it is a JSON value on its own, the input is newline-delimited JSON,
 * read line by line (a record broken over lines joined, see
 * {@link NdjsonJoiner}); else the input is one JSON document, gathered whole
 * (up to `maxDocumentChars`) and read at the end.
 */
class RecordLines {
  private index = 0;
  private lineNo = 0;
  private mode: 'unknown' | 'lines' | 'document' = 'unknown';
  private documentText = '';
  private documentStartLine = 1;
  private documentTooLarge = false;
  private readonly joiner = new NdjsonJoiner();

  constructor(
    private readonly source: string,
    private readonly maxDocumentChars: number,
  ) {}

  /** The items a line of the input completes (without its line break). */
  *line(line: string): Generator<ReadItem> {
    this.lineNo++;
    if (this.mode === 'document') {
      this.gather(line);
      return;
    }
    if (this.mode === 'unknown') {
      const trimmed = line.trim();
      if (trimmed === '') return;
      if (tryParse(trimmed).ok) this.mode = 'lines';
      else {
        this.mode = 'document';
        this.documentStartLine = this.lineNo;
        this.documentText = `${line}\n`;
        return;
      }
    }
    yield* this.items(this.joiner.push(line, this.lineNo));
  }

  /** The items left at the end of the input: a record still open, the document, or the word that there was nothing. */
  *end(): Generator<ReadItem> {
    yield* this.items(this.joiner.end());
    if (this.mode === 'unknown') yield { kind: 'problem', source: this.source, reason: 'the input is empty: no JSON found' };
    else if (this.mode === 'document') yield* this.document();
  }

  /** A line of a JSON document, kept until the document is larger than read whole (then only its start, for the message). */
  private gather(line: string): void {
    if (this.documentTooLarge) return;
    if (this.documentText.length + line.length >= this.maxDocumentChars) {
      this.documentTooLarge = true;
      this.documentText = this.documentText.slice(0, 200);
    } else this.documentText += `${line}\n`;
  }

  /** The records of the whole document, or the problem with it. */
  private *document(): Generator<ReadItem> {
    const { source, documentText, documentStartLine } = this;
    if (this.documentTooLarge) {
      const mib = Math.round(this.maxDocumentChars / 2 ** 20);
      yield {
        kind: 'problem',
        source,
        line: documentStartLine,
        reason: `the JSON document is larger than ${mib} MiB, more than is read as a whole: give the records as newline-delimited JSON, one record per line (for example: jq -c '.records[]' FILE)`,
        excerpt: documentText.trim().slice(0, 200),
      };
      return;
    }
    const parsed = tryParse(documentText);
    if (parsed.ok) {
      yield* this.emit(parsed.value);
      return;
    }
    // Not one document: perhaps newline-delimited JSON whose first line is broken. Only when at least as many
    // records as problems come out: the lines of a truncated pretty-printed document (`"title": "x",`) are problems.
    const lines = documentText.split('\n');
    const dryRun = new NdjsonJoiner();
    const pieces = [...lines.flatMap((l, i) => dryRun.push(l, documentStartLine + i)), ...dryRun.end()];
    const records = pieces.filter((p) => p.ok && p.value !== null && typeof p.value === 'object' && Object.keys(p.value).length > 0).length;
    if (records > 0 && records >= pieces.filter((p) => !p.ok).length) {
      yield* this.items(pieces);
      return;
    }
    const reason = looksBinary(documentText)
      ? 'not JSON text: the input looks binary (NUL bytes, invalid UTF-8 or control characters near its start); expected the JSON of the service, optionally gzip-compressed'
      : describeJsonError(parsed.reason, documentText, documentStartLine);
    yield { kind: 'problem', source, reason, excerpt: documentText.trim().slice(0, 200) };
  }

  /** The items of newline-delimited pieces: the records of each value read, a problem for each piece that was not. */
  private *items(pieces: NdjsonPiece[]): Generator<ReadItem> {
    for (const piece of pieces) {
      if (piece.ok) yield* this.emit(piece.value, piece.line);
      else yield { kind: 'problem', source: this.source, index: ++this.index, line: piece.line, reason: piece.reason, excerpt: piece.text.trim().slice(0, 200) };
    }
  }

  /** The records (or problems) a parsed value holds, numbered. */
  private *emit(value: unknown, line?: number): Generator<ReadItem> {
    const { source } = this;
    for (const item of unwrap(value)) {
      if (item.kind === 'record') yield { kind: 'record', raw: item.raw, source, index: ++this.index, ...(line !== undefined ? { line } : {}) };
      else yield { kind: 'problem', source, index: ++this.index, ...(line !== undefined ? { line } : {}), reason: item.reason };
    }
  }
}

/** Whether text that is not JSON is binary: a NUL, or many U+FFFD (invalid UTF-8) or controls, in its first 1,000 characters. */
function looksBinary(text: string): boolean {
  const head = text.slice(0, 1000);
  if (head.includes('\u0000')) return true;
  const odd = head.match(/[\uFFFD\u0001-\u0008\u000B\u000C\u000E-\u001F]/g)?.length ?? 0;
  return odd > 8 && odd * 10 > head.length;
}
