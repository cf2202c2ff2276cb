import { RecentKeys } from './groupRecords.js';

/**
 * What the grouping of a part of a dump, begun afresh at its first line (`NTriplesLineGrouper` with `watch`),
 * cannot know of the lines before it: what {@link PartJoiner} checks to tell whether the part was grouped as the
 * whole input would be.
 */
export interface PartBoundary {
  /** Whether the part's first statement is a record's (its subject, or its N-Quads record graph). */
  startsWithRecord: boolean;
  /** Lines that waited for a record or were of no record when the part ended (see `RecordGrouper.waiting`). */
  waiting: number;
  /** Blank-node labels of the lines before the window's worth of records started in the part. */
  earlyBlanks: string[];
  /** Whether a group of no record came out before the window's worth of records started in the part. */
  otherEarly: boolean;
  /** The blank-node labels owned by the records open when the part ended, by record. */
  openBlanks: [string, string[]][];
}

/** A part as the joiner reads it: where it starts, its groups' keys in order, and its boundary. */
export interface GroupedPart {
  /** Its first byte in the input. */
  start: number;
  keys: readonly (string | undefined)[];
  boundary: PartBoundary;
}

/** The state of the whole input's grouping that matters to the next lines: the records open, and those passed on. */
class KeyWindow {
  /** The keys of the last `window` records started, oldest first. */
  readonly open: string[] = [];
  /** Blank-node labels owned by open records. */
  readonly blanks = new Map<string, readonly string[]>();
  /** Keys passed on (as `RecordGrouper` remembers them, to notice a split record). */
  private readonly done = new RecentKeys();

  constructor(private readonly window: number) {}

  /** A record started: whether it was split (passed on before), as `RecordGrouper.add` tells. */
  start(key: string): boolean {
    const split = this.done.delete(key);
    while (this.open.length >= this.window) {
      const oldest = this.open.shift()!;
      this.blanks.delete(oldest);
      this.done.add(oldest);
    }
    this.open.push(key);
    return split;
  }
}

/**
 * Tells, in the reading thread, whether parts of an N-Triples or N-Quads dump grouped each afresh (in worker
 * threads) were grouped as the whole input would have been (`groupNTriplesRecords`), and counts split records
 * as it would. Parts are {@link offer}ed in input order; a part is held until a window's worth of records have
 * started after it (no later line can join its records then), then passed on ({@link sealed}). When a part
 * could have been grouped otherwise (a line of a record started before it, a blank node of such a record, lines
 * waiting for a record at its end...), {@link offer} says no: the input is to be read in order from
 * {@link restartAt} on (the joiner keeps counting splits: {@link observe} each group read).
 */
export class PartJoiner<P extends GroupedPart> {
  private readonly window: number;
  private readonly passed: KeyWindow;
  private held: P[] = [];
  /** Records started in the held parts. */
  private heldStarts = 0;
  /** Records passed on before they were whole (their lines were not together). */
  splits = 0;

  constructor(window: number) {
    this.window = Math.max(1, window);
    this.passed = new KeyWindow(this.window);
  }

  /** Offers the next part (`last`: it ends the input). False when it could have been grouped otherwise. */
  offer(part: P, last: boolean): boolean {
    if (!this.fits(part, last)) return false;
    this.held.push(part);
    this.heldStarts += starts(part);
    return true;
  }

  /** The held parts no later line can change, in order: each is passed on (its splits counted). */
  sealed(): P[] {
    const out: P[] = [];
    while (this.held.length && this.heldStarts - starts(this.held[0]!) >= this.window) out.push(this.pass());
    return out;
  }

  /** Every held part, in order (the input ended). */
  flush(): P[] {
    const out: P[] = [];
    while (this.held.length) out.push(this.pass());
    return out;
  }

  /**
   * Where to read the input in order from, instead of the part refused (or the rest, not cut, from `offset`): the
   * first held part's start (its records could be joined), else `offset`. The held parts are dropped.
   */
  restartAt(offset: number): number {
    const at = this.held[0]?.start ?? offset;
    this.held = [];
    this.heldStarts = 0;
    return at;
  }

  /** A group read in order (after {@link restartAt}): counts it as a split record when it is one. */
  observe(key: string | undefined): void {
    if (key !== undefined && this.passed.start(key)) this.splits++;
  }

  private pass(): P {
    const part = this.held.shift()!;
    this.heldStarts -= starts(part);
    for (const key of part.keys) this.observe(key);
    for (const [key, labels] of part.boundary.openBlanks) this.passed.blanks.set(key, labels);
    return part;
  }

  /** Whether the part, grouped afresh, was grouped as the whole input is, after the parts before it. */
  private fits(part: P, last: boolean): boolean {
    const b = part.boundary;
    if (!last && b.waiting > 0) return false;
    // The records open where the part starts, and the blank nodes they own: of the parts passed on and held.
    const open = [...this.passed.open];
    const owned = new Map(this.passed.blanks);
    for (const held of this.held) {
      for (const key of held.keys) if (key !== undefined) open.push(key);
      for (const [key, labels] of held.boundary.openBlanks) owned.set(key, labels);
    }
    const before = open.slice(-this.window);
    if (before.length === 0) return true;
    if (!b.startsWithRecord || b.otherEarly) return false;
    // The j-th record the part starts is, in the whole input, one of those still open when it comes: joined to it.
    let j = 0;
    for (const key of part.keys) {
      if (key === undefined) continue;
      const retired = Math.max(0, before.length + j - this.window);
      if (retired >= before.length) break;
      if (before.indexOf(key, retired) >= 0) return false;
      j++;
    }
    if (b.earlyBlanks.length) {
      const labels = new Set(before.flatMap((key) => owned.get(key) ?? []));
      if (b.earlyBlanks.some((l) => labels.has(l))) return false;
    }
    return true;
  }
}

function starts(part: GroupedPart): number {
  let n = 0;
  for (const key of part.keys) if (key !== undefined) n++;
  return n;
}
