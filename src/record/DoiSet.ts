import * as crypto from 'node:crypto';
import { ToolkitError } from '../errors.js';
import { doiKey } from './recordDoi.js';

/** SHA-1 of a text: one call where Node has `crypto.hash` (20.12 on), a hash object before. */
const sha1: (text: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha1', text, 'buffer')
    : (text) => crypto.createHash('sha1').update(text).digest();

/** Options of a {@link DoiSet}. */
export interface DoiSetOptions {
  /** Queue each new entry for `drainNew()` (a side file). Defaults to false. */
  queueNew?: boolean;
  /**
   * Keep SHA-1 entries, the same in every version and process, so that side
   * files can be `load()`ed; else a fast 64-bit hash of this process (about
   * twenty times cheaper than SHA-1 through `crypto`). Defaults to `queueNew`.
   */
  stable?: boolean;
  /**
   * Numbers (unsigned 32-bit) kept with each DOI: given to `add()` with a new
   * DOI, read from `found` after `add()` met one again or `has()` found one
   * (zeros for entries `load()`ed or added without them). Defaults to 0 (none).
   */
  values?: number;
}

/**
 * A compact set of DOIs for de-duplication within one harvest: it keeps a
 * 64-bit hash of each DOI's key ({@link doiKey}: cleaned as the normaliser
 * cleans text, trimmed, lower case) in an open-addressing table, 16 bytes per
 * DOI at most (and 8 per number kept with each: {@link DoiSetOptions.values}),
 * instead of the strings.
 * Two different DOIs share a hash with a probability of about n²/2⁶⁵
 * (3·10⁻⁶ for ten million DOIs), in which case the second record would be
 * rejected as a duplicate.
 *
 * With `queueNew`, new hashes are also queued as 8-byte entries (`drainNew()`),
 * so a resumable export can append them to a side file and `load()` them back
 * (a `stable` set: the entries are the first 8 bytes of the key's SHA-1);
 * without it (the default) nothing is queued, as nobody would drain it.
 */
export class DoiSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private count = 0;
  private pending: Buffer[] = [];
  private readonly queueNew: boolean;
  private readonly stable: boolean;
  /** Numbers kept per slot (`width` of them at `slot * width`). */
  private values: Uint32Array;
  private readonly width: number;
  /** After `add()` returned false or `has()` true: the numbers kept with that DOI. */
  readonly found: Uint32Array;

  constructor(capacity = 1024, options: DoiSetOptions = {}) {
    this.queueNew = options.queueNew ?? false;
    this.stable = options.stable ?? this.queueNew;
    this.width = options.values ?? 0;
    this.found = new Uint32Array(this.width);
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.values = new Uint32Array(size * this.width);
  }

  /** Number of DOIs in the set. */
  get size(): number {
    return this.count;
  }

  /** Adds a DOI, with the numbers kept with it (see {@link DoiSetOptions.values}); returns `false` when it was already there. */
  add(doi: string, values?: ArrayLike<number>): boolean {
    this.hash(doi);
    const added = this.addHash(HASH[0]!, HASH[1]!, values);
    if (added && this.queueNew) {
      const entry = Buffer.allocUnsafe(8);
      entry.writeUInt32BE(HASH[0]!, 0);
      entry.writeUInt32BE(HASH[1]!, 4);
      this.pending.push(entry);
    }
    return added;
  }

  /** Whether a DOI is in the set (when it is, `found` holds the numbers kept with it). */
  has(doi: string): boolean {
    this.hash(doi);
    const hi = HASH[0]!;
    let lo = HASH[1]!;
    if (hi === 0 && lo === 0) lo = 1;
    const mask = this.hi.length - 1;
    const width = this.width;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      if (this.hi[i] === 0 && this.lo[i] === 0) return false;
      if (this.hi[i] === hi && this.lo[i] === lo) {
        if (width > 0) this.found.set(this.values.subarray(i * width, (i + 1) * width));
        return true;
      }
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
    if (!this.stable)
      throw new ToolkitError('a DoiSet loads side files only when it keeps stable (SHA-1) entries', 'internal');
    for (let off = 0; off + 8 <= entries.length; off += 8)
      this.addHash(entries.readUInt32BE(off), entries.readUInt32BE(off + 4));
  }

  /** The key's 64-bit hash, into {@link HASH} (high half, low half). */
  private hash(doi: string): void {
    const key = doiKey(doi);
    if (!this.stable) {
      fastHash(key);
      return;
    }
    const digest = sha1(key);
    HASH[0] = digest.readUInt32BE(0);
    HASH[1] = digest.readUInt32BE(4);
  }

  /** `values`: numbers to keep with a new entry (a source of `width` numbers at `from`). */
  private addHash(hi: number, lo: number, values?: ArrayLike<number>, from = 0): boolean {
    if (hi === 0 && lo === 0) lo = 1;
    if ((this.count + 1) * 2 > this.hi.length) this.grow();
    const mask = this.hi.length - 1;
    const width = this.width;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      if (this.hi[i] === 0 && this.lo[i] === 0) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.count++;
        if (values) for (let v = 0; v < width; v++) this.values[i * width + v] = values[from + v]!;
        return true;
      }
      if (this.hi[i] === hi && this.lo[i] === lo) {
        if (width > 0) this.found.set(this.values.subarray(i * width, (i + 1) * width));
        return false;
      }
    }
  }

  private grow(): void {
    const oldHi = this.hi;
    const oldLo = this.lo;
    const oldValues = this.values;
    this.hi = new Uint32Array(oldHi.length * 2);
    this.lo = new Uint32Array(oldLo.length * 2);
    this.values = new Uint32Array(this.hi.length * this.width);
    this.count = 0;
    for (let i = 0; i < oldHi.length; i++) {
      if (oldHi[i] !== 0 || oldLo[i] !== 0) this.addHash(oldHi[i]!, oldLo[i]!, oldValues, i * this.width);
    }
  }
}

/** The last hash computed: high and low 32 bits (one array, no allocation per DOI). */
const HASH = new Uint32Array(2);

const SEED1 = 0x9747b28c | 0;
const SEED2 = 0x2f6b9e35;
/** The two lanes of a hash being taken (signed 32-bit), between {@link absorb} and its caller. */
const LANES = new Int32Array(2);

/**
 * A 64-bit hash of a text's UTF-16 code units, into {@link HASH}: two 32-bit
 * MurmurHash3-style lanes with different seeds, multipliers and rotations (so
 * that inputs colliding in one lane do not collide in the other for the same
 * reason), each finalised with MurmurHash3's avalanche and the length.
 */
function fastHash(text: string): void {
  LANES[0] = SEED1;
  LANES[1] = SEED2;
  absorb(text);
  HASH[0] = avalanche(LANES[0] ^ text.length);
  HASH[1] = avalanche(LANES[1] ^ text.length);
}

/** Hashes a text's code units into {@link LANES}. */
function absorb(text: string): void {
  let h1 = LANES[0]!;
  let h2 = LANES[1]!;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k = Math.imul(c, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h1 ^= k;
    h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
    let m = Math.imul(c, 0x38b34ae5);
    m = Math.imul((m << 16) | (m >>> 16), 0xa1e38b93);
    h2 ^= m;
    h2 = (Math.imul((h2 << 15) | (h2 >>> 17), 5) + 0x561ccd1b) | 0;
  }
  LANES[0] = h1;
  LANES[1] = h2;
}

/** MurmurHash3's finaliser (fmix32). */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
