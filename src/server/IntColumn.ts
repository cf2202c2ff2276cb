import { EMPTY, lowerBound } from './sortedSets.js';

/** Most records a catalogue holds: record ids fit in 24 bits. */
export const MAX_RECORDS = 1 << 24;

/**
 * A number per record (a date as YYYYMMDD, a DOI hash; 0 for none, values
 * below 2^28), and the records sorted by it, for range and equality lookups.
 */
export class IntColumn {
  /** The values in ascending order, and the record of each (ties in record order). */
  readonly sortedValues: Int32Array;
  readonly sortedIds: Int32Array;

  constructor(readonly byRecord: Int32Array) {
    // value × MAX_RECORDS + id sorts by value then id, exactly (below 2^52)
    const keys = new Float64Array(byRecord.length);
    for (let i = 0; i < byRecord.length; i++) keys[i] = byRecord[i]! * MAX_RECORDS + i;
    keys.sort();
    this.sortedValues = new Int32Array(keys.length);
    this.sortedIds = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const value = Math.floor(k / MAX_RECORDS);
      this.sortedValues[i] = value;
      this.sortedIds[i] = k - value * MAX_RECORDS;
    }
  }

  /** The first position in sorted order whose value is at least `value`. */
  lowerIndex(value: number): number {
    return lowerBound(this.sortedValues, value);
  }

  /** Records whose value lies in `from` … `to` (both included; 0, none, never matches), sorted by id. */
  range(from: number, to: number): Int32Array {
    const size = this.byRecord.length;
    const lo = this.lowerIndex(Math.max(from, 1));
    const hi = this.lowerIndex(to + 1);
    if (hi <= lo) return EMPTY;
    if (hi - lo < size >>> 5) return this.sortedIds.slice(lo, hi).sort();
    // a large range: mark and scan (linear) rather than sort
    const mark = new Uint8Array(size);
    for (let i = lo; i < hi; i++) mark[this.sortedIds[i]!] = 1;
    const out = new Int32Array(hi - lo);
    let n = 0;
    for (let id = 0; id < mark.length; id++) if (mark[id] === 1) out[n++] = id;
    return out;
  }
}
