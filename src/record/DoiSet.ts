import * as crypto from 'node:crypto';
import { doiKey } from './recordDoi.js';

/** SHA-1 of a text: one call where Node has `crypto.hash` (20.12 on), a hash object before. */
const sha1: (text: string) => Buffer =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha1', text, 'buffer') : (text) => crypto.createHash('sha1').update(text).digest();

/**
 * A compact set of DOIs for de-duplication within one harvest: it keeps a
 * 64-bit hash of each DOI's key ({@link doiKey}: cleaned as the normaliser
 * cleans text, trimmed, lower case) in an open-addressing table, 16 bytes per
 * DOI at most, instead of the strings.
 * Two different DOIs share a hash with a probability of about n²/2⁶⁵
 * (3·10⁻⁶ for ten million DOIs), in which case the second record would be
 * dropped as a duplicate.
 *
 * With `queueNew`, new hashes are also queued as 8-byte entries (`drainNew()`),
 * so a resumable export can append them to a side file and `load()` them back;
 * without it (the default) nothing is queued, as nobody would drain it.
 */
export class DoiSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private count = 0;
  private pending: Buffer[] = [];
  private readonly queueNew: boolean;

  constructor(capacity = 1024, options: { queueNew?: boolean } = {}) {
    this.queueNew = options.queueNew ?? false;
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
  }

  /** Number of DOIs in the set. */
  get size(): number {
    return this.count;
  }

  /** Adds a DOI; returns `false` when it was already there. */
  add(doi: string): boolean {
    const digest = sha1(doiKey(doi));
    const added = this.addHash(digest.readUInt32BE(0), digest.readUInt32BE(4));
    if (added && this.queueNew) this.pending.push(Buffer.from(digest.subarray(0, 8)));
    return added;
  }

  /** Whether a DOI is in the set. */
  has(doi: string): boolean {
    const digest = sha1(doiKey(doi));
    let hi = digest.readUInt32BE(0);
    let lo = digest.readUInt32BE(4);
    if (hi === 0 && lo === 0) lo = 1;
    const mask = this.hi.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      if (this.hi[i] === 0 && this.lo[i] === 0) return false;
      if (this.hi[i] === hi && this.lo[i] === lo) return true;
    }
  }

  /** The 8-byte entries added since the last call (for a side file). */
  drainNew(): Buffer {
    const out = Buffer.concat(this.pending);
    this.pending = [];
    return out;
  }

  /** Adds the 8-byte entries of a side file (a trailing partial entry is ignored). */
  load(entries: Buffer): void {
    for (let off = 0; off + 8 <= entries.length; off += 8) this.addHash(entries.readUInt32BE(off), entries.readUInt32BE(off + 4));
  }

  private addHash(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) lo = 1;
    if ((this.count + 1) * 2 > this.hi.length) this.grow();
    const mask = this.hi.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      if (this.hi[i] === 0 && this.lo[i] === 0) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.count++;
        return true;
      }
      if (this.hi[i] === hi && this.lo[i] === lo) return false;
    }
  }

  private grow(): void {
    const oldHi = this.hi;
    const oldLo = this.lo;
    this.hi = new Uint32Array(oldHi.length * 2);
    this.lo = new Uint32Array(oldLo.length * 2);
    this.count = 0;
    for (let i = 0; i < oldHi.length; i++) {
      if (oldHi[i] !== 0 || oldLo[i] !== 0) this.addHash(oldHi[i]!, oldLo[i]!);
    }
  }
}
