/** The facets, in the order the service sends them. */
export const FACET_NAMES = ['subject', 'keyword', 'pub', 'year', 'country', 'type'] as const;

/** A facet name. */
export type FacetName = (typeof FACET_NAMES)[number];

/** One value of a facet with its count (both strings, as the service sends them). */
export interface FacetValue {
  value: string;
  count: string;
}

/**
 * The facet values of every record, all facets interleaved in one compact
 * array, so counting touches each matching record once. Each value is an id
 * over all facets: facet `k`'s values are numbered from `bases[k]`.
 */
export class FacetIndex {
  private readonly bases: number[] = [];
  private readonly valueCount: number;

  /**
   * `labels[k]`: the values of facet `k` by value id; record `id`'s values are
   * `values[offsets[id]]` … `values[offsets[id + 1] - 1]`, given as codes
   * (value id × 8 + k) and turned into ids over all facets in place.
   */
  constructor(
    private readonly labels: readonly (readonly string[])[],
    private readonly offsets: Int32Array,
    private readonly values: Int32Array,
  ) {
    let base = 0;
    for (const facet of labels) {
      this.bases.push(base);
      base += facet.length;
    }
    for (let i = 0; i < values.length; i++) {
      const code = values[i]!;
      values[i] = this.bases[code & 7]! + (code >>> 3);
    }
    this.valueCount = base;
  }

  /** The values of every facet (in {@link FACET_NAMES} order) over a set of records, in one pass: at most `limit` each, by count then value. */
  count(ids: Int32Array, limit: number): FacetValue[][] {
    // one counter per facet value, all facets in one array: no branching per value
    const counts = new Int32Array(this.valueCount);
    const offsets = this.offsets;
    const values = this.values;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const end = offsets[id + 1]!;
      for (let k = offsets[id]!; k < end; k++) counts[values[k]!]!++;
    }
    return this.labels.map((labels, k) => topValues(counts, this.bases[k]!, labels, limit));
  }

  /** The facet values of record `id`, as `facet=value`, in the order stored. */
  valuesOf(id: number): string[] {
    const out: string[] = [];
    for (let i = this.offsets[id]!; i < this.offsets[id + 1]!; i++) {
      const v = this.values[i]!;
      let k = this.bases.length - 1;
      while (this.bases[k]! > v) k--;
      out.push(`${FACET_NAMES[k]}=${this.labels[k]![v - this.bases[k]!]}`);
    }
    return out;
  }

  /** Number of records. */
  get size(): number {
    return Math.max(0, this.offsets.length - 1);
  }
}

/** The `limit` values of a facet (its counters from `base`) with the highest counts (ties by value), as strings. */
function topValues(counts: Int32Array, base: number, labels: readonly string[], limit: number): FacetValue[] {
  const top: number[] = [];
  const count = (v: number) => counts[base + v]!;
  const better = (a: number, b: number) => count(a) > count(b) || (count(a) === count(b) && labels[a]! < labels[b]!);
  for (let v = 0; v < labels.length; v++) {
    if (count(v) === 0) continue;
    if (top.length === limit && !better(v, top[top.length - 1]!)) continue;
    let at = top.length;
    while (at > 0 && better(v, top[at - 1]!)) at--;
    top.splice(at, 0, v);
    if (top.length > limit) top.pop();
  }
  return top.map((v) => ({ value: labels[v]!, count: String(count(v)) }));
}
