/**
 * Set operations on sorted, duplicate-free arrays of record ids (posting
 * lists). All functions return new arrays and never modify their arguments.
 */

/** The empty set. */
export const EMPTY: Int32Array = new Int32Array(0);

/** Ids in both `a` and `b` (gallops through the longer list when sizes differ). */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length > b.length) [a, b] = [b, a];
  if (a.length === 0) return EMPTY;
  const out = new Int32Array(a.length);
  let n = 0;
  if (b.length > a.length * 16) {
    let lo = 0;
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      lo = lowerBound(b, v, lo);
      if (lo >= b.length) break;
      if (b[lo] === v) out[n++] = v;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i]!;
      const y = b[j]!;
      if (x === y) {
        out[n++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return out.subarray(0, n);
}

/** Ids in `a` or `b`. */
export function union(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) {
      out[n++] = x;
      i++;
    } else {
      out[n++] = y;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}

/** Union of many lists (marks a bitmap when there are many). */
export function unionAll(lists: readonly Int32Array[], universe: number): Int32Array {
  if (lists.length === 0) return EMPTY;
  if (lists.length === 1) return lists[0]!;
  if (lists.length <= 4) return lists.reduce(union);
  const mark = new Uint8Array(universe);
  let count = 0;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const v = list[i]!;
      if (mark[v] === 0) {
        mark[v] = 1;
        count++;
      }
    }
  }
  const out = new Int32Array(count);
  let n = 0;
  for (let v = 0; v < universe && n < count; v++) if (mark[v] === 1) out[n++] = v;
  return out;
}

/** Ids in `a` but not in `b`. */
export function difference(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Int32Array(a.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length) {
    const x = a[i]!;
    while (j < b.length && b[j]! < x) j++;
    if (j < b.length && b[j] === x) i++;
    else {
      out[n++] = x;
      i++;
    }
  }
  return out.subarray(0, n);
}

/** Ids 0 … universe-1 not in `a`. */
export function complement(a: Int32Array, universe: number): Int32Array {
  const out = new Int32Array(universe - a.length);
  let n = 0;
  let j = 0;
  for (let v = 0; v < universe; v++) {
    if (j < a.length && a[j] === v) j++;
    else out[n++] = v;
  }
  return out.subarray(0, n);
}

/** First index `i >= from` with `list[i] >= value` (exponential then binary search). */
export function lowerBound(list: ArrayLike<number>, value: number, from = 0): number {
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi]! < value) {
    from = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > list.length) hi = list.length;
  let lo = from;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
