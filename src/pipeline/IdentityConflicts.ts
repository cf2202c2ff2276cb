import { slug } from '../mapping/entityIris.js';
import type { RecordIdentities } from '../mapping/recordIdentities.js';

/** One conflict: what was met twice, and the two records that disagree. */
export interface IdentityConflict {
  kind: 'orcid-names' | 'journal-names' | 'doi-contents';
  /** The ORCID iD, the journal's key (an IRI) or the DOI. */
  key: string;
  /** The records, by DOI (`doi-contents`: by their place in the input, both having the DOI), with the names they give. */
  first: { recordId: string; name: string };
  second: { recordId: string; name: string };
  /** One line for a person, naming both records. */
  note: string;
}

/** Different names met with one key are remembered up to this many per key (reports stay bounded). */
const NAMES_PER_KEY = 8;

/** How many conflict notes a summary keeps (the notes file has every one). */
export const CONFLICT_NOTES_KEPT = 100;

/** A name met with a key, with its normal form once a comparison needed it. */
interface Met {
  recordId: string;
  name: string;
  norm: string | undefined;
}

/**
 * Identities that records contradict, found across the records of a run
 * (`convert` and `export` alike), counted:
 * one ORCID iD given to people whose names do not match (after normalising
 * case, accents, punctuation, initials and order), one journal key (journal id
 * or ISSN) given to journals of different names, and one DOI met twice with
 * different content (found by the sinks' de-duplication, added with
 * {@link add}). The graph keeps what the records said; each conflict is
 * reported once per pair of names, naming both records. Memory grows with the
 * distinct ORCID iDs and journal keys met (not with the records).
 */
export class IdentityConflicts {
  private readonly orcids = new Map<string, Met[]>();
  private readonly journals = new Map<string, Met[]>();
  /** Conflicts found, counted. */
  count = 0;
  /** The first {@link CONFLICT_NOTES_KEPT} conflicts' notes. */
  readonly kept: string[] = [];

  /** The conflicts a written record brings with the records before it (counted). */
  observe(recordId: string, identities: RecordIdentities | undefined): IdentityConflict[] {
    if (!identities) return NONE;
    let out: IdentityConflict[] | undefined;
    for (const [orcid, name] of identities.orcids)
      out = this.meet(this.orcids, 'orcid-names', orcid, recordId, name, personsMatch, out);
    const serial = identities.serial;
    if (serial?.name) {
      for (const key of serial.keys)
        out = this.meet(this.journals, 'journal-names', key, recordId, serial.name, sameName, out);
    }
    if (!out) return NONE;
    for (const c of out) this.add(c.note);
    return out;
  }

  /** Counts a conflict found elsewhere (a DOI met twice with different content: {@link doiConflict}) by its note. */
  add(note: string): void {
    this.count++;
    if (this.kept.length < CONFLICT_NOTES_KEPT) this.kept.push(note);
  }

  /** What a summary says of the conflicts: their count and the first notes. */
  summary(): { conflicts: number; conflictNotes: string[] } {
    return { conflicts: this.count, conflictNotes: [...this.kept] };
  }

  private meet(
    seen: Map<string, Met[]>,
    kind: 'orcid-names' | 'journal-names',
    key: string,
    recordId: string,
    name: string,
    match: (a: string, b: string) => boolean,
    out: IdentityConflict[] | undefined,
  ): IdentityConflict[] | undefined {
    if (!name) return out;
    const names = seen.get(key);
    if (!names) {
      seen.set(key, [{ recordId, name, norm: undefined }]);
      return out;
    }
    // The same spelling (the common case) matches without normalising either.
    for (const n of names) if (n.name === name) return out;
    const norm = slug(name);
    for (const n of names) if (match((n.norm ??= slug(n.name)), norm)) return out;
    const first = names[0]!;
    const what = kind === 'orcid-names' ? `ORCID iD ${key}` : `journal ${key}`;
    (out ??= []).push({
      kind,
      key,
      first: { recordId: first.recordId, name: first.name },
      second: { recordId, name },
      note: `conflict: ${what} is "${first.name}" in ${first.recordId} and "${name}" in ${recordId}`,
    });
    if (names.length < NAMES_PER_KEY) names.push({ recordId, name, norm });
    return out;
  }
}

const NONE: IdentityConflict[] = [];

/**
 * A DOI met twice with different content (`first`, `second`: where each record is, e.g. `a.jsonl#3 (line 3)`):
 * the first is in the output, the second rejected as a duplicate.
 */
export function doiConflict(doi: string, first: string, second: string): IdentityConflict {
  return {
    kind: 'doi-contents',
    key: doi,
    first: { recordId: first, name: doi },
    second: { recordId: second, name: doi },
    note: `conflict: DOI ${doi} has different content in ${first} and ${second} (the first is written, the second left out as a duplicate)`,
  };
}

const sameName = (a: string, b: string): boolean => a === b;

/**
 * Whether two person names (as {@link slug}s: lower case, accents and punctuation gone) can be one person's:
 * every part of the shorter matches a different part of the longer, in any order, a part matching itself or
 * its initial; at least one full part (more than a letter) in common. `muller-anna` ~ `anna-muller` ~ `muller-a`.
 */
export function personsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const pa = a.split('-').filter(Boolean);
  const pb = b.split('-').filter(Boolean);
  const [short, long] = pa.length <= pb.length ? [pa, pb] : [pb, pa];
  const used = new Array<boolean>(long.length).fill(false);
  let full = false;
  for (const part of short) {
    let at = long.findIndex((other, i) => !used[i] && other === part);
    if (at >= 0 && part.length > 1) full = true;
    if (at < 0)
      at = long.findIndex((other, i) => !used[i] && (other.length === 1 || part.length === 1) && other[0] === part[0]);
    if (at < 0) return false;
    used[at] = true;
  }
  return full;
}
