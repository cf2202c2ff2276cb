import { slug } from '../mapping/entityIris.js';
import type { RecordIdentities } from '../mapping/recordIdentities.js';

/** One conflict: what was met twice, and the two records that disagree. */
export interface IdentityConflict {
  kind: 'orcid-names' | 'journal-names';
  /** The ORCID iD or the journal's key (an IRI). */
  key: string;
  first: { recordId: string; name: string };
  second: { recordId: string; name: string };
  /** One line for a person, naming both records. */
  note: string;
}

/** Different names met with one key are remembered up to this many per key (reports stay bounded). */
const NAMES_PER_KEY = 8;

/**
 * Identities that records contradict, found across the records of a run:
 * one ORCID iD given to people whose names do not match (after normalising
 * case, accents, punctuation, initials and order), one journal key (journal id
 * or ISSN) given to journals of different names. The graph keeps what the
 * records said; each conflict is reported once per pair of names, naming both
 * records. Memory grows with the distinct ORCID iDs and journal keys met (not
 * with the records).
 */
export class IdentityConflicts {
  private readonly seen = new Map<string, { recordId: string; name: string; norm: string }[]>();
  /** Conflicts found, counted. */
  count = 0;

  /** The conflicts a written record brings with the records before it. */
  observe(recordId: string, identities: RecordIdentities | undefined): IdentityConflict[] {
    if (!identities) return [];
    const out: IdentityConflict[] = [];
    for (const [orcid, name] of identities.orcids)
      this.meet('orcid-names', orcid, recordId, name, slug(name), personsMatch, out);
    const serial = identities.serial;
    if (serial?.name) {
      const norm = slug(serial.name);
      for (const key of serial.keys) this.meet('journal-names', key, recordId, serial.name, norm, sameName, out);
    }
    this.count += out.length;
    return out;
  }

  private meet(
    kind: IdentityConflict['kind'],
    key: string,
    recordId: string,
    name: string,
    norm: string,
    match: (a: string, b: string) => boolean,
    out: IdentityConflict[],
  ): void {
    if (!name) return;
    const mapKey = `${kind}\n${key}`;
    const names = this.seen.get(mapKey);
    if (!names) {
      this.seen.set(mapKey, [{ recordId, name, norm }]);
      return;
    }
    if (names.some((n) => match(n.norm, norm))) return;
    const first = names[0]!;
    const what = kind === 'orcid-names' ? `ORCID iD ${key}` : `journal ${key}`;
    out.push({
      kind,
      key,
      first: { recordId: first.recordId, name: first.name },
      second: { recordId, name },
      note: `conflict: ${what} is "${first.name}" in ${first.recordId} and "${name}" in ${recordId}`,
    });
    if (names.length < NAMES_PER_KEY) names.push({ recordId, name, norm });
  }
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
