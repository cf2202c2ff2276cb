import { closeSync, openSync, readSync } from 'node:fs';
import { ParseError } from '../errors.js';
import type { LineFormat } from '../formats.js';
import { NTriplesLineGrouper, type NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import type { PartBoundary } from '../group/PartJoiner.js';
import { DEFAULT_MAX_DOCUMENT_CHARS } from '../parse/limits.js';
import type { RecordValidator } from './RecordValidator.js';
import type { ValidationOutcome } from './reports/ValidationResult.js';

/** A part of an N-Triples or N-Quads dump to validate ({@link validateRecordPart}): bytes `start` to `end` of a file. */
export interface RecordPartJob {
  path: string;
  /** Where the part starts (a line's first byte) and ends (after a line break, or the file's end), in bytes. */
  start: number;
  end: number;
  format: LineFormat;
  /** The name of the input in error messages. */
  source: string;
  /** As `groupRecords`' `window`. */
  window: number;
  /** As `groupNTriplesRecords`' `maxDocumentChars`. Defaults to its default. */
  maxDocumentChars?: number;
}

/** The outcome of a part: its groups' keys, their outcomes in order, and where it stopped when it failed. */
export interface RecordPartOutcome<O = ValidationOutcome> {
  /** The key of each group (`undefined`: quads of no record), in input order. */
  keys: (string | undefined)[];
  /** The statements (lines of a triple or quad) of each group, in the same order. */
  statements: number[];
  /** The outcome of each group, in order, up to the one that failed (`error`). */
  outcomes: O[];
  /** Lines of the part. */
  lines: number;
  boundary: PartBoundary;
  /** Why the part could not be read or validated whole; lines counted from the part's first (1). */
  error?: PartError;
}

/** A failure of a part: a syntax error (`line` within the part), or a line longer than `maxDocumentChars` (`tooLong`). */
export interface PartError {
  reason: string;
  line?: number;
  column?: number;
  /** The line too long (within the part), with the limit. */
  tooLong?: { line: number; maxChars: number };
}

/** Records validated at once in a part (a bounded memory: the part's records are not all parsed at once). */
const BATCH = 32;

/**
 * Reads, groups and validates one part of a dump, in the thread that calls it (a worker): the seam of
 * `validate --jobs` (one call per part). The part is grouped as `groupNTriplesRecords` groups the whole input,
 * begun afresh at the part's first line; {@link PartBoundary} says what that could have missed.
 */
export async function validateRecordPart(
  validator: Pick<RecordValidator, 'validateTexts' | 'forgetCopies'>,
  job: RecordPartJob,
): Promise<RecordPartOutcome> {
  const lines = new NTriplesLineGrouper({
    format: job.format,
    source: job.source,
    window: job.window,
    watch: true,
    ...(job.maxDocumentChars !== undefined ? { maxDocumentChars: job.maxDocumentChars } : {}),
  });
  const boundary = (): PartBoundary => ({
    startsWithRecord: lines.watch!.startsWithRecord ?? false,
    waiting: lines.waiting,
    earlyBlanks: [...lines.watch!.earlyBlanks],
    otherEarly: lines.watch!.otherEarly,
    openBlanks: lines.openBlankLabels(),
  });
  let groups: NTriplesRecordGroup[];
  let after: PartBoundary;
  try {
    const text = decodePart(readBytes(job.path, job.start, job.end), job.start === 0);
    groups = lines.addText(text);
    after = boundary();
    groups = groups.concat(lines.end());
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    const result: RecordPartOutcome = {
      keys: [],
      statements: [],
      outcomes: [],
      lines: lines.lineNumber,
      boundary: boundary(),
    };
    result.error = {
      reason: err.reason,
      ...(err.line !== undefined
        ? { tooLong: { line: err.line, maxChars: job.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS } }
        : {}),
    };
    return result;
  }
  // A fresh run: copies of shared nodes are told again in each part, and filtered in order by the reading thread.
  validator.forgetCopies();
  const outcomes: ValidationOutcome[] = [];
  const result: RecordPartOutcome = {
    keys: groups.map((g) => g.key),
    statements: groups.map((g) => g.lines.length),
    outcomes,
    lines: lines.lineNumber,
    boundary: after,
  };
  for (let i = 0; i < groups.length; i += BATCH) {
    const batch = groups.slice(i, i + BATCH);
    try {
      outcomes.push(...(await validator.validateTexts(batch)));
    } catch (err) {
      // A syntax error: the records before it still count (one by one, as validateStream does).
      for (const group of batch) {
        try {
          outcomes.push(...(await validator.validateTexts([group])));
        } catch (one) {
          if (!(one instanceof ParseError)) throw one;
          result.error = {
            reason: one.reason,
            ...(one.line !== undefined ? { line: one.line } : {}),
            ...(one.column !== undefined ? { column: one.column } : {}),
          };
          return result;
        }
      }
      throw err;
    }
  }
  return result;
}

/** Bytes `start` to `end` of a file. */
function readBytes(path: string, start: number, end: number): Uint8Array {
  const bytes = Buffer.allocUnsafe(end - start);
  const fd = openSync(path, 'r');
  try {
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, start + at);
      if (n === 0) break;
      at += n;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** A part's text: UTF-8 as `decodeUtf8` decodes it (a BOM dropped at the input's start only). */
function decodePart(bytes: Uint8Array, first: boolean): string {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
