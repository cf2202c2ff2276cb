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
 */
export class ByteLineSplitter {
  /** The start of the line not ended yet, as read. */
  private parts: Buffer[] = [];
  private bytes = 0;
  /** Characters of `parts`, counted once they hold more bytes than `maxChars`; -1 before. */
  private chars = -1;
  private long: LongLine | undefined;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(private readonly maxChars: number) {}

  /** The lines a chunk ends. */
  push(chunk: Uint8Array): Line[] {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lines: Line[] = [];
    let from = 0;
    for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, from)) {
      if (this.parts.length === 0 && !this.long && nl - from <= this.maxChars) lines.push(this.decode(bytes, from, nl));
      else {
        this.add(bytes, from, nl);
        lines.push(this.take());
      }
      from = nl + 1;
    }
    this.add(bytes, from, bytes.length);
    return lines;
  }

  /** The last line, when the bytes do not end with a line break. */
  end(): Line[] {
    return this.bytes > 0 || this.long ? [this.take()] : [];
  }

  private add(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (this.long) {
      this.long.chars += utf16Length(bytes, from, to);
      // The bytes dropped, copied into a string dropped too: the reads are freed by the collector, which runs when
      // the young generation fills; skipped without allocating, they piled up (a 32 MB line refused at 4 MiB,
      // 64 KiB reads: 34 MB over the run without it, 7 to 11 with the copy).
      _dropped = bytes.toString('latin1', from, to);
      return;
    }
    this.parts.push(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to));
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
    this.parts = [];
    this.bytes = 0;
    this.chars = -1;
  }

  private take(): Line {
    const long = this.long;
    if (long) {
      this.long = undefined;
      return long;
    }
    const parts = this.parts;
    this.parts = [];
    const bytes = this.bytes;
    this.bytes = 0;
    this.chars = -1;
    const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
    return this.decode(line, 0, line.length);
  }

  /** Whole UTF-8 text decoded: one byte a character when it is Latin-1 (a streaming decode gives two). */
  private decode(bytes: Buffer, from: number, to: number): string {
    return to <= from ? '' : this.decoder.decode(bytes.subarray(from, to));
  }
}

/** The UTF-16 length of UTF-8 bytes: one a sequence (each byte but continuation bytes), one more for a four-byte one. */
/** The copy of bytes dropped (see `add`), kept nowhere else. */
let _dropped = '';

function utf16Length(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}
