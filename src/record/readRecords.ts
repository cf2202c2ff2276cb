import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

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

  const emit = function* (value: unknown, line?: number): Generator<ReadItem> {
    for (const item of unwrap(value)) {
      if (item.kind === 'record') yield { kind: 'record', raw: item.raw, source, index: ++index, ...(line !== undefined ? { line } : {}) };
      else yield { kind: 'problem', source, index: ++index, ...(line !== undefined ? { line } : {}), reason: item.reason };
    }
  };

  const onLine = function* (line: string): Generator<ReadItem> {
    lineNo++;
    if (mode === 'document') {
      documentText += `${line}\n`;
      return;
    }
    const trimmed = line.trim();
    if (trimmed === '') return;
    const parsed = tryParse(trimmed);
    if (mode === 'unknown') {
      if (parsed.ok) mode = 'lines';
      else {
        mode = 'document';
        documentStartLine = lineNo;
        documentText = `${line}\n`;
        return;
      }
    }
    if (parsed.ok) yield* emit(parsed.value, lineNo);
    else yield { kind: 'problem', source, index: ++index, line: lineNo, reason: `line ${lineNo}: ${parsed.reason}`, excerpt: trimmed.slice(0, 200) };
  };

  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const lines = text.split('\n');
    carry = lines.pop()!;
    for (const line of lines) yield* onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
  const rest = carry + decoder.end();
  if (rest !== '') yield* onLine(rest);

  if ((mode as string) !== 'document') {
    if ((mode as string) === 'unknown') yield { kind: 'problem', source, reason: 'the input is empty: no JSON found' };
    return;
  }
  const parsed = tryParse(documentText);
  if (parsed.ok) {
    yield* emit(parsed.value);
    return;
  }
  // Not one document: perhaps newline-delimited JSON whose first line is broken.
  const lines = documentText.split('\n');
  const readable = lines.map((l) => l.trim()).filter((l) => l !== '' && tryParse(l).ok).length;
  if (readable > 0) {
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!.trim();
      if (l === '') continue;
      const p = tryParse(l);
      const at = documentStartLine + i;
      if (p.ok) yield* emit(p.value, at);
      else yield { kind: 'problem', source, index: ++index, line: at, reason: `line ${at}: ${p.reason}`, excerpt: l.slice(0, 200) };
    }
    return;
  }
  yield { kind: 'problem', source, reason: describeJsonError(parsed.reason, documentText, documentStartLine), excerpt: documentText.trim().slice(0, 200) };
}

/** A JSON.parse message with the line and column, and a word on truncation when the error is at the very end. */
function describeJsonError(reason: string, text: string, firstLine: number): string {
  const m = /at position (\d+)/.exec(reason);
  const end = text.trimEnd().length;
  const truncated = /Unexpected end|Unterminated/i.test(reason) || (m !== null && Number(m[1]) >= end);
  let where = '';
  if (m) {
    const before = text.slice(0, Number(m[1]));
    const line = firstLine + before.split('\n').length - 1;
    const column = Number(m[1]) - before.lastIndexOf('\n');
    where = ` (line ${line}, column ${column})`;
  }
  return `not valid JSON: ${reason}${where}${truncated ? '; the file looks truncated' : ''}`;
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
      const message = typeof o.message === 'string' ? o.message : JSON.stringify(o).slice(0, 200);
      yield { kind: 'problem', reason: `an error response of the service, not records: ${message}` };
      return;
    }
  }
  yield { kind: 'record', raw: value };
}
