import { NTriplesLineGrouper, type GroupNTriplesRecordsOptions } from '../group/groupNTriplesRecords.js';
import type { RecordValidator } from './RecordValidator.js';
import type { RecordTextValidation } from './validateStream.js';

/** Options of {@link validateRecordLines}. */
export interface ValidateRecordLinesOptions extends GroupNTriplesRecordsOptions {
  /** The input line number of the text's first line (errors name input lines from it). Defaults to 1. */
  firstLine?: number;
  /** Records given to the validator at once (their terms are interned together). Defaults to 16. */
  batch?: number;
}

/**
 * The single-record path on a part of an N-Triples or N-Quads dump given as whole lines (a byte range of a dump
 * cut at line ends, decoded): its lines grouped into records ({@link NTriplesLineGrouper}), each record parsed
 * into interned terms and validated by `validator`, all in the calling thread (a worker given the range). The
 * outcomes in the order of the records (a group of lines of no record has `key` undefined). A record whose lines
 * are not all in the text is validated with those that are: cut ranges between records. A syntax error throws
 * a `ParseError` naming the input line (counted from `firstLine`).
 */
export async function validateRecordLines(
  text: string,
  validator: RecordValidator,
  options: ValidateRecordLinesOptions = {},
): Promise<RecordTextValidation[]> {
  const grouper = new NTriplesLineGrouper(options);
  const groups = grouper.addText(text);
  groups.push(...grouper.end());
  const size = Math.max(1, options.batch ?? 16);
  const out: RecordTextValidation[] = [];
  for (let i = 0; i < groups.length; i += size) {
    const batch = groups.slice(i, i + size);
    const outcomes = await validator.validateTexts(batch);
    for (let j = 0; j < batch.length; j++) out.push({ key: batch[j]!.key, outcome: outcomes[j]! });
  }
  return out;
}
