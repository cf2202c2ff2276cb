import type { IntColumn } from './IntColumn.js';
import { normalizeValue } from './normalizeValue.js';
import type { RecordTexts } from './RecordTexts.js';
import { doiOf } from './recordFields.js';
import { EMPTY } from './sortedSets.js';

const DOI_IN_TEXT = /"doi":"((?:[^"\\]|\\.)*)"/;

/** A 28-bit hash (FNV-1a) of a DOI after normalisation; 0 for none. */
export function doiHash(doi: string): number {
  if (doi === '') return 0;
  const key = normalizeValue('doi', doi);
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 4 || 1;
}

/**
 * Finds records by DOI. DOIs, one per record, are kept as hashes only (the
 * `doiHashes` part); a match is checked against the DOI in the record's text.
 * A prefix search sorts all DOIs once, on first use.
 */
export class DoiIndex {
  /** Normalised DOIs in ascending order with their records (built on the first prefix search). */
  private sorted: { dois: string[]; ids: Int32Array } | undefined;

  constructor(
    private readonly hashes: IntColumn,
    private readonly records: RecordTexts,
  ) {}

  /** Records with a DOI (normalised). */
  postings(doi: string): Int32Array {
    if (doi === '') return EMPTY;
    const h = doiHash(doi);
    const hashes = this.hashes.sortedValues;
    const out: number[] = [];
    for (let i = this.hashes.lowerIndex(h); i < hashes.length && hashes[i] === h; i++) {
      const id = this.hashes.sortedIds[i]!;
      if (this.doiOf(id) === doi) out.push(id);
    }
    return Int32Array.from(out).sort();
  }

  /** Records with a DOI that starts with `prefix` (normalised). */
  prefixPostings(prefix: string): Int32Array {
    const { dois, ids } = (this.sorted ??= this.sortAll());
    let lo = 0;
    let hi = dois.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dois[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < dois.length && dois[end]!.startsWith(prefix)) end++;
    return ids.slice(lo, end).sort();
  }

  private sortAll(): { dois: string[]; ids: Int32Array } {
    const pairs: [string, number][] = [];
    for (let id = 0; id < this.records.size; id++) {
      const doi = this.doiOf(id);
      if (doi !== '') pairs.push([doi, id]);
    }
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    return { dois: pairs.map((p) => p[0]), ids: Int32Array.from(pairs.map((p) => p[1])) };
  }

  /** The normalised DOI of a record, read from its text. */
  private doiOf(id: number): string {
    const m = DOI_IN_TEXT.exec(this.records.rawText(id));
    let doi: string;
    try {
      doi = m ? (JSON.parse(`"${m[1]}"`) as string) : '';
    } catch {
      doi = '';
    }
    if (doi === '') doi = doiOf(this.records.rawRecord(id));
    return normalizeValue('doi', doi);
  }
}
