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

/** Options of {@link validateFileParts}. */
export interface ValidateFilePartsOptions {
  format: LineFormat;
  /** The name of the input in error messages. Defaults to the path. */
  source?: string;
  /** As `groupRecords`' `window`. Defaults to 4. */
  window?: number;
  /** As `groupNTriplesRecords`' `maxDocumentChars`. Defaults to its default. */
  maxDocumentChars?: number;
  /** Bytes of a part, about (cut where the next record starts). Defaults to 1 MiB. */
  partBytes?: number;
  /** Bytes looked through past `partBytes` for a record's start: where none starts, the rest of the file is read in order (memory stays that of a part). Defaults to 4 MiB. */
  maxSearch?: number;
  /** Parts in flight. Defaults to three per worker. */
  inFlight?: number;
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
  const partBytes = Math.max(1, options.partBytes ?? 1 << 20);
  const maxSearch = Math.max(1, options.maxSearch ?? MAX_SEARCH);
  const inFlight = Math.max(1, options.inFlight ?? validator.workers * 3);
  const signal = options.signal;
  const maxDocumentChars = options.maxDocumentChars;
  const joiner = new PartJoiner<DonePart>(window);
  let splits = 0;
  const tellSplits = () => {
    for (; splits < joiner.splits; splits++) options.onSplitRecord?.();
  };
  let fd: number | undefined = openSync(path, 'r');
  const closeFile = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  try {
    const size = fstatSync(fd).size;
    /** The next part to send: its start, and its end once found (undefined: no record starts to cut at). */
    let next = 0;
    const queue: { start: number; end: number; result: Promise<RecordPartOutcome> }[] = [];
    let rest: number | undefined;
    const send = () => {
      while (queue.length < inFlight && next < size && rest === undefined) {
        const start = next;
        const end = start + partBytes >= size ? size : nextRecordStart(fd!, start + partBytes, size, format, maxSearch);
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
        const result = validator.validatePart(job);
        // Awaited in turn; a part dropped after a refusal is not left rejected unhandled.
        result.catch(() => undefined);
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
      if (!joiner.offer(part, end === size)) {
        restart = joiner.restartAt(start);
        break;
      }
      for (const done of joiner.sealed()) yield* pass(done);
      send();
    }
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
    closeFile();
  }
}

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
