import { tokenize } from './foldText.js';
import type { SharedText } from './IndexedRecord.js';
import { TermIndexBuilder } from './TermIndex.js';

/** Indexes of words (free text, `title:`, `name:`, `journal:`). */
export type TokenIndexName = 'title' | 'name' | 'journal' | 'subjectWords' | 'keywordWords';

/** Most texts remembered by a cached word index (then it starts over). */
const CACHE_LIMIT = 200_000;

/** A word index being built: texts are tokenised and their words added to a {@link TermIndexBuilder}. */
export class WordIndexBuilder {
  readonly terms = new TermIndexBuilder();
  private readonly cache: Map<string, number[]> | undefined;

  /** `cached`: remember the term ids of each text, for fields whose texts repeat (names). */
  constructor(cached: boolean) {
    this.cache = cached ? new Map() : undefined;
  }

  /** Adds the words of `text` to record `id`. */
  add(text: string, id: number): void {
    if (text === '') return;
    const cache = this.cache;
    let ids = cache?.get(text);
    if (ids === undefined) {
      ids = this.termIds(text);
      if (cache) {
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(text, ids);
      }
    }
    this.addIds(ids, id);
  }

  addAll(texts: readonly string[], id: number): void {
    for (let i = 0; i < texts.length; i++) this.add(texts[i]!, id);
  }

  /** Adds the words of a shared text (tokenised once, see {@link SharedText}). */
  addShared(text: SharedText | undefined, id: number): void {
    if (text !== undefined) this.addIds((text.words ??= this.termIds(text.text)), id);
  }

  addAllShared(texts: readonly SharedText[], id: number): void {
    for (let i = 0; i < texts.length; i++) this.addShared(texts[i]!, id);
  }

  private termIds(text: string): number[] {
    const tokens = tokenize(text);
    const ids = new Array<number>(tokens.length);
    for (let i = 0; i < tokens.length; i++) ids[i] = this.terms.termId(tokens[i]!);
    return ids;
  }

  private addIds(ids: readonly number[], id: number): void {
    for (let i = 0; i < ids.length; i++) this.terms.addId(ids[i]!, id);
  }
}
