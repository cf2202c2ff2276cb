/** A line longer than read whole: only its start is kept, and its length. */
export interface LongLine {
  /** The first 200 characters, for messages. */
  head: string;
  /** Its length in characters (without the line break). */
  chars: number;
}

/** A line of the input (without its line break), or one too long to be kept. */
export type Line = string | LongLine;

/** Characters of a long line kept for messages. */
const HEAD_CHARS = 200;

/**
 * Cuts text given in pieces (chunks of a stream) into lines, without ever
 * holding more than `maxChars` of one line: a longer line comes out as a
 * {@link LongLine}, its text dropped as it streams (a 2 GB line costs no more
 * memory than a short one). A line that spans pieces is joined once, when it ends.
 */
export class LineSplitter {
  /** The start of the line not ended yet, in pieces. */
  private parts: string[] = [];
  private length = 0;
  private long: LongLine | undefined;

  constructor(private readonly maxChars: number) {}

  /** The lines a piece ends. */
  push(piece: string): Line[] {
    const lines: Line[] = [];
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl >= 0; nl = piece.indexOf('\n', from)) {
      this.add(piece, from, nl);
      lines.push(this.take());
      from = nl + 1;
    }
    this.add(piece, from, piece.length);
    return lines;
  }

  /** The last line, when the text does not end with a line break. */
  end(): Line[] {
    return this.length > 0 || this.long ? [this.take()] : [];
  }

  private add(piece: string, from: number, to: number): void {
    if (to <= from) return;
    if (this.long) {
      this.long.chars += to - from;
      return;
    }
    if (this.length + (to - from) > this.maxChars) {
      let head = '';
      for (let i = 0; i < this.parts.length && head.length < HEAD_CHARS; i++)
        head += this.parts[i]!.slice(0, HEAD_CHARS - head.length);
      this.long = {
        head: head + piece.slice(from, Math.min(to, from + HEAD_CHARS - head.length)),
        chars: this.length + (to - from),
      };
      this.parts = [];
      this.length = 0;
      return;
    }
    this.parts.push(from === 0 && to === piece.length ? piece : piece.slice(from, to));
    this.length += to - from;
  }

  private take(): Line {
    const long = this.long;
    if (long) {
      this.long = undefined;
      return long;
    }
    const line = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.length = 0;
    return line;
  }
}
