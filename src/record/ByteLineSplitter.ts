import type { Line, LongLine } from './LineSplitter.js';

/** Bytes of a long line decoded for its head: enough for 200 characters of any UTF-8. */
const HEAD_BYTES = 800;
/** Characters of a long line kept for messages. */
const HEAD_CHARS = 200;

/**
 * Cuts UTF-8 bytes given in chunks (the reads of a file) into lines of text,
 * as {@link LineSplitter} cuts text, without ever holding more than
 * `maxChars` characters of one line: a longer line comes out as a
 * {@link LongLine}, its bytes dropped as they are read, never decoded.
 *
 * A line is held as the bytes read (slices of the chunks, not copied) and
 * decoded once, whole, when it ends: a line break never falls inside a UTF-8
 * sequence, so each line decodes as the whole input would (an invalid
 * sequence becomes U+FFFD). Text decoded chunk by chunk cost more: a streaming
 * `TextDecoder` gives reads of 1 MiB as two bytes a character (ASCII too; a
 * whole decode one for Latin-1), a line held in pieces was joined into a
 * copy, and text held while a line went on made V8 grow its young generation,
 * which the dropped text of a long line then filled (a 32 MB line refused at
 * 4 MiB: 21.7 MB over the run without it).
 *
 * Characters are counted from the bytes (UTF-16 code units: one a UTF-8
 * sequence, two for one of four bytes), exact for valid UTF-8, and only once
 * a line holds more bytes than `maxChars`.
 *
 * `release` is given each chunk once no part of it is held (its lines are
 * decoded, or dropped): the reader of the input may read into it again. The
 * bytes of a long line are dropped as they are read, so they were garbage made
 * as fast as the file was read, which V8 frees only when its young generation
 * fills (a 32 MB line refused at 4 MiB, 64 KiB reads: 34 MB over the run
 * without it; 7 to 13 with each dropped read copied into a string, to fill the
 * young generation sooner). Defaults to none.
 */
export class ByteLineSplitter {
  /** The start of the line not ended yet, as read. */
  private parts: Buffer[] = [];
  private bytes = 0;
  /** Characters of `parts`, counted once they hold more bytes than `maxChars`; -1 before. */
  private chars = -1;
  private long: LongLine | undefined;
  /** The chunks `parts` are of, as given. */
  private held: Uint8Array[] = [];
  /** Chunks held until `parts` were decoded or dropped, to give back. */
  private done: Uint8Array[] = [];

  constructor(
    private readonly maxChars: number,
    private readonly release?: (chunk: Uint8Array) => void,
  ) {}

  /** Bytes of the line not ended yet held: at most the UTF-8 of `maxChars` characters (a longer line's are dropped). */
  get pendingBytes(): number {
    return this.bytes;
  }

  /** The lines a chunk ends. */
  push(chunk: Uint8Array): Line[] {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lines: Line[] = [];
    let from = 0;
    for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, from)) {
      if (this.parts.length === 0 && !this.long && nl - from <= this.maxChars) lines.push(this.decode(bytes, from, nl));
      else {
        this.add(chunk, bytes, from, nl);
        lines.push(this.take());
      }
      from = nl + 1;
    }
    this.add(chunk, bytes, from, bytes.length);
    this.giveBack(chunk);
    return lines;
  }

  /** The last line, when the bytes do not end with a line break. */
  end(): Line[] {
    const lines = this.bytes > 0 || this.long ? [this.take()] : [];
    this.giveBack();
    return lines;
  }

  /** Gives back the chunks no longer held, and `chunk` unless it is. */
  private giveBack(chunk?: Uint8Array): void {
    if (!this.release) return;
    const held = this.held;
    for (const c of this.done) if (c !== chunk && !held.includes(c)) this.release(c);
    this.done = [];
    if (chunk !== undefined && !held.includes(chunk)) this.release(chunk);
  }

  /** `parts` are decoded or dropped: their chunks are held no longer. */
  private drop(): void {
    this.parts = [];
    this.bytes = 0;
    this.chars = -1;
    if (this.held.length === 0) return;
    this.done.push(...this.held);
    this.held = [];
  }

  private add(chunk: Uint8Array, bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (this.long) {
      this.long.chars += utf16Length(bytes, from, to);
      return;
    }
    this.parts.push(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to));
    if (this.held[this.held.length - 1] !== chunk) this.held.push(chunk);
    this.bytes += to - from;
    if (this.bytes <= this.maxChars) return;
    this.chars =
      this.chars < 0
        ? this.parts.reduce((n, p) => n + utf16Length(p, 0, p.length), 0)
        : this.chars + utf16Length(bytes, from, to);
    if (this.chars <= this.maxChars) return;
    const head = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, Math.min(this.bytes, HEAD_BYTES));
    this.long = {
      head: this.decode(head, 0, Math.min(head.length, HEAD_BYTES)).slice(0, HEAD_CHARS),
      chars: this.chars,
    };
    this.drop();
  }

  private take(): Line {
    const long = this.long;
    if (long) {
      this.long = undefined;
      return long;
    }
    const parts = this.parts;
    const bytes = this.bytes;
    this.drop();
    const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
    return this.decode(line, 0, line.length);
  }

  /**
   * Whole UTF-8 text decoded: one byte a character when it is Latin-1 (a streaming decode gives two); a byte order
   * mark kept, an invalid sequence U+FFFD (V8's decoder, as `TextDecoder`'s with `ignoreBOM`). Read from the
   * buffer as it is: no view of the line made for a `TextDecoder` (a `Buffer` a line).
   */
  private decode(bytes: Buffer, from: number, to: number): string {
    return to <= from ? '' : bytes.toString('utf8', from, to);
  }
}

/** The UTF-16 length of UTF-8 bytes: one a sequence (each byte but continuation bytes), one more for a four-byte one. */
function utf16Length(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}
