import { closeSync, fstatSync, openSync } from 'node:fs';
import { ParseError } from '../errors.js';
import type { LineFormat } from '../formats.js';
import { groupNTriplesInput } from '../group/groupNTriplesInput.js';
import type { GroupNTriplesRecordsOptions, NTriplesRecordGroup } from '../group/groupNTriplesRecords.js';
import { nextRecordStart } from '../group/nextRecordStart.js';
import { PartJoiner } from '../group/PartJoiner.js';
import { FileReads } from '../parse/FileReads.js';
import { DEFAULT_MAX_DOCUMENT_CHARS, tooLarge } from '../parse/limits.js';
import { readBytesFor } from '../parse/openRdfFile.js';
import type { ParallelRecordValidator } from './ParallelRecordValidator.js';
import type { RecordPartJob, RecordPartOutcome } from './validateRecordPart.js';
import { validateRecordTexts, type RecordTextValidation } from './validateStream.js';
import { timeline } from './validationTimeline.js';

/** Options of {@link validateFileParts}. */
export interface ValidateFilePartsOptions {
  format: LineFormat;
  /** The name of the input in error messages. Defaults to the path. */
  source?: string;
  /** As `groupRecords`' `window`. Defaults to 4. */
  window?: number;
  /** As `groupNTriplesRecords`' `maxDocumentChars`. Defaults to its default. */
  maxDocumentChars?: number;
  /**
   * Bytes of a part, about (cut where the next record starts). Defaults to 1 MiB, and less near the end of the file
   * (a sixteenth per worker of what is left, at least 256 KiB), so that no worker is left alone with a large last
   * part while the others idle. (Parts of 4 MiB cut the reading thread's CPU by a quarter and the workers' between
   * parts by half on 30k records, but raised the peak RSS of two jobs from 242 to 282 MB.)
   */
  partBytes?: number;
  /** Bytes looked through past `partBytes` for a record's start: where none starts, the rest of the file is read in order (memory stays that of a part). Defaults to 4 MiB. */
  maxSearch?: number;
  /** Parts sent to the workers and not answered yet. Defaults to three per worker. */
  inFlight?: number;
  /**
   * Parts sent and not passed on yet (answered ones wait for those before them). Defaults to sixteen per worker:
   * a worker is sent its next part as soon as it answers one, not when the first of the parts is answered.
   */
  ahead?: number;
  /** Stops the validation: the iteration throws the signal's reason. Defaults to none. */
  signal?: AbortSignal;
  /** Called for each record passed on before it was whole (its lines were not together). Defaults to none. */
  onSplitRecord?: () => void;
  /** Told where the file is read in order from, when a part could not be grouped apart (see {@link validateFileParts}). Defaults to none. */
  onReadInOrder?: (offset: number) => void;
  /** Told the bytes of the input validated, as parts are passed on. Defaults to none. */
  onBytes?: (bytes: number) => void;
}

/** A part once validated, with where it lies. */
interface DonePart extends RecordPartOutcome {
  start: number;
  end: number;
}

/**
 * {@link validateNTriples} of an N-Triples or N-Quads file (not gzip) in the workers of a
 * {@link ParallelRecordValidator}, with the reading thread out of the data path: the file is cut into parts
 * where a record starts (found by reading a few lines around each cut: {@link nextRecordStart}), and each worker
 * reads, decodes, groups and validates its parts itself ({@link validateRecordPart}); this thread only orders
 * the parts' outcomes. Each part is grouped afresh; the {@link PartJoiner} checks that it was grouped as the
 * whole file is (and counts split records as the whole file's grouping does); from a part where it could not
 * have been (a record's lines cut apart, a file with no record to cut at within 4 MiB...), the rest of the
 * file is read in order as {@link validateNTriples} reads it. The same outcomes, in the same order, as
 * {@link validateNTriples} of the whole file.
 */
export async function* validateFileParts(
  path: string,
  validator: ParallelRecordValidator,
  options: ValidateFilePartsOptions,
): AsyncGenerator<RecordTextValidation, void, undefined> {
  const format = options.format;
  const source = options.source ?? path;
  const window = Math.max(1, options.window ?? 4);
  const maxSearch = Math.max(1, options.maxSearch ?? MAX_SEARCH);
  const inFlight = Math.max(1, options.inFlight ?? validator.workers * 3);
  const ahead = Math.max(inFlight, options.ahead ?? validator.workers * 16);
  const signal = options.signal;
  const maxDocumentChars = options.maxDocumentChars;
  const joiner = new PartJoiner<DonePart>(window);
  let splits = 0;
  const tellSplits = () => {
    for (; splits < joiner.splits; splits++) options.onSplitRecord?.();
  };
  let fd: number | undefined = openSync(path, 'r');
  /** No more parts are sent (the rest is read in order, or the iteration ended). */
  let stopped = false;
  const closeFile = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  try {
    const size = fstatSync(fd).size;
    const fixed = options.partBytes === undefined ? undefined : Math.max(1, options.partBytes);
    /** The bytes of the part that starts at `start`, about. */
    const partBytes = (start: number) =>
      fixed ??
      Math.min(MAX_PART_BYTES, Math.max(MIN_PART_BYTES, Math.floor((size - start) / (16 * validator.workers))));
    /** The next part to send: its start, and its end once found (undefined: no record starts to cut at). */
    let next = 0;
    const queue: { start: number; end: number; result: Promise<RecordPartOutcome> }[] = [];
    let rest: number | undefined;
    /** Parts sent and not answered. */
    let unanswered = 0;
    const answered = () => {
      unanswered--;
      send();
    };
    // Called as each part is answered, in any order: the workers are not kept waiting for the first part of the
    // queue (its worker busy with it, the other one idle with its parts answered: 5 % of each worker's time).
    const send = () => {
      while (!stopped && unanswered < inFlight && queue.length < ahead && next < size && rest === undefined) {
        const start = next;
        const bytes = partBytes(start);
        const end = start + bytes >= size ? size : nextRecordStart(fd!, start + bytes, size, format, maxSearch);
        if (end === undefined) {
          rest = start;
          break;
        }
        const job: RecordPartJob = {
          path,
          start,
          end,
          format,
          source,
          window,
          ...(maxDocumentChars !== undefined ? { maxDocumentChars } : {}),
        };
        timeline?.mark('send', { start, end });
        const result = validator.validatePart(job);
        // Awaited in turn; a part dropped after a refusal is not left rejected unhandled.
        unanswered++;
        result.then(answered, answered);
        queue.push({ start, end, result });
        next = end;
      }
    };
    /** Lines of the parts passed on. */
    let lines = 0;
    /** The outcomes of a part passed on, then its failure. */
    const pass = function* (part: DonePart): Generator<RecordTextValidation, void, undefined> {
      tellSplits();
      for (let i = 0; i < part.outcomes.length; i++)
        yield { key: part.keys[i], outcome: part.outcomes[i]!, statements: part.statements[i]! };
      options.onBytes?.(part.end - part.start);
      const error = part.error;
      if (error?.tooLong) {
        const line = lines + error.tooLong.line;
        throw tooLarge(`line ${line} is`, error.tooLong.maxChars, source, line);
      }
      if (error)
        throw new ParseError(
          error.reason,
          source,
          error.line === undefined ? undefined : lines + error.line,
          error.column,
        );
      lines += part.lines;
    };
    send();
    let restart: number | undefined;
    while (queue.length) {
      signal?.throwIfAborted();
      const { start, end, result } = queue.shift()!;
      const part: DonePart = { ...(await result), start, end };
      timeline?.mark('got', { start });
      if (!joiner.offer(part, end === size)) {
        stopped = true;
        restart = joiner.restartAt(start);
        break;
      }
      for (const done of joiner.sealed()) yield* pass(done);
      timeline?.mark('passed', { start });
      send();
    }
    stopped = true;
    if (restart === undefined && rest !== undefined) restart = joiner.restartAt(rest);
    if (restart === undefined) {
      for (const done of joiner.flush()) yield* pass(done);
      tellSplits();
      return;
    }
    // From here on, in order (parts in flight are dropped): the groups of the rest of the file, counted by the joiner.
    closeFile();
    options.onReadInOrder?.(restart);
    const groups = restOfFile(path, restart, {
      format,
      source,
      window,
      firstLine: lines + 1,
      ...(maxDocumentChars !== undefined ? { maxDocumentChars } : {}),
    });
    for await (const validated of validateRecordTexts(observed(groups, joiner, tellSplits), validator, {
      concurrency: validator.workers * 4,
      ...(signal ? { signal } : {}),
    })) {
      yield validated;
    }
    options.onBytes?.(size - restart);
    tellSplits();
  } finally {
    stopped = true;
    closeFile();
  }
}

/** The parts' bytes by default (see {@link ValidateFilePartsOptions.partBytes}). */
const MIN_PART_BYTES = 1 << 18;
const MAX_PART_BYTES = 1 << 20;

/** The longest stretch of a file looked through for a record's start before the rest is read in order. */
const MAX_SEARCH = 4 << 20;

/**
 * The groups of a file from byte `start` on, as `groupNTriplesRecords` groups them (lines numbered from `firstLine`):
 * read as `validateNTriples` reads a file (`openRdfFile`'s reads, given back once decoded; {@link groupNTriplesInput}),
 * so a line longer than the limit is held and refused as there. (Before, 1 MiB reads decoded as text by a streaming
 * decoder: two bytes a character, a 64 MB line refused at 8 MiB 25 MB over the run without it.)
 */
async function* restOfFile(
  path: string,
  start: number,
  options: GroupNTriplesRecordsOptions & { firstLine: number },
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
  const reads = new FileReads(path, readBytesFor(options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS));
  yield* groupNTriplesInput(await reads.open(start), {
    ...options,
    bom: start === 0,
    release: (chunk) => reads.release(chunk),
  });
}

/** The groups, each told to the joiner (which counts split records) as it passes. */
async function* observed(
  groups: AsyncIterable<NTriplesRecordGroup>,
  joiner: PartJoiner<DonePart>,
  tellSplits: () => void,
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
  for await (const group of groups) {
    joiner.observe(group.key);
    tellSplits();
    yield group;
  }
}
