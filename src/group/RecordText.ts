import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { ParseError } from '../errors.js';
import { formatInfo, type LineFormat } from '../formats.js';
import { safeMessage } from '../parse/safeMessage.js';

/**
 * The N-Triples or N-Quads lines of one record (or of some quads of no
 * record), as they were read from a dump: validation workers parse them
 * themselves, so the thread that reads the dump only cuts it into lines.
 */
export interface RecordText {
  format: LineFormat;
  /** The name of the input in error messages. */
  source: string;
  /** The lines, each ended by `\n`. */
  text: string;
  /**
   * The same lines without their line breaks, when the reader kept them apart (not enumerable: a copy of the
   * record, or a message, has `text` alone); parsed from them, a record's text is never joined. Defaults to none.
   */
  readonly lineTexts?: readonly string[];
  /** The input line number of each line of `text`. */
  lines: number[];
}

/**
 * The quads of a {@link RecordText}, made by `factory` (n3's by default).
 * Blank nodes keep their labels (`_:b1` is `blankNode('b1')`). Throws a {@link ParseError} that names the input and
 * its line, as `parseRdf` does.
 */
export function parseRecordText(record: RecordText, factory?: RDF.DataFactory): RDF.Quad[] {
  try {
    return new Parser({
      format: formatInfo(record.format).mediaType,
      blankNodePrefix: '',
      ...(factory ? { factory } : {}),
    }).parse(record.text);
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    const at = (error as { context?: { line?: unknown } }).context?.line;
    const line = typeof at === 'number' ? (record.lines[at - 1] ?? record.lines[record.lines.length - 1]) : undefined;
    const message = safeMessage(error.message.replace(/ on line \d+\.$/, ''));
    throw new ParseError(`invalid ${formatInfo(record.format).label}: ${message}`, record.source, line, undefined, {
      cause: error,
    });
  }
}
