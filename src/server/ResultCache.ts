import type { facetsOf } from './searchResponse.js';

/** The records a query matched, and their facets once counted. */
export interface CachedResult {
  ids: Int32Array;
  facets?: ReturnType<typeof facetsOf>;
}

/** The results of the latest queries, so that paging through a result does not evaluate it again; the least recently used goes first. */
export class ResultCache {
  private readonly results = new Map<string, CachedResult>();

  /** `size`: results kept; 0 keeps none. */
  constructor(private readonly size: number) {}

  /** The result kept for `key`, now the most recently used. */
  get(key: string): CachedResult | undefined {
    const result = this.results.get(key);
    if (result) {
      this.results.delete(key);
      this.results.set(key, result);
    }
    return result;
  }

  /** Keeps a result (unless the cache keeps none), dropping the least recently used beyond the size. */
  set(key: string, result: CachedResult): void {
    if (this.size <= 0) return;
    this.results.set(key, result);
    if (this.results.size > this.size) this.results.delete(this.results.keys().next().value!);
  }
}
