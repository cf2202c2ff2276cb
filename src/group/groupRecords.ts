import type * as RDF from '@rdfjs/types';
import { detachedString } from '../rdf/detached.js';

/** The quads of one record: its work and the nodes it owns; or a group of other quads. */
export interface RecordGroup {
  /** The record's DOI as it appears in its IRIs (percent-encoded), or `undefined` for quads of no record (e.g. the dataset description). */
  key: string | undefined;
  quads: RDF.Quad[];
}

/** Options of {@link groupRecords}. */
export interface GroupRecordsOptions {
  /**
   * How many records may be open at once: a record is complete when this many
   * newer records have started (or the input ends). Defaults to 4.
   */
  window?: number;
  /** Quads of no record are passed on in groups of at most this many. Defaults to 10,000. */
  maxOtherQuads?: number;
  /** Called when quads of a record arrive after the record was passed on (its quads were not together in the input). Defaults to none. */
  onSplitRecord?: (key: string) => void;
  /**
   * Remember which record each blank node belongs to for the whole input, not
   * only while the record is open: for {@link regroupRecords}, whose input may
   * put a blank node's quads far after its record's (a sorted dump). Memory
   * then grows with the number of blank nodes. Defaults to false.
   */
  keepBlankOwners?: boolean;
}

const DOI_RESOLVER = 'https://doi.org/';
/** What a node a record owns has before its DOI (`<base>doi/10.…#<local>`). */
const OWNED_DOI = '/doi/10.';
/** The dataset description export writes: `<base>dump/<hash>` and its `#export`, `#distribution`, `#class-N`. */
const DESCRIPTION_NODE = /\/dump\/[^/#?]+(#[^#]*)?$/;

/**
 * The record a subject belongs to: `https://doi.org/<doi>` (the work) and
 * `<base>doi/<doi>#<local>` (the nodes it owns, any base) give the DOI as
 * written in the IRI; anything else gives `undefined`.
 */
export function recordKeyOf(subject: RDF.Term): string | undefined {
  return subject.termType === 'NamedNode' ? recordKeyOfIri(subject.value) : undefined;
}

/** {@link recordKeyOf} of a subject IRI. */
export function recordKeyOfIri(iri: string): string | undefined {
  if (iri.startsWith(DOI_RESOLVER)) {
    const hash = iri.indexOf('#');
    return hash < 0 ? iri.slice(DOI_RESOLVER.length) : iri.slice(DOI_RESOLVER.length, hash);
  }
  return ownedNodeKey(iri);
}

/**
 * The DOI of a node a record owns: from the first `/doi/10.` followed by at least one character and a `#` (as
 * `/\/doi\/(10\.[^#]+)#/` finds it, without a match made for each IRI), up to that `#`.
 */
function ownedNodeKey(iri: string): string | undefined {
  for (let at = iri.indexOf(OWNED_DOI); at >= 0; at = iri.indexOf(OWNED_DOI, at + 1)) {
    const from = at + OWNED_DOI.length - 3; // the DOI's "10."
    const hash = iri.indexOf('#', from + 3);
    if (hash < 0) return undefined;
    if (hash > from + 3) return iri.slice(from, hash);
  }
  return undefined;
}

const RECORD_GRAPH = /\/record\/(10\.[^#?]+)$/;

/**
 * The record whose named graph a quad is in (`--graph-per-record`:
 * `<base>record/<doi>`, any base), as {@link recordKeyOfIri} writes it, or
 * `undefined` for any other graph. A record graph holds the record whole,
 * its shared nodes included: its quads belong to it wherever they stand (in
 * a sorted dump too).
 */
export function recordKeyOfGraph(graph: RDF.Term): string | undefined {
  return graph.termType === 'NamedNode' ? recordKeyOfGraphIri(graph.value) : undefined;
}

/** {@link recordKeyOfGraph} of a graph IRI. */
export function recordKeyOfGraphIri(iri: string): string | undefined {
  return RECORD_GRAPH.exec(iri)?.[1];
}

/**
 * Whether a subject IRI is of the dataset description (`<base>dump/<hash>`,
 * `<base>dump/<hash>#export`, ...): it belongs to no record whatever comes
 * around it. `export` appends the description to an N-Quads dump, after the
 * last record.
 */
export function isDescriptionIri(iri: string): boolean {
  // (The regular expression only where it may match: most IRIs of no record are shared nodes.)
  return iri.includes('/dump/') && DESCRIPTION_NODE.test(iri);
}

/** A group of items (quads, lines, ...) of one record, or of no record (`key` undefined). */
export interface KeyedGroup<T> {
  key: string | undefined;
  items: T[];
}

/**
 * The grouping of {@link groupRecords}, item by item, for any kind of item
 * with a record key: {@link place} (or {@link add}) each item in input order,
 * then {@link end}; both return the groups they completed, oldest first.
 *
 * IRI subjects of no record (shared entities: a journal, a publisher, an
 * ORCID person, which every output writes among the triples of each record
 * that names them) belong to the record being read: the one of the last item
 * with a record, while its group is open. Only those before any record, or
 * after the dataset description (which ends the record being read), are items
 * of no record.
 *
 * Blank nodes: an item whose subject is a blank node belongs to the record
 * that has the blank node as an object. Items of a blank node no record has
 * referred to yet wait (at most `maxOtherQuads` of them) for one that does:
 * Turtle's `( ... )` and `[ ... ]` put a list's or a node's triples before the
 * triple that refers to it. Those that no record claims go with the items of
 * no record.
 */
export class RecordGrouper<T> {
  private readonly window: number;
  private readonly maxOther: number;
  private readonly open = new Map<string, T[]>();
  private other: T[] = [];
  /** Keys recently passed on, to notice split records (bounded). */
  private readonly done = new RecentKeys();
  /** Blank nodes that are objects of a record's items: their items belong to that record. */
  private readonly blankOwner = new Map<string, string>();
  private readonly blanksOf = new Map<string, string[]>();
  /** Items of blank nodes no record has claimed yet, by label, with the blank nodes they refer to. */
  private pending = new Map<string, { items: T[]; order: number[]; objects: string[] }>();
  private pendingItems = 0;
  /** The key of the last item placed with a record. */
  private current: string | undefined;
  /** The open group of {@link current} (undefined once passed on): the next item of that record is added to it without a look-up. */
  private currentItems: T[] | undefined;
  /** Input position of waiting items, so that unclaimed ones go on in input order. */
  private sequence = 0;
  /** Groups of a record started so far (each new key, or a key again after it was passed on). */
  started = 0;

  constructor(private readonly options: GroupRecordsOptions = {}) {
    this.window = Math.max(1, options.window ?? 4);
    this.maxOther = Math.max(1, options.maxOtherQuads ?? 10_000);
  }

  /**
   * Places an item: with the record `key` (from its subject IRI), else with
   * the record that refers to its blank-node subject (`subjectBlank`, a
   * label), else (an IRI subject of no record: a shared journal, publisher,
   * ORCID person ...) with the record being read; `objectBlank` is the label
   * of its object when that is a blank node. `description`: the subject is of
   * the dataset description ({@link isDescriptionIri}), which belongs to no
   * record and ends the record being read: it and the items of no record
   * after it (until the next record) form groups of no record.
   */
  place(
    item: T,
    key: string | undefined,
    subjectBlank?: string,
    objectBlank?: string,
    description = false,
  ): readonly KeyedGroup<T>[] {
    if (description && key === undefined) this.current = this.currentItems = undefined;
    const owner = key ?? (subjectBlank === undefined ? this.currentRecord() : this.blankOwner.get(subjectBlank));
    if (owner === undefined && subjectBlank !== undefined) {
      // Not claimed yet: it waits for the item that refers to it.
      let p = this.pending.get(subjectBlank);
      if (!p) this.pending.set(detachedString(subjectBlank), (p = { items: [], order: [], objects: [] }));
      p.items.push(item);
      p.order.push(this.sequence++);
      if (objectBlank !== undefined) p.objects.push(detachedString(objectBlank));
      if (++this.pendingItems <= this.maxOther) return NONE;
      return this.releasePending();
    }
    const out = this.add(owner, item);
    if (owner !== undefined && objectBlank !== undefined) this.claim(objectBlank, owner);
    return out;
  }

  /**
   * The record being read: the one of the last item with a record key, while
   * its group is open. An IRI subject of no record (a journal, a publisher, an
   * ORCID person: entities many records name) belongs to the record whose
   * items it comes among, as every output of this toolkit writes them.
   */
  private currentRecord(): string | undefined {
    return this.currentItems === undefined ? undefined : this.current;
  }

  /** The record a blank node belongs to, when one has claimed it. */
  ownerOf(label: string): string | undefined {
    return this.blankOwner.get(label);
  }

  /** Gives a blank node (and the blank nodes its waiting items refer to) to a record whose group is open. */
  private claim(label: string, owner: string): void {
    const stack = [label];
    while (stack.length) {
      const next = stack.pop()!;
      if (this.blankOwner.has(next)) continue;
      const kept = detachedString(next);
      this.blankOwner.set(kept, owner);
      const labels = this.blanksOf.get(owner);
      if (labels) labels.push(kept);
      else this.blanksOf.set(owner, [kept]);
      const waiting = this.pending.get(next);
      if (!waiting) continue;
      this.pending.delete(next);
      this.pendingItems -= waiting.items.length;
      this.open.get(owner)?.push(...waiting.items);
      stack.push(...waiting.objects);
    }
  }

  /** The waiting items, to the items of no record (too many waited, or the input ended). */
  private releasePending(): KeyedGroup<T>[] {
    const out: KeyedGroup<T>[] = [];
    const waiting: [number, T][] = [];
    for (const { items, order } of this.pending.values()) items.forEach((item, i) => waiting.push([order[i]!, item]));
    waiting.sort((a, b) => a[0] - b[0]);
    for (const [, item] of waiting) out.push(...this.add(undefined, item));
    this.pending = new Map();
    this.pendingItems = 0;
    return out;
  }

  /** Adds an item of the record `key` (undefined: of no record). */
  add(key: string | undefined, item: T): readonly KeyedGroup<T>[] {
    if (key === undefined) {
      this.other.push(item);
      if (this.other.length < this.maxOther) return NONE;
      const full = this.other;
      this.other = [];
      return [{ key: undefined, items: full }];
    }
    if (key === this.current && this.currentItems) {
      this.currentItems.push(item);
      return NONE;
    }
    this.current = key;
    const group = this.open.get(key);
    if (group) {
      group.push(item);
      this.currentItems = group;
      return NONE;
    }
    // A new record: the oldest open ones are complete when the window is full.
    if (this.done.delete(key)) this.options.onSplitRecord?.(key);
    const out: KeyedGroup<T>[] = [];
    while (this.open.size >= this.window) {
      const [oldest, items] = this.open.entries().next().value as [string, T[]];
      this.open.delete(oldest);
      this.retire(oldest);
      out.push({ key: oldest, items });
    }
    const items = [item];
    this.open.set(key, items);
    this.currentItems = items;
    this.started++;
    return out;
  }

  /** Items that wait (blank nodes no record has claimed) or are held as items of no record: what {@link end} would pass on besides the open records. */
  get waiting(): number {
    return this.pendingItems + this.other.length;
  }

  /** The blank-node labels the open records own, by record (those that own some). */
  openBlankLabels(): [string, string[]][] {
    const out: [string, string[]][] = [];
    for (const key of this.open.keys()) {
      const labels = this.blanksOf.get(key);
      if (labels?.length) out.push([key, [...labels]]);
    }
    return out;
  }

  /** The groups still open, at the end of the input. */
  end(): KeyedGroup<T>[] {
    const out: KeyedGroup<T>[] = this.releasePending();
    for (const [key, items] of this.open) {
      this.retire(key);
      out.push({ key, items });
    }
    this.open.clear();
    this.currentItems = undefined;
    if (this.other.length) out.push({ key: undefined, items: this.other });
    this.other = [];
    return out;
  }

  private retire(key: string): void {
    // With keepBlankOwners (--regroup), a blank node keeps its record after the record is passed on:
    // its items may come much later (a sorted dump puts every _: line after the IRI lines).
    if (!this.options.keepBlankOwners) {
      for (const label of this.blanksOf.get(key) ?? NONE) this.blankOwner.delete(label);
      this.blanksOf.delete(key);
    }
    // A key is a slice of a subject IRI, itself often a slice of the parser's whole
    // input chunk: kept as it is, each remembered key would keep a chunk alive.
    this.done.add(detachedString(key));
  }
}

/** Keys of records passed on that are remembered to notice a split record. */
const DONE_LIMIT = 10_000;

/**
 * The keys of the last {@link DONE_LIMIT} records passed on (a key deleted and added again counts from then), to
 * notice a split record: of {@link RecordGrouper}, and of `PartJoiner`, which must count the same.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();
  /**
   * The oldest key: one iterator kept over the set, which skips what was deleted and reaches what was added since
   * in their order. (A new iterator each time, `keys.values().next()`, walked over every key deleted before it
   * since the set was last rebuilt: 15 µs a record past the 10,000th, 1.3 s of validating 100k records.)
   */
  private readonly oldest = this.keys.values();

  /** Forgets the key; whether it was there. */
  delete(key: string): boolean {
    return this.keys.delete(key);
  }

  /** Remembers the key (as the newest, unless it is there), forgetting the oldest beyond the limit. */
  add(key: string): void {
    this.keys.add(key);
    if (this.keys.size > DONE_LIMIT) this.keys.delete(this.oldest.next().value as string);
  }
}
const NONE: readonly never[] = [];

/**
 * Groups a stream of quads record by record (by their record graph,
 * {@link recordKeyOfGraph}, else {@link recordKeyOf} of each subject), so that a dump of millions of records is validated with the memory
 * of a few records. The quads of a record must come together, within a window
 * of a few records, as every output of this toolkit writes them (shared nodes
 * among the quads of each record that names them: see {@link RecordGrouper});
 * a record whose quads come later (e.g. a sorted N-Triples file) is reported
 * to `onSplitRecord` and validated in pieces.
 */
export async function* groupRecords(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  options: GroupRecordsOptions = {},
): AsyncGenerator<RecordGroup, void, undefined> {
  const grouper = new RecordGrouper<RDF.Quad>(options);
  for await (const quad of quads) {
    const key = recordKeyOfGraph(quad.graph) ?? recordKeyOf(quad.subject);
    const groups = grouper.place(
      quad,
      key,
      quad.subject.termType === 'BlankNode' ? quad.subject.value : undefined,
      quad.object.termType === 'BlankNode' ? quad.object.value : undefined,
      key === undefined && quad.subject.termType === 'NamedNode' && isDescriptionIri(quad.subject.value),
    );
    for (const g of groups) yield { key: g.key, quads: g.items };
  }
  for (const g of grouper.end()) yield { key: g.key, quads: g.items };
}
