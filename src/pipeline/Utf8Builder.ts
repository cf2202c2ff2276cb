import type * as RDF from '@rdfjs/types';
import { Buffer } from 'node:buffer';
import type { RecordWriter } from '../serialize/QuadSerializer.js';

/** UTF-8 text gathered in one buffer of its own (transferable), grown as needed: each text encoded once, never joined first. */
export class Utf8Builder {
  /** The size of the last batch's bytes: the next starts with room for as much. */
  private static last = 1 << 16;
  private buffer: Buffer;
  /** Bytes written so far. */
  length = 0;

  /**
   * `size`: the bytes it starts with room for; default the size of the last
   * `bytes()` taken, at least 64 KiB. `spare`: a buffer no longer used (or
   * shared memory given to write into), used when it is large enough (no new
   * memory). Defaults to none.
   */
  constructor(size = Utf8Builder.last, spare?: ArrayBufferLike) {
    this.buffer = spare && spare.byteLength >= size ? Buffer.from(spare) : Buffer.allocUnsafeSlow(size);
  }

  /** Appends `text`; its length in bytes. */
  add(text: string): number {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (this.buffer.length - this.length < text.length * 3) this.grow(this.length + text.length * 3);
    const written = this.buffer.write(text, this.length, 'utf8');
    this.length += written;
    return written;
  }

  /** Appends a binary string (one character a byte, as a writer's `writeBinary` gives); its length in bytes. */
  addBinary(text: string): number {
    if (this.buffer.length - this.length < text.length) this.grow(this.length + text.length);
    const written = this.buffer.write(text, this.length, 'latin1');
    this.length += written;
    return written;
  }

  /** Appends the text of a group of quads as `writer` writes it (its binary string when it gives one); its length in bytes. */
  record(writer: RecordWriter, quads: readonly RDF.Quad[]): number {
    return writer.writeBinary ? this.addBinary(writer.writeBinary(quads)) : this.add(writer.write(quads));
  }

  /** The bytes written: a view of the buffer (its ArrayBuffer is the builder's own). */
  bytes(): Uint8Array {
    Utf8Builder.last = Math.max(1 << 16, this.length + (this.length >> 3));
    return new Uint8Array(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafeSlow(Math.max(needed, this.buffer.length * 2));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}
