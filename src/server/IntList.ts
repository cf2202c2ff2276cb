/** A growable Int32Array. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  freeze(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** The arrays one after the other; the values of array `k` increased by `shift(k)` (called once per array, in order). */
export function concatInt32(arrays: readonly Int32Array[], shift: (k: number) => number = () => 0): Int32Array {
  const out = new Int32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  arrays.forEach((a, k) => {
    const d = shift(k);
    if (d === 0) out.set(a, at);
    else for (let i = 0; i < a.length; i++) out[at + i] = a[i]! + d;
    at += a.length;
  });
  return out;
}
