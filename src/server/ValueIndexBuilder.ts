import type { SharedText } from './IndexedRecord.js';
import { normalizeValue, type ValueIndexName } from './normalizeValue.js';
import { TermIndexBuilder } from './TermIndex.js';

/** Most values remembered by a value index (then it starts over). */
const CACHE_LIMIT = 200_000;

/**
 * A value index being built: values are normalised ({@link normalizeValue})
 * and added to a {@link TermIndexBuilder}; the term id of each value is
 * remembered, since values repeat.
 */
export class ValueIndexBuilder {
  readonly terms = new TermIndexBuilder();
  private readonly cache = new Map<string, number>();

  constructor(private readonly index: Exclude<ValueIndexName, 'doi'>) {}

  /** Adds `value` to record `id` (nothing when it normalises to ''). */
  add(value: string, id: number): void {
    if (value === '') return;
    const cache = this.cache;
    let t = cache.get(value);
    if (t === undefined) {
      const key = normalizeValue(this.index, value);
      if (key === '') return;
      t = this.terms.termId(key);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(value, t);
    }
    this.terms.addId(t, id);
  }

  addAll(values: readonly string[], id: number): void {
    for (let i = 0; i < values.length; i++) this.add(values[i]!, id);
  }

  /** Adds a shared text (normalised once, see {@link SharedText}). */
  addShared(text: SharedText | undefined, id: number): void {
    if (text === undefined) return;
    const t = (text.value ??= this.termIdOf(text.text));
    if (t >= 0) this.terms.addId(t, id);
  }

  addAllShared(texts: readonly SharedText[], id: number): void {
    for (let i = 0; i < texts.length; i++) this.addShared(texts[i]!, id);
  }

  /** The term id of a value (-1 when it normalises to nothing), without adding it to a record. */
  private termIdOf(value: string): number {
    const key = normalizeValue(this.index, value);
    return key === '' ? -1 : this.terms.termId(key);
  }
}
