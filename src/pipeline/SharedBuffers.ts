/**
 * Shared memory that the main thread and the record workers take turns with:
 * the bytes of a part of an input (written here, read by a worker) and of its
 * output (written by a worker, written out here). A `SharedArrayBuffer` posted
 * to a thread is the same memory there, not a new buffer: no copy, and, unlike
 * an `ArrayBuffer` transferred for every part, nothing new for V8 to account.
 * (Transferred buffers arriving at each part counted as new external memory in
 * the main thread, about 1.5 MB a part of N-Triples, and set off a full
 * collection of its heap every few hundred milliseconds: a third of its CPU.)
 * Buffers are given back once their bytes are no longer held, and taken again
 * for later parts; at most `keep` are held free, so the memory stays that of
 * the parts in flight.
 */
export class SharedBuffers {
  private readonly free: SharedArrayBuffer[] = [];

  /** `keep`: free buffers held at most (the others are let go). */
  constructor(private readonly keep: number) {}

  /**
   * A buffer of at least `bytes`: a free one (the smallest that is large
   * enough), else a new one of `make` bytes (default `bytes`; more leaves room
   * to take it again for a larger need).
   */
  take(bytes: number, make = bytes): SharedArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best < 0) return new SharedArrayBuffer(Math.max(bytes, make));
    const [buffer] = this.free.splice(best, 1);
    return buffer!;
  }

  /** Gives a buffer back (its bytes are no longer held); past `keep` free, the smallest are let go. */
  give(buffer: SharedArrayBuffer): void {
    if (this.free.includes(buffer)) return;
    this.free.push(buffer);
    if (this.free.length <= this.keep) return;
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++)
      if (this.free[i]!.byteLength < this.free[smallest]!.byteLength) smallest = i;
    this.free.splice(smallest, 1);
  }

  /** Buffers held free. */
  get size(): number {
    return this.free.length;
  }
}

/** Whether bytes lie in shared memory (not transferable, and not to be kept once given back). */
export function isShared(bytes: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer;
}
