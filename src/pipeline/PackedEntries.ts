import { ToolkitError } from '../errors.js';
import type { RecordIdentities } from '../mapping/recordIdentities.js';
import type { PartEntry, RecordResult } from './RecordResult.js';

/**
 * A part's entries as a worker sends them: the numbers of every entry in one
 * transferred `Float64Array` (a written record's place, digest, byte and
 * statement counts, the keys of its statements about shared entities: 53-bit
 * integers, exact in a double), its strings in one array (the DOI, notes,
 * unknown fields, ORCID iDs and names, serial keys and name), and the rare
 * entries (problems, rejections, failures) as they are. Structured clone then
 * copies one buffer and flat strings, not an object graph a record (about 4% of
 * a worker's CPU and the main thread's largest share of decoding), and the main
 * thread makes each record's objects only when it passes the record on, so
 * they die young.
 */
export interface PackedEntries {
  numbers: Float64Array;
  strings: string[];
  /** The entries that are not written records, in order. */
  others: Exclude<PartEntry, { kind: 'written' }>[];
}

/** The numbers an entry starts with: whether it is a written record. */
const WRITTEN = 0;
const OTHER = 1;
/** No line (`line` undefined), no serial (`identities.serial` undefined). */
const NONE = -1;

/** Every key of {@link RecordIdentities} is packed (a key added there fails to compile here, not to travel silently). */
const PACKED_IDENTITIES: Record<keyof RecordIdentities, true> = { orcids: true, serial: true };
void PACKED_IDENTITIES;

/** Packs the entries of a part as they come ({@link PackedEntries}). */
export class EntryPacker {
  private numbers = new Float64Array(8192);
  private length = 0;
  private readonly strings: string[] = [];
  private readonly others: PackedEntries['others'] = [];

  /** Adds the next entry. */
  add(entry: PartEntry): void {
    if (entry.kind !== 'written') {
      this.push(OTHER);
      this.others.push(entry);
      return;
    }
    const keys = entry.sharedKeys;
    const { orcids, serial } = entry.identities;
    this.room(12 + keys.length);
    const n = this.numbers;
    let at = this.length;
    n[at++] = WRITTEN;
    n[at++] = entry.index;
    n[at++] = entry.line ?? NONE;
    n[at++] = entry.digest[0];
    n[at++] = entry.digest[1];
    n[at++] = entry.bytes;
    n[at++] = entry.quadCount;
    n[at++] = entry.notes.length;
    n[at++] = entry.unknownFields.length;
    n[at++] = orcids.length;
    n[at++] = serial ? serial.keys.length : NONE;
    n[at++] = keys.length;
    for (const key of keys) n[at++] = key;
    this.length = at;
    const s = this.strings;
    s.push(entry.doi);
    for (const note of entry.notes) s.push(note);
    for (const field of entry.unknownFields) s.push(field);
    for (const [orcid, name] of orcids) s.push(orcid, name);
    if (serial) {
      for (const key of serial.keys) s.push(key);
      s.push(serial.name);
    }
  }

  /** The entries added, packed (the numbers in a buffer of their own, to transfer). */
  pack(): PackedEntries {
    return { numbers: this.numbers.slice(0, this.length), strings: this.strings, others: this.others };
  }

  private push(value: number): void {
    this.room(1);
    this.numbers[this.length++] = value;
  }

  private room(more: number): void {
    if (this.length + more <= this.numbers.length) return;
    const larger = new Float64Array(Math.max(this.length + more, this.numbers.length * 2));
    larger.set(this.numbers.subarray(0, this.length));
    this.numbers = larger;
  }
}

/** The entries of a {@link PackedEntries}, in order, as the worker made them (each made when it is asked for). */
export function* unpackEntries(packed: PackedEntries): Generator<PartEntry> {
  const { numbers: n, strings: s, others } = packed;
  let at = 0;
  let str = 0;
  let other = 0;
  while (at < n.length) {
    if (n[at++] !== WRITTEN) {
      const entry = others[other++];
      if (!entry) throw new ToolkitError('a packed part has fewer entries than it says', 'internal');
      yield entry;
      continue;
    }
    const index = n[at++]!;
    const line = n[at++]!;
    const digest: [number, number] = [n[at++]!, n[at++]!];
    const bytes = n[at++]!;
    const quadCount = n[at++]!;
    const noteCount = n[at++]!;
    const unknownCount = n[at++]!;
    const orcidCount = n[at++]!;
    const serialCount = n[at++]!;
    const keyCount = n[at++]!;
    const sharedKeys = new Array<number>(keyCount);
    for (let i = 0; i < keyCount; i++) sharedKeys[i] = n[at++]!;
    const doi = s[str++]!;
    const notes = s.slice(str, (str += noteCount));
    const unknownFields = s.slice(str, (str += unknownCount));
    const orcids = new Array<[string, string]>(orcidCount);
    for (let i = 0; i < orcidCount; i++) orcids[i] = [s[str++]!, s[str++]!];
    const identities: RecordIdentities = { orcids };
    if (serialCount !== NONE) {
      const keys = s.slice(str, (str += serialCount));
      identities.serial = { keys, name: s[str++]! };
    }
    const result: RecordResult & { index: number; line?: number } = {
      kind: 'written',
      doi,
      digest,
      bytes,
      quadCount,
      sharedKeys,
      notes,
      unknownFields,
      identities,
      index,
    };
    if (line !== NONE) result.line = line;
    yield result;
  }
  if (str !== s.length || other !== others.length)
    throw new ToolkitError('a packed part holds more than its entries say', 'internal');
}
