import { DoiSet } from '../record/DoiSet.js';
import type { ReadItem } from '../record/readRecords.js';
import { type IdentityConflict, doiConflict } from './IdentityConflicts.js';

/** Where a record was read: its input, its number in it and the line it starts on. */
export type RecordPlace = Pick<Extract<ReadItem, { kind: 'record' }>, 'source' | 'index' | 'line'>;

/** A record's DOI met before: where its first record was, and whether that one said something else (a conflict). */
export interface DoiMetBefore {
  first: RecordPlace;
  /** The first and this record differ in content ({@link recordDigest}): the note naming both. */
  conflict?: IdentityConflict;
}

/** Numbers kept with each DOI: the content digest (2), the input's number, the index, the line + 1 (0: none). */
const WIDTH = 5;

/**
 * The DOIs of a run's records (a {@link DoiSet}: compared by `doiKey`), each
 * with a 64-bit digest of its first record's content and that record's place
 * (its input by number, its index and line): a DOI met again says where it
 * was first and, when the content differs, is a conflict naming both records.
 * Fixed-size entries: 16 bytes per DOI for the set and 40 for what is kept
 * with it at most (the table is at least half empty), plus the names of the
 * inputs; no strings per record.
 */
export class DoiContents {
  private readonly set = new DoiSet(1024, { values: WIDTH });
  private readonly entry = new Uint32Array(WIDTH);
  private readonly sources: string[] = [];
  private readonly sourceNumbers = new Map<string, number>();

  /** Adds a record's DOI; undefined when it is new, else where it was met first (and the conflict, if any). */
  meet(doi: string, digest: readonly [number, number], place: RecordPlace): DoiMetBefore | undefined {
    const entry = this.entry;
    entry[0] = digest[0];
    entry[1] = digest[1];
    entry[2] = this.sourceNumber(place.source);
    entry[3] = place.index;
    entry[4] = place.line !== undefined ? place.line + 1 : 0;
    if (this.set.add(doi, entry)) return undefined;
    return this.before(doi, digest, placeLabel(place));
  }

  /**
   * A record dropped before it came here (an export's harvest drops a DOI it
   * saw), named by `label`: where its DOI's first record was, and the
   * conflict when the content differs; undefined when the DOI was not met
   * (nothing is added).
   */
  dropped(doi: string, digest: readonly [number, number], label: string): DoiMetBefore | undefined {
    return this.set.has(doi) ? this.before(doi, digest, label) : undefined;
  }

  /** What `found` says of the first record of a DOI met again by a record at `label`. */
  private before(doi: string, digest: readonly [number, number], label: string): DoiMetBefore {
    const found = this.set.found;
    const first: RecordPlace = {
      source: this.sources[found[2]!]!,
      index: found[3]!,
      ...(found[4] ? { line: found[4] - 1 } : {}),
    };
    if (found[0] === digest[0] && found[1] === digest[1]) return { first };
    return { first, conflict: doiConflict(doi, placeLabel(first), label) };
  }

  private sourceNumber(source: string): number {
    let n = this.sourceNumbers.get(source);
    if (n === undefined) {
      n = this.sources.push(source) - 1;
      this.sourceNumbers.set(source, n);
    }
    return n;
  }
}

/** A record's place for a person: `a.jsonl#3 (line 3)`. */
export function placeLabel(place: RecordPlace): string {
  return `${place.source}#${place.index}${place.line !== undefined ? ` (line ${place.line})` : ''}`;
}
