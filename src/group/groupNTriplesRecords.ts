import { RecordGrouper, isDescriptionIri, recordKeyOfGraphIri, recordKeyOfIri } from './groupRecords.js';
import type { GroupRecordsOptions, KeyedGroup } from './groupRecords.js';
import type { RecordText } from './RecordText.js';
import type { LineFormat } from '../formats.js';
import { DEFAULT_MAX_DOCUMENT_CHARS, tooLarge } from '../parse/limits.js';

/** The lines of one record (`key`: its DOI as written in its IRIs), or of quads of no record (`key` undefined). */
export interface NTriplesRecordGroup extends RecordText {
  key: string | undefined;
}

/** Options of {@link groupNTriplesRecords}. */
export interface GroupNTriplesRecordsOptions extends GroupRecordsOptions {
  /** Defaults to `ntriples`. */
  format?: LineFormat;
  /** The name of the input in error messages. Defaults to `<input>`. */
  source?: string;
  /**
   * The longest line read: a longer one fails with a `parse` error naming its line as soon as it is longer (the
   * same limit, and error, as `parseRdf`'s). Defaults to {@link DEFAULT_MAX_DOCUMENT_CHARS} (8 MiB).
   */
  maxDocumentChars?: number;
}

interface Line {
  text: string;
  line: number;
}

const BROKEN_IRI = /[\s<]/;
/** An RDF 1.2 version directive (`VERSION "1.2"`): no statement, like a comment. */
const VERSION_DIRECTIVE = /^VERSION[ \t]+("[^"\\\r\n]*"|'[^'\\\r\n]*')[ \t]*(#.*)?$/;
const UCHAR = /\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g;

/**
 * Groups the lines of an N-Triples or N-Quads text record by record, as
 * `groupRecords` groups quads, without parsing it: each line goes to the
 * record of its subject IRI (a subject of no record, such as a shared journal,
 * to the record being read; a line that starts with no subject goes with the
 * line before it; comments, blank lines and version directives are dropped). A statement per line,
 * as the formats define them. The groups are parsed later
 * ({@link parseRecordText}), in whichever thread validates them: reading a
 * dump this way costs the reading thread a few microseconds a record instead
 * of the whole parse.
 */
export async function* groupNTriplesRecords(
  chunks: AsyncIterable<string>,
  options: GroupNTriplesRecordsOptions = {},
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
  const lines = new NTriplesLineGrouper(options);
  for await (const chunk of chunks) {
    const done = lines.addText(chunk);
    if (done.length) yield* done;
  }
  yield* lines.end();
}

/** What a {@link NTriplesLineGrouper} saw of the lines that could belong to records before its text (`watch`). */
export interface LineGrouperWatch {
  /** Whether the first statement line's subject (or N-Quads record graph) is a record's; undefined before one. */
  startsWithRecord: boolean | undefined;
  /** Blank-node labels of the lines placed before the `window`-th record started. */
  earlyBlanks: Set<string>;
  /** Whether a group of no record was completed before the `window`-th record started. */
  otherEarly: boolean;
}

/**
 * The grouping of {@link groupNTriplesRecords}, text by text ({@link addText}, then {@link end}): each returns the
 * groups it completed, in order. Lines are numbered from `firstLine` (1 unless told).
 */
export class NTriplesLineGrouper {
  private readonly format: LineFormat;
  private readonly source: string;
  private readonly maxChars: number;
  private readonly window: number;
  private readonly grouper: RecordGrouper<Line>;
  /** The number of the last line read. */
  lineNumber: number;
  private lastKey: string | undefined;
  // The last subject IRI reference read (`<...>`, well formed) and what it gave: the lines of a node follow each other.
  private lastSubject = '';
  private lastSubjectKey: string | undefined;
  private lastDescription = false;
  private completed: NTriplesRecordGroup[] = [];
  // The unfinished last line: its parts, joined when its end comes (a long line is not scanned again for each chunk).
  private carry: string[] = [];
  private carried = 0;
  private readonly addLine = (text: string) => this.placeLine(text);
  /** Kept when asked for (`watch`): see {@link LineGrouperWatch}. */
  readonly watch: LineGrouperWatch | undefined;

  constructor(options: GroupNTriplesRecordsOptions & { firstLine?: number; watch?: boolean } = {}) {
    this.format = options.format ?? 'ntriples';
    this.source = options.source ?? '<input>';
    this.maxChars = options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS;
    this.window = Math.max(1, options.window ?? 4);
    this.grouper = new RecordGrouper<Line>(options);
    this.lineNumber = (options.firstLine ?? 1) - 1;
    this.watch = options.watch ? { startsWithRecord: undefined, earlyBlanks: new Set(), otherEarly: false } : undefined;
  }

  /** Characters of the unfinished last line held (at most `maxDocumentChars`: a longer line is refused). */
  get pendingChars(): number {
    return this.carried;
  }

  /** Items the grouping holds besides open records (see `RecordGrouper.waiting`). */
  get waiting(): number {
    return this.grouper.waiting;
  }

  /** The blank-node labels the open records own. */
  openBlankLabels(): [string, string[]][] {
    return this.grouper.openBlankLabels();
  }

  private tooLong(line: number) {
    return tooLarge(`line ${line} is`, this.maxChars, this.source, line);
  }

  private toGroup(g: KeyedGroup<Line>): NTriplesRecordGroup {
    return new LinesOfRecord(
      g.key,
      this.format,
      this.source,
      g.items.map((l) => l.text),
      g.items.map((l) => l.line),
    );
  }

  private placeLine(text: string): void {
    this.lineNumber++;
    if (text.length > this.maxChars) throw this.tooLong(this.lineNumber);
    let i = 0;
    while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    if (i === text.length) return; // blank
    const first = text.charCodeAt(i);
    if (first === 35 /* # */) return; // comment
    if (first === 86 /* V */ && VERSION_DIRECTIVE.test(text.slice(i))) return; // a malformed one goes on, for the parser to report
    let key = this.lastKey;
    let subjectBlank: string | undefined;
    let objectBlank: string | undefined;
    let description = false;
    let ownKey: string | undefined;
    if (first === 60 /* < */) {
      const end = text.indexOf('>', i + 1);
      // (A slice compared at once: `startsWith` at an offset reads character by character, several times slower.)
      if (end > i && end - i + 1 === this.lastSubject.length && text.slice(i, end + 1) === this.lastSubject) {
        key = ownKey = this.lastSubjectKey;
        description = this.lastDescription;
        objectBlank = blankObjectOf(text, end + 1);
      } else {
        const iri = end < 0 ? '' : text.slice(i + 1, end);
        // An IRI reference that does not close before a space or '<' is a syntax error: the
        // line stays with the lines before it, whose record reports it in its turn.
        if (iri !== '' && !BROKEN_IRI.test(iri)) {
          const subject = unescapeIri(iri);
          key = ownKey = recordKeyOfIri(subject);
          description = key === undefined && isDescriptionIri(subject);
          objectBlank = blankObjectOf(text, end + 1);
          // (A slice of the chunk read: it keeps at most that chunk alive, until the next subject.)
          this.lastSubject = text.slice(i, end + 1);
          this.lastSubjectKey = key;
          this.lastDescription = description;
        }
      }
    } else if (first === 95 /* _ */) {
      key = undefined;
      subjectBlank = blankLabelAt(text, i);
      if (subjectBlank !== undefined) objectBlank = blankObjectOf(text, i + 2 + subjectBlank.length);
    }
    // A line in a record graph (N-Quads of --graph-per-record) is that record's, wherever it stands.
    if (this.format === 'nquads') {
      const graphKey = recordGraphKeyOf(text);
      if (graphKey !== undefined) {
        key = ownKey = graphKey;
        description = false;
      }
    }
    const watch = this.watch;
    if (watch) {
      watch.startsWithRecord ??= ownKey !== undefined;
      if (this.grouper.started < this.window) {
        if (subjectBlank !== undefined) watch.earlyBlanks.add(subjectBlank);
        if (objectBlank !== undefined) watch.earlyBlanks.add(objectBlank);
      }
    }
    // A blank node's lines go to the record that refers to it (or wait for it: see RecordGrouper).
    const groups = this.grouper.place({ text, line: this.lineNumber }, key, subjectBlank, objectBlank, description);
    for (const g of groups) {
      if (watch && g.key === undefined && this.grouper.started < this.window) watch.otherEarly = true;
      this.completed.push(this.toGroup(g));
    }
    this.lastKey = key ?? (subjectBlank === undefined ? undefined : this.grouper.ownerOf(subjectBlank));
  }

  /**
   * Reads whole lines, without their line breaks (none holds a line feed or a carriage return), after text that
   * ended in a line break (or none); returns the groups completed. Lines decoded apart ({@link decodeLines}).
   */
  addLines(lines: readonly string[]): NTriplesRecordGroup[] {
    if (this.carry.length) throw new Error('addLines after text whose last line is not ended');
    for (const line of lines) this.placeLine(line);
    return this.take();
  }

  /**
   * Reads a piece of the text (lines may span pieces); returns the groups completed. A line longer than
   * `maxDocumentChars` is refused by the piece that makes it so, before its pieces are joined (and none of it is kept).
   */
  addText(chunk: string): NTriplesRecordGroup[] {
    const last = this.carry.length ? this.carry[this.carry.length - 1]! : '';
    if (last.charCodeAt(last.length - 1) !== 13 /* \r */ && chunk.indexOf('\n') < 0 && chunk.indexOf('\r') < 0) {
      if (this.carried + chunk.length > this.maxChars) throw this.refuse();
      this.carry.push(chunk);
      this.carried += chunk.length;
      return [];
    }
    if (this.carried > 0 && this.carried + lineEndIn(chunk) > this.maxChars) throw this.refuse();
    const text = this.carry.length ? this.carry.join('') + chunk : chunk;
    this.carry = [];
    this.carried = 0;
    const rest = text.slice(eachLine(text, this.addLine));
    if (rest.length > this.maxChars) throw this.refuse();
    if (rest !== '') this.carry.push(rest);
    this.carried = rest.length;
    return this.take();
  }

  /** The error for the unfinished line, which is dropped. */
  private refuse() {
    this.carry = [];
    this.carried = 0;
    return this.tooLong(this.lineNumber + 1);
  }

  /** The end of the text: the last line, and the groups still open. */
  end(): NTriplesRecordGroup[] {
    const rest = this.carry.join('');
    this.carry = [];
    if (rest !== '') this.placeLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
    for (const g of this.grouper.end()) this.completed.push(this.toGroup(g));
    return this.take();
  }

  private take(): NTriplesRecordGroup[] {
    const out = this.completed;
    this.completed = [];
    return out;
  }
}

/**
 * A group's `text`: its lines joined when first read (a parser given `lineTexts` never reads it). One accessor for
 * every group, an own property (a copy of a group has its text). A getter written in each group's literal was a
 * closure of each group's, and gave each group a hidden class of its own, made in the old generation: until the
 * next full collection, those kept the closure, the record's lines and the pieces of input they are slices of
 * alive through every young collection (190 of the 420 MB the grouping of 10,000 records allocated were copied
 * into the old generation; 40 MB with this).
 */
const TEXT_OF_LINES = {
  enumerable: true,
  get(this: LinesOfRecord): string {
    return (this.joined ??= `${this.lineTexts.join('\n')}\n`);
  },
  set(this: LinesOfRecord, value: string) {
    this.joined = value;
  },
} satisfies PropertyDescriptor;

/** A group of {@link NTriplesLineGrouper}: `text` ({@link TEXT_OF_LINES}), `lineTexts` not enumerable. */
class LinesOfRecord implements NTriplesRecordGroup {
  declare text: string;
  declare readonly lineTexts: readonly string[];
  /** `text`, once joined or set. */
  declare joined: string | undefined;
  declare readonly lines: number[];

  constructor(
    readonly key: string | undefined,
    readonly format: LineFormat,
    readonly source: string,
    lineTexts: readonly string[],
    lines: number[],
  ) {
    Object.defineProperty(this, 'text', TEXT_OF_LINES);
    this.lines = lines;
    Object.defineProperty(this, 'lineTexts', { value: lineTexts });
    Object.defineProperty(this, 'joined', { value: undefined, writable: true });
  }
}

/**
 * Calls `addLine` with each whole line of `text`, and returns where its unfinished last line starts. Lines end
 * at \n, \r\n or a lone \r, as the parsers count them; a \r that ends the text stays unfinished (it may be the
 * \r of a \r\n cut by the chunk).
 */
function eachLine(text: string, addLine: (line: string) => void): number {
  let start = 0;
  if (text.indexOf('\r') < 0) {
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      addLine(text.slice(start, nl));
      start = nl + 1;
    }
    return start;
  }
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      addLine(text.slice(start, i));
      start = i + 1;
    } else if (c === 13) {
      if (i + 1 === text.length) break; // may be the \r of a \r\n cut by the chunk: kept in carry
      addLine(text.slice(start, i));
      if (text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  return start;
}

const BLANK_LABEL =
  /^_:([A-Za-z0-9_\u00C0-\uFFFF](?:[A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]*[A-Za-z0-9_\-\u00B7\u00C0-\uFFFF])?)/;

/** The label of the blank node written at `at` (`_:b1`), or undefined. */
function blankLabelAt(text: string, at: number): string | undefined {
  return BLANK_LABEL.exec(at === 0 ? text : text.slice(at))?.[1];
}

/** The label of the object of a statement whose subject ends at `from`, when the object is a blank node. */
function blankObjectOf(text: string, from: number): string | undefined {
  let i = from;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (text.charCodeAt(i) !== 60 /* < */) return undefined;
  const end = text.indexOf('>', i + 1);
  if (end < 0) return undefined;
  i = end + 1;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return text.charCodeAt(i) === 95 /* _ */ ? blankLabelAt(text, i) : undefined;
}

/**
 * The record of an N-Quads line's graph when it is a record graph
 * (`<base>record/<doi>`): the last IRI of the line, right before its final
 * `.`. Undefined for a line without a graph, another graph, or one the
 * parser will refuse.
 */
export function recordGraphKeyOf(text: string): string | undefined {
  let end = text.length - 1;
  while (end >= 0 && (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9)) end--;
  if (text.charCodeAt(end) !== 46 /* . */) return undefined;
  end--;
  while (end >= 0 && (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9)) end--;
  if (text.charCodeAt(end) !== 62 /* > */) return undefined;
  const start = text.lastIndexOf('<', end);
  if (start < 0) return undefined;
  const iri = text.slice(start + 1, end);
  return BROKEN_IRI.test(iri) ? undefined : recordKeyOfGraphIri(unescapeIri(iri));
}

/** The IRI of an N-Triples IRI reference's text (`\u0041` escapes decoded). */
function unescapeIri(text: string): string {
  if (text.indexOf('\\') < 0) return text;
  try {
    return text.replace(UCHAR, (_, short: string | undefined, long: string | undefined) =>
      String.fromCodePoint(parseInt(short ?? long!, 16)),
    );
  } catch {
    return text; // not a code point: the parser reports the line
  }
}

/**
 * The record a statement line is of by itself (its subject IRI's, or for N-Quads its record graph's), as
 * {@link NTriplesLineGrouper} reads it; undefined for any other line (a shared node, a blank node, a comment...).
 */
export function lineRecordKey(text: string, format: LineFormat): string | undefined {
  if (format === 'nquads') {
    const graphKey = recordGraphKeyOf(text);
    if (graphKey !== undefined) return graphKey;
  }
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (text.charCodeAt(i) !== 60 /* < */) return undefined;
  const end = text.indexOf('>', i + 1);
  const iri = end < 0 ? '' : text.slice(i + 1, end);
  return iri === '' || BROKEN_IRI.test(iri) ? undefined : recordKeyOfIri(unescapeIri(iri));
}

/** Where the first line of a piece of text ends (a line feed or a carriage return), or its length when none does. */
function lineEndIn(text: string): number {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  return lf < 0 ? (cr < 0 ? text.length : cr) : cr < 0 ? lf : Math.min(lf, cr);
}
