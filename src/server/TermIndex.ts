import { IntList } from './IntList.js';
import { EMPTY, unionAll } from './sortedSets.js';

/**
 * Builds an inverted index (term → sorted record ids) from (term, record)
 * pairs added in record order. Pairs go to two flat integer lists, so a
 * million records do not make millions of small arrays; `freeze()` turns them
 * into one posting array per index (counting sort by term).
 */
export class TermIndexBuilder {
  readonly dict = new Map<string, number>();
  private readonly lastRecord = new IntList();
  private readonly terms = new IntList(1 << 16);
  private readonly records = new IntList(1 << 16);

  /** The id of a term (created on first use). */
  termId(term: string): number {
    let t = this.dict.get(term);
    if (t === undefined) {
      t = this.dict.size;
      this.dict.set(term, t);
      this.lastRecord.push(-1);
    }
    return t;
  }

  /** Records that `record` holds term `t` (once per record; records must come in ascending order). */
  addId(t: number, record: number): void {
    if (this.lastRecord.data[t] === record) return;
    this.lastRecord.data[t] = record;
    this.terms.push(t);
    this.records.push(record);
  }

  /** Records that `record` holds `term` (ignores empty terms). */
  add(term: string, record: number): void {
    if (term !== '') this.addId(this.termId(term), record);
  }

  /** The pairs as plain data (to send from a worker), term ids in order of `keys`. */
  pairs(): TermPairs {
    return { keys: [...this.dict.keys()], terms: this.terms.freeze(), records: this.records.freeze() };
  }

  freeze(): TermIndex {
    const termCount = this.dict.size;
    const offsets = new Int32Array(termCount + 1);
    const terms = this.terms.data;
    const n = this.terms.length;
    for (let i = 0; i < n; i++) offsets[terms[i]! + 1]!++;
    for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
    const fill = offsets.slice(0, termCount);
    const ids = new Int32Array(n);
    const records = this.records.data;
    for (let i = 0; i < n; i++) ids[fill[terms[i]!]!++] = records[i]!;
    return new TermIndex(this.dict, offsets, ids);
  }
}

/** The (term, record) pairs of a part of a catalogue, as plain data. */
export interface TermPairs {
  /** Terms, by term id. */
  keys: string[];
  terms: Int32Array;
  records: Int32Array;
}

/**
 * Merges the pairs of consecutive parts of a catalogue into one index; the
 * records of part `i` are shifted by `recordOffsets[i]`.
 */
export function mergeTermPairs(parts: readonly TermPairs[], recordOffsets: readonly number[]): TermIndex {
  const dict = new Map<string, number>();
  const remaps = parts.map((p) => {
    const remap = new Int32Array(p.keys.length);
    for (let i = 0; i < p.keys.length; i++) {
      const key = p.keys[i]!;
      let t = dict.get(key);
      if (t === undefined) {
        t = dict.size;
        dict.set(key, t);
      }
      remap[i] = t;
    }
    return remap;
  });
  const termCount = dict.size;
  const offsets = new Int32Array(termCount + 1);
  let total = 0;
  parts.forEach((p, k) => {
    const remap = remaps[k]!;
    for (let i = 0; i < p.terms.length; i++) offsets[remap[p.terms[i]!]! + 1]!++;
    total += p.terms.length;
  });
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const fill = offsets.slice(0, termCount);
  const ids = new Int32Array(total);
  parts.forEach((p, k) => {
    const remap = remaps[k]!;
    const shift = recordOffsets[k]!;
    for (let i = 0; i < p.terms.length; i++) ids[fill[remap[p.terms[i]!]!]!++] = p.records[i]! + shift;
  });
  return new TermIndex(dict, offsets, ids);
}

/** An inverted index: term → sorted, duplicate-free record ids. */
export class TermIndex {
  private sortedKeys: string[] | undefined;

  constructor(
    private readonly dict: Map<string, number>,
    private readonly offsets: Int32Array,
    private readonly ids: Int32Array,
  ) {}

  /** Number of distinct terms. */
  get size(): number {
    return this.dict.size;
  }

  /** The records holding a term (a view, not a copy). */
  get(term: string): Int32Array {
    const t = this.dict.get(term);
    if (t === undefined) return EMPTY;
    return this.ids.subarray(this.offsets[t]!, this.offsets[t + 1]!);
  }

  /** The terms, sorted (computed once). */
  sortedTerms(): readonly string[] {
    this.sortedKeys ??= [...this.dict.keys()].sort();
    return this.sortedKeys;
  }

  /** The records holding any term that starts with `prefix`. */
  prefix(prefix: string, universe: number): Int32Array {
    const keys = this.sortedTerms();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const lists: Int32Array[] = [];
    for (let i = lo; i < keys.length && keys[i]!.startsWith(prefix); i++) lists.push(this.get(keys[i]!));
    return unionAll(lists, universe);
  }
}
