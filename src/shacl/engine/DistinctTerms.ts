import type * as RDF from '@rdfjs/types';

/** The terms a {@link DistinctTerms} scans for a repeat before it keeps a set of them. */
const SCAN_UP_TO = 16;

/**
 * Interned terms (one object per term: compared by identity), each once, in the order first added. Few terms (the
 * value nodes of a path, a shape's focus nodes in a record) are found again by a scan of the list; a set is made
 * only past {@link SCAN_UP_TO} of them (a list of thousands of authors): a record's paths make no set.
 */
export class DistinctTerms {
  readonly items: RDF.Term[] = [];
  private seen: Set<RDF.Term> | undefined;

  /** Adds a term not added yet; whether it was new. */
  add(term: RDF.Term): boolean {
    const items = this.items;
    if (this.seen) {
      if (this.seen.has(term)) return false;
      this.seen.add(term);
    } else {
      for (let i = 0; i < items.length; i++) if (items[i] === term) return false;
      if (items.length === SCAN_UP_TO) this.seen = new Set(items).add(term);
    }
    items.push(term);
    return true;
  }

  /** Whether the term was added. */
  has(term: RDF.Term): boolean {
    return this.seen ? this.seen.has(term) : this.items.includes(term);
  }
}
