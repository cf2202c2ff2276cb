import type * as RDF from '@rdfjs/types';
import { detachedString } from './detached.js';

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
}

const DOI_RESOLVER = 'https://doi.org/';
const OWNED_NODE = /\/doi\/(10\.[^#]+)#/;

/**
 * The record a subject belongs to: `https://doi.org/<doi>` (the work) and
 * `<base>doi/<doi>#<local>` (the nodes it owns, any base) give the DOI as
 * written in the IRI; anything else gives `undefined`.
 */
export function recordKeyOf(subject: RDF.Term): string | undefined {
  if (subject.termType !== 'NamedNode') return undefined;
  const iri = subject.value;
  if (iri.startsWith(DOI_RESOLVER)) {
    const hash = iri.indexOf('#');
    return hash < 0 ? iri.slice(DOI_RESOLVER.length) : iri.slice(DOI_RESOLVER.length, hash);
  }
  const m = OWNED_NODE.exec(iri);
  return m ? m[1] : undefined;
}

/**
 * Groups a stream of quads record by record (by {@link recordKeyOf} of each
 * subject), so that a dump of millions of records is validated with the memory
 * of a few records. The quads of a record must come together, within a window
 * of a few records, as every output of this toolkit writes them; a record whose
 * quads come later (e.g. a sorted N-Triples file) is reported to
 * `onSplitRecord` and validated in pieces.
 */
export async function* groupRecords(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  options: GroupRecordsOptions = {},
): AsyncGenerator<RecordGroup, void, undefined> {
  const window = Math.max(1, options.window ?? 4);
  const maxOther = Math.max(1, options.maxOtherQuads ?? 10_000);
  const open = new Map<string, RDF.Quad[]>();
  let other: RDF.Quad[] = [];
  // Keys recently passed on, to notice split records (bounded).
  const done = new Set<string>();
  const DONE_LIMIT = 10_000;
  const retire = (key: string) => {
    // A key is a slice of a subject IRI, itself often a slice of the parser's whole
    // input chunk: kept as it is, each remembered key would keep a chunk alive.
    done.add(detachedString(key));
    if (done.size > DONE_LIMIT) done.delete(done.values().next().value as string);
  };
  for await (const quad of quads) {
    const key = recordKeyOf(quad.subject);
    if (key === undefined) {
      other.push(quad);
      if (other.length >= maxOther) {
        yield { key: undefined, quads: other };
        other = [];
      }
      continue;
    }
    let group = open.get(key);
    if (!group) {
      if (done.has(key)) {
        done.delete(key);
        options.onSplitRecord?.(key);
      }
      while (open.size >= window) {
        const [oldest, oldQuads] = open.entries().next().value as [string, RDF.Quad[]];
        open.delete(oldest);
        retire(oldest);
        yield { key: oldest, quads: oldQuads };
      }
      group = [];
      open.set(key, group);
    }
    group.push(quad);
  }
  for (const [key, group] of open) {
    retire(key);
    yield { key, quads: group };
  }
  if (other.length) yield { key: undefined, quads: other };
}
