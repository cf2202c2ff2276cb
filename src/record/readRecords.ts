import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { jsonText } from './jsonText.js';

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
  const source = options.source ?? '<input>';
  const decoder = new StringDecoder('utf8');
  let index = 0;
  let lineNo = 0;
  let carry = '';
  let mode: 'unknown' | 'lines' | 'document' = 'unknown';
  let documentText = '';
  let documentStartLine = 1;
  const maxDocumentChars = options.maxDocumentChars ?? 2 ** 28;
  let documentTooLarge = false;

  const emit = function* (value: unknown, line?: number): Generator<ReadItem> {
    for (const item of unwrap(value)) {
      if (item.kind === 'record') yield { kind: 'record', raw: item.raw, source, index: ++index, ...(line !== undefined ? { line } : {}) };
      else yield { kind: 'problem', source, index: ++index, ...(line !== undefined ? { line } : {}), reason: item.reason };
    }
  };

  const problemAt = (text: string, at: number, reason: string): ReadItem => ({
    kind: 'problem', source, index: ++index, line: at, reason, excerpt: text.trim().slice(0, 200),
  });
  const itemsOf = function* (pieces: NdjsonPiece[]): Generator<ReadItem> {
    for (const piece of pieces) {
      if (piece.ok) yield* emit(piece.value, piece.line);
      else yield problemAt(piece.text, piece.line, piece.reason);
    }
  };
  const joiner = new NdjsonJoiner();
  const ndjsonLine = (line: string, at: number): Generator<ReadItem> => itemsOf(joiner.push(line, at));

  const onLine = function* (line: string): Generator<ReadItem> {
    lineNo++;
    if (mode === 'document') {
      if (documentTooLarge) return;
      if (documentText.length + line.length >= maxDocumentChars) {
        documentTooLarge = true;
        documentText = documentText.slice(0, 200);
      } else documentText += `${line}\n`;
      return;
    }
    if (mode === 'unknown') {
      const trimmed = line.trim();
      if (trimmed === '') return;
      if (tryParse(trimmed).ok) mode = 'lines';
      else {
        mode = 'document';
        documentStartLine = lineNo;
        documentText = `${line}\n`;
        return;
      }
    }
    yield* ndjsonLine(line, lineNo);
  };

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
    for (const line of lines) yield* onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  carry = carryParts.join('');
  let rest = carry + decoder.end();
  if (atStart && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
  if (rest !== '') yield* onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
  yield* itemsOf(joiner.end());

  if ((mode as string) !== 'document') {
    if ((mode as string) === 'unknown') yield { kind: 'problem', source, reason: 'the input is empty: no JSON found' };
    return;
  }
  if (documentTooLarge) {
    const mib = Math.round(maxDocumentChars / 2 ** 20);
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
    yield* emit(parsed.value);
    return;
  }
  // Not one document: perhaps newline-delimited JSON whose first line is broken. Only when at least as many
  // records as problems come out: the lines of a truncated pretty-printed document (`"title": "x",`) are problems.
  const lines = documentText.split('\n');
  const dryRun = new NdjsonJoiner();
  const pieces = [...lines.flatMap((l, i) => dryRun.push(l, documentStartLine + i)), ...dryRun.end()];
  const records = pieces.filter((p) => p.ok && p.value !== null && typeof p.value === 'object' && Object.keys(p.value).length > 0).length;
  if (records > 0 && records >= pieces.filter((p) => !p.ok).length) {
    yield* itemsOf(pieces);
    return;
  }
  const reason = looksBinary(documentText)
    ? 'not JSON text: the input looks binary (NUL bytes, invalid UTF-8 or control characters near its start); expected the JSON of the service, optionally gzip-compressed'
    : describeJsonError(parsed.reason, documentText, documentStartLine);
  yield { kind: 'problem', source, reason, excerpt: documentText.trim().slice(0, 200) };
}

/** Whether text that is not JSON is binary: a NUL, or many U+FFFD (invalid UTF-8) or controls, in its first 1,000 characters. */
function looksBinary(text: string): boolean {
  const head = text.slice(0, 1000);
  if (head.includes('\u0000')) return true;
  const odd = head.match(/[\uFFFD\u0001-\u0008\u000B\u000C\u000E-\u001F]/g)?.length ?? 0;
  return odd > 8 && odd * 10 > head.length;
}

/** A value of newline-delimited JSON (with the line it starts on), or text that could not be read. */
type NdjsonPiece = { ok: true; value: unknown; line: number } | { ok: false; text: string; line: number; reason: string };

/**
 * Reads newline-delimited JSON line by line, joining a record broken over
 * lines by raw line breaks inside a string (old saved responses). Whether the
 * text so far ends inside a string is kept up to date line by line, so the
 * joined text is parsed only once its string is closed: a record broken over
 * 5,000 lines costs one parse, not 5,000.
 */
class NdjsonJoiner {
  private pending: { text: string; line: number; lines: number; inString: boolean } | undefined;

  /** The pieces a line completes (none while a broken record goes on). */
  push(line: string, at: number): NdjsonPiece[] {
    const trimmed = line.trim();
    const pending = this.pending;
    if (pending) {
      const inString = stringStateAfter(line, pending.inString);
      const joined = `${pending.text}\n${line}`;
      if (!inString) {
        const p = tryParse(joined);
        if (p.ok) {
          this.pending = undefined;
          return [{ ok: true, value: p.value, line: pending.line }];
        }
      }
      // A line that is a whole record (an object) on its own ends the broken one; text lines such as "2021",
      // "null" or "[1]" do not.
      const parsedAlone = trimmed.startsWith('{') ? tryParse(trimmed) : undefined;
      const alone = parsedAlone?.ok && parsedAlone.value !== null && typeof parsedAlone.value === 'object' && !Array.isArray(parsedAlone.value) ? parsedAlone : undefined;
      if (alone || !inString || pending.lines >= MAX_JOINED_LINES || joined.length > MAX_JOINED_CHARS) {
        this.pending = undefined;
        if (alone) return [broken(pending.text, pending.line, false), { ok: true, value: alone.value, line: at }];
        return [broken(joined, pending.line, false)];
      }
      this.pending = { text: joined, line: pending.line, lines: pending.lines + 1, inString };
      return [];
    }
    if (trimmed === '') return [];
    const parsed = tryParse(trimmed);
    if (parsed.ok) return [{ ok: true, value: parsed.value, line: at }];
    if (endsInsideString(trimmed)) {
      this.pending = { text: trimmed, line: at, lines: 1, inString: true };
      return [];
    }
    return [{ ok: false, text: trimmed, line: at, reason: describeJsonError(parsed.reason, trimmed, at, false) }];
  }

  /** At the end of the input: a record still open is a problem (the input was cut). */
  end(): NdjsonPiece[] {
    const pending = this.pending;
    this.pending = undefined;
    return pending ? [broken(pending.text, pending.line, true)] : [];
  }
}

function broken(text: string, line: number, atEnd: boolean): NdjsonPiece {
  return { ok: false, text, line, reason: describeJsonError(parseFailure(text), text, line, atEnd) };
}

/** Lines joined into one record at most (a record broken over lines by raw line breaks). */
const MAX_JOINED_LINES = 10_000;
/** Characters joined into one record at most. */
const MAX_JOINED_CHARS = 64 * 1024 * 1024;

/** Whether JSON text ends inside a string (an odd quote open): a raw line break inside a string follows. */
export function endsInsideString(text: string): boolean {
  return stringStateAfter(text, false);
}

/** Whether JSON text that starts inside a string (or not, `inString`) ends inside one. */
function stringStateAfter(text: string, inString: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
  }
  return inString;
}

function parseFailure(text: string): string {
  const p = tryParse(text);
  return p.ok ? 'not valid JSON' : p.reason;
}

/** A JSON.parse message with the line and column, and a word on truncation when the error is at the very end. */
function describeJsonError(reason: string, text: string, firstLine: number, atEnd = true): string {
  const trimmed = text.trimEnd();
  const m = /at position (\d+)/.exec(reason);
  const position = m ? Number(m[1]) : undefined;
  const inString = endsInsideString(trimmed);
  const truncated = atEnd && (/Unexpected end|Unterminated/i.test(reason) || (position !== undefined && position >= trimmed.length) || inString);
  const at = truncated ? trimmed.length : position;
  let where = '';
  if (at !== undefined) {
    const before = text.slice(0, at);
    const line = firstLine + before.split('\n').length - 1;
    const column = at - before.lastIndexOf('\n');
    where = ` (line ${line}, column ${column})`;
  }
  if (truncated) {
    return `not valid JSON: the input ends ${inString ? 'inside a string' : 'before its objects and arrays are closed'}${where}; the file looks truncated (${reason})`;
  }
  return `not valid JSON: ${reason}${where}`;
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const repaired = escapeControlCharsInStrings(text);
    if (repaired !== text) {
      try {
        return { ok: true, value: JSON.parse(repaired) };
      } catch {
        // fall through with the first error
      }
    }
    return { ok: false, reason: (err as Error).message };
  }
}

/**
 * Escapes raw control characters (CR, LF, TAB, ...) that stand inside JSON
 * strings, which JSON forbids but old saved responses contain.
 */
export function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      else if (c < 0x20) {
        out += text.slice(last, i) + (c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : `\\u${c.toString(16).padStart(4, '0')}`);
        last = i + 1;
      }
    } else if (c === 0x22) inString = true;
  }
  return last === 0 ? text : out + text.slice(last);
}

type Unwrapped = { kind: 'record'; raw: unknown } | { kind: 'problem'; reason: string };

/** The records a parsed JSON value holds: envelopes unwrapped, arrays flattened, error bodies reported. */
export function* unwrap(value: unknown, depth = 0): Generator<Unwrapped> {
  if (Array.isArray(value)) {
    if (depth > 2) {
      yield { kind: 'problem', reason: 'arrays nested too deep to be records' };
      return;
    }
    for (const item of value) yield* unwrap(item, depth + 1);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Array.isArray(o.records) && ('result' in o || 'query' in o || 'apiMessage' in o || depth === 0)) {
      for (const record of o.records) {
        if (Array.isArray(record)) yield { kind: 'problem', reason: 'expected a record object in "records", got an array' };
        else yield { kind: 'record', raw: record };
      }
      return;
    }
    if (typeof o.status === 'string' && o.status.toLowerCase() === 'fail' && !('doi' in o)) {
      const message = typeof o.message === 'string' ? o.message : jsonText(o, 200);
      yield { kind: 'problem', reason: `an error response of the service, not records: ${message}` };
      return;
    }
  }
  yield { kind: 'record', raw: value };
}
