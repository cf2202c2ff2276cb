import { describeJsonError, endsInsideString, stringStateAfter } from './describeJsonError.js';
import { type Parsed, tryParse } from './tryParse.js';

/**
 * A value of newline-delimited JSON (with the line it starts on), or text
 * that could not be read. `deep`: the text of a value whose parts nested
 * deeper than the limit were cut off (see {@link tryParse}).
 */
export type NdjsonPiece =
  | { ok: true; value: unknown; line: number; text: string; deep?: string }
  | { ok: false; text: string; line: number; reason: string };

/**
 * Reads newline-delimited JSON line by line, joining a record broken over
 * lines by raw line breaks inside a string (old saved responses). Whether the
 * text so far ends inside a string is kept up to date line by line, so the
 * joined text is parsed only once its string is closed: a record broken over
 * 5,000 lines costs one parse, not 5,000.
 */
export class NdjsonJoiner {
  private pending: { text: string; line: number; lines: number; inString: boolean } | undefined;

  /** @param maxDepth Levels of nesting parsed; deeper values are cut off ({@link tryParse}). Defaults to no limit. */
  constructor(private readonly maxDepth = Infinity) {}

  /** The line where a record broken over lines starts that no line has ended yet; undefined when none is open. */
  get openLine(): number | undefined {
    return this.pending?.line;
  }

  /** The pieces a line completes (none while a broken record goes on). */
  push(line: string, at: number): NdjsonPiece[] {
    const trimmed = line.trim();
    const pending = this.pending;
    if (pending) {
      const inString = stringStateAfter(line, pending.inString);
      const joined = `${pending.text}\n${line}`;
      if (!inString) {
        const p = tryParse(joined, this.maxDepth);
        if (p.ok) {
          this.pending = undefined;
          return [ok(p, joined, pending.line)];
        }
      }
      // A line that is a whole record (an object) on its own ends the broken one; text lines such as "2021",
      // "null" or "[1]" do not.
      const parsedAlone = trimmed.startsWith('{') ? tryParse(trimmed, this.maxDepth) : undefined;
      const alone =
        parsedAlone?.ok &&
        parsedAlone.value !== null &&
        typeof parsedAlone.value === 'object' &&
        !Array.isArray(parsedAlone.value)
          ? parsedAlone
          : undefined;
      if (alone || !inString || pending.lines >= MAX_JOINED_LINES || joined.length > MAX_JOINED_CHARS) {
        this.pending = undefined;
        if (alone) return [broken(pending.text, pending.line, false, this.maxDepth), ok(alone, trimmed, at)];
        return [broken(joined, pending.line, false, this.maxDepth)];
      }
      this.pending = { text: joined, line: pending.line, lines: pending.lines + 1, inString };
      return [];
    }
    if (trimmed === '') return [];
    const parsed = tryParse(trimmed, this.maxDepth);
    if (parsed.ok) return [ok(parsed, trimmed, at)];
    if (endsInsideString(trimmed)) {
      this.pending = { text: trimmed, line: at, lines: 1, inString: true };
      return [];
    }
    return [{ ok: false, text: trimmed, line: at, reason: describeJsonError(parsed.reason, trimmed, at, false) }];
  }

  /**
   * At the end of the input (`atEnd`, the default): a record still open is a
   * problem (the input was cut). Else (a line that cannot be joined, such as
   * one too long to read, comes next): a record still open is a problem, broken.
   */
  end(atEnd = true): NdjsonPiece[] {
    const pending = this.pending;
    this.pending = undefined;
    return pending ? [broken(pending.text, pending.line, atEnd, this.maxDepth)] : [];
  }
}

function ok(parsed: Extract<Parsed, { ok: true }>, text: string, line: number): NdjsonPiece {
  return parsed.deep
    ? { ok: true, value: parsed.value, line, text, deep: text }
    : { ok: true, value: parsed.value, line, text };
}

function broken(text: string, line: number, atEnd: boolean, maxDepth: number): NdjsonPiece {
  return { ok: false, text, line, reason: describeJsonError(parseFailure(text, maxDepth), text, line, atEnd) };
}

/** Lines joined into one record at most (a record broken over lines by raw line breaks). */
const MAX_JOINED_LINES = 10_000;
/** Characters joined into one record at most. */
const MAX_JOINED_CHARS = 64 * 1024 * 1024;

function parseFailure(text: string, maxDepth: number): string {
  const p = tryParse(text, maxDepth);
  return p.ok ? 'not valid JSON' : p.reason;
}
