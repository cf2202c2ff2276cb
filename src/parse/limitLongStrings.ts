import { tooLarge } from './limits.js';

/**
 * Passes Turtle or TriG text through, chunk by chunk, and fails with a `parse` error as soon as a long string
 * literal (`"""…"""` or `'''…'''`) is longer than `maxChars` characters. It is the one token of these formats that
 * spans lines, so `limitLineLength` does not bound it, and n3's lexer holds it whole until it ends: a literal of
 * 64 MB over 32 million lines took `validate` to 1.1 GB (and was accepted). The error names the line the literal
 * starts on. Text that is not Turtle (a syntax error) is passed on as it is, for the parser to report.
 *
 * A chunk that ends within a long string is held back until the string ends, then the chunks held go on joined,
 * in one piece: given the literal in pieces, n3 appends each to the text it has not read yet and tries it again
 * (a new copy, and a scan of the whole, each time).
 */
export async function* limitLongStrings(
  chunks: AsyncIterable<string>,
  maxChars: number,
  source: string,
): AsyncGenerator<string> {
  const scan = new LongStringScan(maxChars);
  let held: string[] = [];
  for await (const chunk of chunks) {
    const line = scan.push(chunk);
    if (line !== undefined) throw tooLarge(`the long string literal of line ${line} is`, maxChars, source, line);
    if (scan.inLongString) held.push(chunk);
    else if (held.length) {
      held.push(chunk);
      const text = held.join('');
      held = [];
      yield text;
    } else yield chunk;
  }
  if (held.length) yield held.join('');
}

const enum State {
  /** Between tokens (or in a prefixed name, a number, a keyword...). */
  Normal,
  /** After `#` outside IRIs and strings, to the line's end. */
  Comment,
  /** After `<` (not `<<`), to `>` or a character no IRI holds. */
  Iri,
  /** In a string of one quote, to its quote or the line's end. */
  Short,
  /** In a string of three quotes. */
  Long,
}

const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const NORMAL_STOP = /["'<#\\]/g;
const IRI_STOP = /[>\s"<{}|^`]/g;
const SHORT_QUOTE_STOP = /["\\\n\r]/g;
const SHORT_APOSTROPHE_STOP = /['\\\n\r]/g;

/**
 * The scan of {@link limitLongStrings}, chunk by chunk: where the text is (between tokens, in a comment, an IRI, a
 * string), enough to find where long strings start and end whatever the chunks (quotes and backslashes cut apart).
 */
export class LongStringScan {
  private state = State.Normal;
  /** The quote of the string the text is in, or of the quotes being counted. */
  private quote = 0;
  /** Quotes in a row at the end of the text read: opening ones (Normal), or perhaps closing ones (Long). */
  private run = 0;
  /** Whether the text read ends in a backslash that escapes the next character. */
  private escaped = false;
  /** Characters of the long string the text is in, read so far. */
  private chars = 0;
  /** The line the long string the text is in starts on. */
  private startLine = 0;
  /** Line feeds before the chunk being read. */
  private line = 1;

  constructor(private readonly maxChars: number) {}

  /** Whether the text read ends within a long string. */
  get inLongString(): boolean {
    return this.state === State.Long;
  }

  /** Reads a chunk; returns the line of a long string literal now longer than the limit, or undefined. */
  push(text: string): number | undefined {
    let i = 0;
    let counted = 0;
    let lines = this.line;
    const lineAt = (at: number) => {
      for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < at; nl = text.indexOf('\n', nl + 1)) lines++;
      counted = Math.max(counted, at);
      return lines;
    };
    /** Where the long string the text is in started in this chunk (0 if before it). */
    let longFrom = 0;
    const n = text.length;
    if (this.escaped && n > 0) {
      this.escaped = false;
      i = 1;
    } else if (this.state === State.Normal && this.run === 0 && text.indexOf('"""') < 0 && text.indexOf("'''") < 0) {
      // No long string opens in this chunk, and what else it is in ends with its line: only its last line is read.
      i = text.lastIndexOf('\n') + 1;
    }
    while (i < n) {
      switch (this.state) {
        case State.Normal: {
          if (this.run > 0) {
            // Counting the quotes of an opening: three open a long string, two are an empty string, one a short one.
            while (i < n && this.run < 3 && text.charCodeAt(i) === this.quote) {
              this.run++;
              i++;
            }
            if (i === n && this.run < 3) break;
            if (this.run === 3) {
              this.state = State.Long;
              this.chars = 3;
              this.startLine = lineAt(i);
              longFrom = i;
            } else if (this.run === 1) this.state = State.Short;
            this.run = 0;
            continue;
          }
          const stop = stopAt(NORMAL_STOP, text, i);
          if (stop < 0) {
            i = n;
            break;
          }
          i = stop + 1;
          const c = text.charCodeAt(stop);
          if (c === QUOTE || c === APOSTROPHE) {
            this.quote = c;
            this.run = 1;
          } else if (c === BACKSLASH) {
            if (i === n) this.escaped = true;
            i++;
          } else if (c === 35 /* # */) this.state = State.Comment;
          else if (text.charCodeAt(i) === 60 /* << */) i++;
          else this.state = State.Iri;
          break;
        }
        case State.Comment: {
          const lf = text.indexOf('\n', i);
          const cr = text.indexOf('\r', i);
          const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
          if (end < 0) i = n;
          else {
            this.state = State.Normal;
            i = end + 1;
          }
          break;
        }
        case State.Iri: {
          const stop = stopAt(IRI_STOP, text, i);
          if (stop < 0) i = n;
          else {
            this.state = State.Normal;
            // `>` ends the IRI; any other of these is not in one (a syntax error): read again as between tokens.
            i = text.charCodeAt(stop) === 62 /* > */ ? stop + 1 : stop;
          }
          break;
        }
        case State.Short: {
          const stop = stopAt(this.quote === QUOTE ? SHORT_QUOTE_STOP : SHORT_APOSTROPHE_STOP, text, i);
          if (stop < 0) {
            i = n;
            break;
          }
          i = stop + 1;
          if (text.charCodeAt(stop) === BACKSLASH) {
            if (i === n) this.escaped = true;
            i++;
          } else this.state = State.Normal;
          break;
        }
        case State.Long: {
          const c = text.charCodeAt(i);
          if (c === this.quote) {
            this.run++;
            i++;
            continue;
          }
          if (this.run >= 3) {
            // The closing quotes (a string may end in quotes of its own: the last three close it).
            this.chars += i - longFrom;
            this.state = State.Normal;
            this.run = 0;
            continue;
          }
          this.run = 0;
          if (c === BACKSLASH) {
            i += 2;
            if (i > n) this.escaped = true;
            continue;
          }
          const q = text.indexOf(this.quote === QUOTE ? '"' : "'", i);
          const b = text.indexOf('\\', i);
          i = q < 0 ? (b < 0 ? n : b) : b < 0 ? q : Math.min(q, b);
          break;
        }
      }
    }
    if (this.state === State.Long) {
      this.chars += n - longFrom;
      if (this.chars > this.maxChars) return this.startLine;
    }
    lineAt(n);
    this.line = lines;
    return undefined;
  }
}

/** Where the first character `stops` (global) matches is in `text` from `from` on, or -1. */
function stopAt(stops: RegExp, text: string, from: number): number {
  stops.lastIndex = from;
  return stops.exec(text)?.index ?? -1;
}
