import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { binaryText } from '../rdf/binaryText.js';
import type { MappedRecord } from '../mapping/mapRecord.js';
import { DoiContents } from './DoiContents.js';
import type { ReadItem } from '../record/readRecords.js';
import type { FormatName } from '../formats.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import { type MapItemOptions, type MapItemOutcome, mapItem } from './mapItem.js';
import type { RecordValidation, RecordViolation } from './RecordValidation.js';
import { describeViolation } from './RecordValidation.js';
import type { Rejection } from './Rejection.js';
import { duplicateDoiRejection, rejectionOf, unwritableRejection } from './sinkRejections.js';

/** A record the sink wrote, with where it came from. */
export interface WrittenRecord {
  item: Extract<ReadItem, { kind: 'record' }>;
  mapped: MappedRecord;
  /** The digest of the record's content (`recordDigest`). */
  digest: [number, number];
}

/** Options of {@link RecordSink}. */
export interface RecordSinkOptions extends MapItemOptions {
  /** The output format (for the reason of a record it cannot carry). Defaults to none (the reason names no format). */
  format?: FormatName;
  /** Checks every mapped record; a record with violations is rejected. Defaults to none (no check). */
  validation?: RecordValidation;
  /**
   * Reject a record whose DOI came before in this sink (compared by `doiKey`:
   * in any case, the characters the normaliser removes aside): its triples
   * would merge into the first one's. When its content differs from the
   * first's, the rejection carries the conflict (`Rejection.conflict`). An export turns it off: its harvest
   * drops such records already (as duplicates, remembered across a resume,
   * which this sink's set is not). Defaults to true.
   */
  rejectDuplicateDois?: boolean;
  /**
   * `take()` gives the UTF-8 bytes of the text as a binary string (one
   * character a byte: write it with the `'latin1'` encoding), by the writer's
   * `writeBinary` (its text encoded, `binaryText`, for a writer without it).
   * Defaults to false (the text).
   */
  binary?: boolean;
  /** Called for every rejected record, in input order; may throw to stop the run. Defaults to none (counted only). */
  onRejected?: (rejection: Rejection) => void | Promise<void>;
  /** Called for every written record, in input order. Defaults to none. */
  onWritten?: (record: WrittenRecord) => void | Promise<void>;
}

/**
 * The record pipeline every command uses: each item read (a file's record, a
 * harvested page's record, a record looked up by DOI) is normalised and
 * mapped, validated (when asked), de-duplicated by DOI and written with a
 * record writer; what fails at any step becomes a {@link Rejection} naming
 * the record and the field. Nothing is lost: every item ends up in the text
 * returned or in a rejection.
 *
 * ```ts
 * const sink = new RecordSink(serializerFor('turtle').createWriter(), { onRejected: (r) => rejects.push(r) });
 * let text = sink.start();
 * text += await sink.take(items);
 * text += sink.end();
 * ```
 */
export class RecordSink {
  private readonly dois: DoiContents | undefined;
  /** Items taken. */
  read = 0;
  /** Records written. */
  written = 0;
  /** Items rejected. */
  rejected = 0;

  constructor(
    private readonly writer: RecordWriter,
    private readonly options: RecordSinkOptions = {},
  ) {
    this.dois = options.rejectDuplicateDois === false ? undefined : new DoiContents();
  }

  /** Whether `take()` gives binary strings ({@link RecordSinkOptions.binary}). */
  get binary(): boolean {
    return this.options.binary ?? false;
  }

  /** Records validated together: take() batches of this size cost least. */
  get batchSize(): number {
    return this.options.validation?.batchSize ?? 1;
  }

  /** The text that starts the output (prefixes, an opening bracket). */
  start(): string {
    return this.writer.start();
  }

  /** Numbers the next records after `records` already written (a resumed output). */
  continueAfter(records: number): void {
    this.writer.continueAfter(records);
  }

  /** The text that ends the output. */
  end(): string {
    return this.writer.end();
  }

  /** The end of the last call of {@link take}: the next one writes after it (and fails with it). */
  private taken: Promise<unknown> = Promise.resolve();

  /**
   * Takes items in order and returns the text of those written (rejections go to `onRejected`). The items are
   * mapped and handed to the validation at once; they are checked and written after those of the calls before,
   * so a caller may take the next items before the last call's answer (the validation, in another thread, then
   * validates while this one maps). A call after one that failed fails with its error, writing nothing.
   */
  take(items: readonly ReadItem[]): Promise<string> {
    let outcomes: MapItemOutcome[];
    let violations: Promise<readonly (readonly RecordViolation[])[]>;
    try {
      outcomes = items.map((item) => mapItem(item, this.options));
      const validation = this.options.validation;
      const mapped = validation ? outcomes.flatMap((o) => (o.kind === 'mapped' ? [o.mapped.quads] : [])) : [];
      // Asked even with no record mapped: a validation still loading its shapes fails the call when it cannot.
      violations = validation ? validation.violations(mapped) : Promise.resolve([]);
    } catch (err) {
      violations = Promise.reject(err);
    }
    // Answered even when an earlier call fails first (no unhandled rejection); its error is the earlier one's then.
    violations.catch(() => undefined);
    const written = this.taken.then(async () => this.write(items, outcomes, await violations));
    this.taken = written;
    return written;
  }

  private async write(
    items: readonly ReadItem[],
    outcomes: readonly MapItemOutcome[],
    violations: readonly (readonly RecordViolation[])[],
  ): Promise<string> {
    const validation = this.options.validation;
    let next = 0;
    let text = '';
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const outcome = outcomes[i]!;
      this.read++;
      if (outcome.kind === 'rejected') {
        await this.reject(outcome.rejection);
        continue;
      }
      const record = item as WrittenRecord['item'];
      const found = validation ? violations[next++]! : [];
      if (found.length > 0) {
        const first = found[0]!;
        const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
        await this.reject(
          rejectionOf(
            record,
            outcome.mapped.doi,
            'validation-failed',
            first.path ?? '(shapes)',
            `does not conform to the shapes: ${describeViolation(first)}${more}`,
            { violations: [...found] },
          ),
        );
        continue;
      }
      // Only a record that goes into the output takes its DOI: a rejected one leaves it to a later, valid copy.
      const before = this.dois?.meet(outcome.mapped.doi, outcome.digest, record);
      if (before) {
        await this.reject(duplicateDoiRejection(record, outcome.mapped.doi, before));
        continue;
      }
      let written: string;
      try {
        written = this.writeRecord(outcome.mapped.quads);
      } catch (err) {
        // A record the format cannot carry is a rejection, not a failed run.
        if (!(err instanceof ToolkitError) || err.code !== 'serialization') throw err;
        await this.reject(unwritableRejection(record, outcome.mapped.doi, err.message, this.options.format));
        continue;
      }
      text += written;
      this.written++;
      await this.options.onWritten?.({ item: record, mapped: outcome.mapped, digest: outcome.digest });
    }
    return text;
  }

  /** A record's text, or its binary string ({@link RecordSinkOptions.binary}). */
  private writeRecord(quads: readonly RDF.Quad[]): string {
    if (!this.options.binary) return this.writer.write(quads);
    return this.writer.writeBinary ? this.writer.writeBinary(quads) : binaryText(this.writer.write(quads));
  }

  private async reject(rejection: Rejection): Promise<void> {
    this.rejected++;
    await this.options.onRejected?.(rejection);
  }
}
