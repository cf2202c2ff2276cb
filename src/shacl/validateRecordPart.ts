import { closeSync, openSync, readSync } from 'node:fs';
import { ParseError } from '../errors.js';
import type { LineFormat } from '../formats.js';
import { NTriplesLineGrouper, type NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import { decodeLines, pieceEnd } from '../group/decodeLines.js';
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
export interface RecordPartOutcome {
  /** The key of each group (`undefined`: quads of no record), in input order. */
  keys: (string | undefined)[];
  /** The statements (lines of a triple or quad) of each group, in the same order. */
  statements: number[];
  /** The outcome of each group, in order, up to the one that failed (`error`). */
  outcomes: ValidationOutcome[];
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
const BATCH = 8;

/**
 * Reads, groups and validates one part of a dump, in the thread that calls it (a worker): the seam of
 * `validate --jobs` (one call per part). The part is grouped as `groupNTriplesRecords` groups the whole input,
 * begun afresh at the part's first line; {@link PartBoundary} says what that could have missed. A line too long
 * fails the part with no outcome (wherever it is); else a syntax error stops it at that record.
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
  // A fresh run: copies of shared nodes are told again in each part, and filtered in order by the reading thread.
  validator.forgetCopies();
  const keys: (string | undefined)[] = [];
  const statements: number[] = [];
  const outcomes: ValidationOutcome[] = [];
  /** The syntax error that stopped the validation (the rest is still grouped: a line too long fails the part, and the keys are all the part's). */
  let failed: PartError | undefined;
  let waiting: NTriplesRecordGroup[] = [];
  /** Validates the groups waiting, in batches (all of them, or whole batches only). */
  const validate = async (all: boolean) => {
    let i = 0;
    for (; !failed && i + (all ? 0 : BATCH - 1) < waiting.length; i += BATCH)
      failed = await validateBatch(validator, waiting.slice(i, i + BATCH), outcomes);
    waiting = failed ? [] : waiting.slice(i);
  };
  /** Every group counts (keys and statements: the joiner reads them all), validated or not. */
  const add = (groups: readonly NTriplesRecordGroup[]) => {
    for (const g of groups) {
      keys.push(g.key);
      statements.push(g.lines.length);
      if (!failed) waiting.push(g);
    }
  };
  let after: PartBoundary;
  const buffer = takeBuffer(job.end - job.start);
  try {
    const bytes = readBytes(job.path, job.start, job.end, buffer);
    // UTF-8 as `decodeUtf8` decodes it (a BOM dropped at the input's start only). Each piece ends after a line
    // break (a whole character) and is decoded whole: a streaming decode gives two bytes a character, ASCII too.
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    // The input's BOM (EF BB BF) is dropped.
    let at = job.start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    while (at < bytes.length) {
      // (Pieces small enough for the young generation: the text of a whole part went to the old one, and grew it
      // by 2 MB a part until the next full collection: 100 MB a worker.)
      const end = pieceEnd(bytes, at, bytes.length);
      const piece = bytes.subarray(at, end);
      at = end;
      // Line by line (ASCII lines as one-byte strings: decodeLines), or the text whole when a line may end in \r.
      const decoded = decodeLines(piece);
      if (!decoded) add(lines.addText(decoder.decode(piece)));
      else if (decoded.ended) add(lines.addLines(decoded.lines));
      else {
        // The part's last line, not ended: held until the end, as text is.
        add(lines.addLines(decoded.lines.slice(0, -1)));
        add(lines.addText(decoded.lines[decoded.lines.length - 1]!));
      }
      await validate(false);
    }
    after = boundary();
    add(lines.end());
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    return {
      keys: [],
      statements: [],
      outcomes: [],
      lines: lines.lineNumber,
      boundary: boundary(),
      error: {
        reason: err.reason,
        ...(err.line !== undefined
          ? { tooLong: { line: err.line, maxChars: job.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS } }
          : {}),
      },
    };
  } finally {
    // Every line is decoded (copied) by now: the bytes are read over by the next part.
    giveBack(buffer);
  }
  await validate(true);
  return { keys, statements, outcomes, lines: lines.lineNumber, boundary: after, ...(failed ? { error: failed } : {}) };
}

/**
 * Validates a batch of groups, their outcomes added to `outcomes`; on a syntax error, the groups before the one
 * that failed one by one (as validateStream does), and that error.
 */
async function validateBatch(
  validator: Pick<RecordValidator, 'validateTexts'>,
  batch: NTriplesRecordGroup[],
  outcomes: ValidationOutcome[],
): Promise<PartError | undefined> {
  try {
    outcomes.push(...(await validator.validateTexts(batch)));
    return undefined;
  } catch (err) {
    for (const group of batch) {
      try {
        outcomes.push(...(await validator.validateTexts([group])));
      } catch (one) {
        if (!(one instanceof ParseError)) throw one;
        return {
          reason: one.reason,
          ...(one.line !== undefined ? { line: one.line } : {}),
          ...(one.column !== undefined ? { column: one.column } : {}),
        };
      }
    }
    throw err;
  }
}

/**
 * The buffer the parts of this thread are read into, kept from one part to the next (undefined while a part reads
 * it: a part begun meanwhile gets one of its own). A buffer of its own for each part lived through the young
 * collections of the part's validation, so its bytes outside the heap were freed at the next full collection only:
 * with parts of 4 MiB, two jobs' peak RSS was 282-287 MB, 264-265 with this buffer (30k records; parts of 1 MiB:
 * 236-254 either way).
 */
let spare: Buffer | undefined;

function takeBuffer(length: number): Buffer {
  const buffer = spare && spare.length >= length ? spare : Buffer.allocUnsafeSlow(length);
  if (buffer === spare) spare = undefined;
  return buffer;
}

function giveBack(buffer: Buffer): void {
  if (!spare || spare.length < buffer.length) spare = buffer;
}

/** Bytes `start` to `end` of a file, read into `bytes` (long enough). */
function readBytes(path: string, start: number, end: number, buffer: Buffer): Uint8Array {
  const bytes = buffer.subarray(0, end - start);
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
