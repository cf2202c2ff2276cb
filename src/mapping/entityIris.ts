import type * as RDF from '@rdfjs/types';
import { HashedNamedNodeTerm } from '../rdf/dataFactory.js';
import { DOI_RESOLVER, ISSN_RESOLVER, ISSN_URN, ORCID_HTTP_RESOLVER, ORCID_RESOLVER } from '../rdf/namespaces.js';
import { hashText } from '../rdf/textHash.js';
import { encodeIriPath, encodeIriSegment } from './iri.js';

/** A prefix of IRIs with its text's hash (`hashText`'s lanes). */
interface HashedPrefix {
  readonly text: string;
  readonly a: number;
  readonly b: number;
  /** Every IRI of the prefix is a shared entity's ({@link isSharedEntityIri}, whatever the suffix the mapper gives). */
  readonly entity: boolean;
  /** The prefix is ASCII. */
  readonly ascii: boolean;
}

const scratch = new Uint32Array(2);

/** An ASCII text (before the prefixes below are made: they are tested with it). */
const ASCII = /^[\u0000-\u007F]*$/;

function hashedPrefix(text: string, entity: boolean): HashedPrefix {
  hashText(text, scratch, 0);
  return { text, a: scratch[0]!, b: scratch[1]!, entity, ascii: ASCII.test(text) };
}

/** The prefixes of the shared entities' IRIs under one base, hashed once a run (the last base's kept). */
class BasePrefixes {
  readonly journal: HashedPrefix;
  readonly series: HashedPrefix;
  readonly issn: HashedPrefix;
  readonly periodical: HashedPrefix;
  readonly isbn: HashedPrefix;
  readonly publisher: HashedPrefix;
  readonly discipline: HashedPrefix;
  constructor(readonly base: string) {
    // `<base>journal/<segment>` is a shared entity's IRI (`/journal/`, no `#` after it: segments are encoded) when
    // the base ends with `/`; a base that does not leaves the test of the IRI to be made
    const entity = base.endsWith('/');
    this.journal = hashedPrefix(`${base}journal/`, entity);
    this.series = hashedPrefix(`${base}series/`, entity);
    this.issn = hashedPrefix(`${base}issn/`, entity);
    this.periodical = hashedPrefix(`${base}periodical/`, entity);
    this.isbn = hashedPrefix(`${base}isbn/`, entity);
    this.publisher = hashedPrefix(`${base}publisher/`, entity);
    this.discipline = hashedPrefix(`${base}discipline/`, entity);
  }
}

let lastPrefixes: BasePrefixes | undefined;

function prefixesOf(base: string): BasePrefixes {
  if (lastPrefixes?.base !== base) lastPrefixes = new BasePrefixes(base);
  return lastPrefixes;
}

const ORCID = hashedPrefix(ORCID_RESOLVER, true);
const ORCID_HTTP = hashedPrefix(ORCID_HTTP_RESOLVER, false);
const ISSN_PORTAL = hashedPrefix(ISSN_RESOLVER, false);
const ISSN_NAME = hashedPrefix(ISSN_URN, false);

/** How many IRIs {@link EntityIris} keeps with their hashes (a journal, its name's IRI, two ISSNs' two IRIs, ...). */
const RECENT = 8;

/**
 * The last {@link RECENT} IRIs of shared entities made (by any {@link EntityIris} of this thread: one a record), and
 * their hashes' lanes (two each): a ring. A hash is its IRI's text's, whichever record made it.
 */
const recent: (string | undefined)[] = new Array<string | undefined>(RECENT).fill(undefined);
const lanes = new Uint32Array(2 * RECENT);
/** Whether each is a shared entity's IRI (`HashedPrefix.entity`): 1 or 0. */
const entities = new Uint8Array(RECENT);
/** Whether each is ASCII, as the mapper knows (`NamedNodeTerm.ascii`): 1 or 0. */
const asciis = new Uint8Array(RECENT);
let next = 0;

/** Where `iri` is kept among the recent ones (the newest first), or -1. */
function slotOf(iri: string): number {
  for (let k = 1; k <= RECENT; k++) {
    const i = (next - k) & (RECENT - 1);
    if (recent[i] === iri) return i;
  }
  return -1;
}

/**
 * `text + suffix`, kept with its hash: `suffix`'s continued from the lanes `a` and `b` of `text`; `ascii`: the IRI is
 * ASCII.
 */
function hashed(text: string, a: number, b: number, suffix: string, entity: boolean, ascii: boolean): string {
  const iri = text + suffix;
  const i = next;
  next = (i + 1) & (RECENT - 1);
  recent[i] = iri;
  entities[i] = entity ? 1 : 0;
  asciis[i] = ascii ? 1 : 0;
  hashText(suffix, lanes, 2 * i, a, b);
  return iri;
}

/**
 * {@link hashed} after a prefix; `asciiSuffix`: the suffix is ASCII (a verified ORCID iD, ISSN or ISBN), else it is
 * tested.
 */
function after(prefix: HashedPrefix, suffix: string, asciiSuffix = false): string {
  const ascii = prefix.ascii && (asciiSuffix || ASCII.test(suffix));
  return hashed(prefix.text, prefix.a, prefix.b, suffix, prefix.entity, ascii);
}

/**
 * `iri + middle + suffix`, hashed when `iri` is one of the recent IRIs (else not kept); a shared entity's when `iri`
 * is (`middle` and `suffix` hold no `#`).
 */
function below(iri: string, middle: string, suffix: string): string {
  const i = slotOf(iri);
  if (i < 0) return iri + middle + suffix;
  hashText(middle, scratch, 0, lanes[2 * i], lanes[2 * i + 1]);
  const ascii = asciis[i] === 1 && ASCII.test(middle) && ASCII.test(suffix);
  return hashed(iri + middle, scratch[0]!, scratch[1]!, suffix, entities[i] === 1, ascii);
}

/**
 * The IRIs of the nodes the mapper writes. Entities that are the same thing in
 * the world whatever record names them (a journal, its volumes and issues, a
 * book, a book series, a publisher, a person with an ORCID iD, a discipline)
 * get one IRI from their identifier; what only a record knows (a person
 * without an ORCID iD, a file, a conference, the cells of the author list)
 * gets an IRI under the record's DOI, from its content, never its position.
 * See docs/mapping.md, *Identity*.
 */
export class EntityIris {
  private readonly prefixes: BasePrefixes;

  /** @param base Base of the minted IRIs (ends with `/`). */
  constructor(readonly base: string) {
    this.prefixes = prefixesOf(base);
  }

  /**
   * The node of `iri`, one of the last few shared entities' IRIs made, with its text's hash
   * ({@link HashedNamedNodeTerm}, the toolkit's own term); undefined when it is not one of them.
   */
  hashedNode(iri: string, minted: boolean): RDF.NamedNode | undefined {
    const i = slotOf(iri);
    return i < 0
      ? undefined
      : new HashedNamedNodeTerm(iri, minted, lanes[2 * i]!, lanes[2 * i + 1]!, entities[i] === 1, asciis[i] === 1);
  }

  /** The work: `https://doi.org/<doi>`. */
  work(doi: string): string {
    return DOI_RESOLVER + encodeIriPath(doi);
  }

  /** A node only this record knows: `<base>doi/<doi>#<local>`. */
  owned(doi: string, local: string): string {
    this.ownedPrefix(doi);
    return this.lastOwnedPrefix + local;
  }

  /**
   * Whether the IRIs of {@link owned} are ASCII when their local name is (the base and the DOI are): a local name
   * of a hash's hex digits, or an ASCII name's slug ({@link isAsciiName}).
   */
  ownedAscii(doi: string): boolean {
    this.ownedPrefix(doi);
    return this.lastOwnedAscii;
  }

  private ownedPrefix(doi: string): void {
    if (doi !== this.lastDoi) {
      this.lastDoi = doi;
      this.lastOwnedPrefix = `${this.base}doi/${encodeIriPath(doi)}#`;
      this.lastOwnedAscii = ASCII.test(this.lastOwnedPrefix);
    }
  }

  /** The prefix of the last record's own nodes (a record names many), and whether it is ASCII. */
  private lastDoi: string | undefined;
  private lastOwnedPrefix = '';
  private lastOwnedAscii = false;

  /** A journal by the service's journal id. */
  journalById(journalId: string): string {
    return after(this.prefixes.journal, encodeIriSegment(journalId));
  }

  /** A book series by the service's id. */
  seriesById(seriesId: string): string {
    return after(this.prefixes.series, encodeIriSegment(seriesId));
  }

  /** A continuing resource (journal or book series) by a verified ISSN (`1234-5679`). */
  byIssn(issn: string): string {
    return after(this.prefixes.issn, issn, true);
  }

  /**
   * A journal known by nothing but its name and publisher: `<base>periodical/<publisher>/<name>`, both
   * normalised as {@link slug} (case, accents, punctuation). Undefined when either has no letter or digit.
   */
  journalByName(publisher: string, name: string): string | undefined {
    const p = slugSegment(publisher);
    const n = slugSegment(name);
    if (!(p && n)) return undefined;
    const { text, a, b, entity, ascii } = this.prefixes.periodical;
    hashText(`${p}/`, scratch, 0, a, b);
    return hashed(`${text}${p}/`, scratch[0]!, scratch[1]!, n, entity, ascii && ASCII.test(p) && ASCII.test(n));
  }

  /** A book by its verified ISBN-13 (13 digits). */
  book(isbn13: string): string {
    return after(this.prefixes.isbn, isbn13, true);
  }

  /** A volume of a shared journal or series: `<container>/volume/<number>`. */
  volume(container: string, volume: string): string {
    return below(container, '/volume/', encodeIriSegment(volume));
  }

  /** An issue of a volume of a shared journal: `<volume>/issue/<number>`. */
  issue(container: string, issue: string): string {
    return below(container, '/issue/', encodeIriSegment(issue));
  }

  /** A publisher by its name, normalised ({@link slug}): `Springer` and `SPRINGER ` are one organisation. */
  publisher(name: string): string {
    return after(this.prefixes.publisher, slugSegment(name) || encodeIriSegment(name.toLowerCase()));
  }

  /** A person by a verified ORCID iD: the iD's own IRI, the one every other source uses. */
  orcid(orcid: string): string {
    return after(ORCID, orcid, true);
  }

  /** A person's ORCID iD as `http://orcid.org/<iD>` (the form some sources use: `owl:sameAs`). */
  orcidHttp(orcid: string): string {
    return after(ORCID_HTTP, orcid, true);
  }

  /** A verified ISSN's record at the ISSN Portal (`schema:sameAs` of its journal). */
  issnPortal(issn: string): string {
    return after(ISSN_PORTAL, issn, true);
  }

  /** A verified ISSN's URN, `urn:issn:<ISSN>` (`owl:sameAs` of its journal). */
  issnUrn(issn: string): string {
    return after(ISSN_NAME, issn, true);
  }

  /** A discipline of the service's scheme, by its id. */
  discipline(id: string): string {
    return after(this.prefixes.discipline, encodeIriSegment(id));
  }

  /** The scheme the service's disciplines belong to. */
  disciplineScheme(): string {
    return after(this.prefixes.discipline, '');
  }
}

const SHARED_ENTITY = /\/(journal|periodical|issn|isbn|series|publisher|discipline)\/[^#]*$/;

/**
 * Whether an IRI names an entity many records may name (an ORCID person, a
 * journal and its volumes and issues, a book, a series, a publisher, a
 * discipline), whatever the base: such an entity's triples are written with
 * every record that names it, so a dump repeats them.
 */
export function isSharedEntityIri(iri: string): boolean {
  return iri.startsWith(ORCID_RESOLVER) || SHARED_ENTITY.test(iri);
}

/**
 * A name reduced to what identifies it: compatibility-decomposed, marks
 * removed, lower case, every run of characters other than letters and digits
 * one `-` (`Müller, J.-P.` → `muller-j-p`). Empty when the name has no letter
 * or digit.
 */
export function slug(name: string): string {
  // ASCII names (most) need neither decomposition, mark removal nor Unicode classes.
  if (ASCII.test(name)) return trimDashes(name.toLowerCase().replace(NOT_ALNUM_ASCII, '-'));
  const base = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  return trimDashes(base.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-'));
}

/**
 * {@link slug} as an IRI path segment (`encodeIriSegment`): the slug of an
 * ASCII name is letters, digits and `-` only, which stand as they are.
 */
export function slugSegment(name: string): string {
  let segment = segments.get(name);
  if (segment === undefined) {
    const s = slug(name);
    segment = ASCII.test(name) ? s : encodeIriSegment(s);
    // Names recur from record to record (an author's papers): the last few thousand are kept.
    if (segments.size >= SEGMENT_CACHE_LIMIT) segments.clear();
    segments.set(name, segment);
  }
  return segment;
}

const SEGMENT_CACHE_LIMIT = 4096;
const segments = new Map<string, string>();

function trimDashes(s: string): string {
  const start = s.charCodeAt(0) === 45 ? 1 : 0;
  const end = s.length > start && s.charCodeAt(s.length - 1) === 45 ? s.length - 1 : s.length;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Whether a text is ASCII (a name whose {@link slugSegment} is letters, digits and `-`; an IRI's local name). */
export function isAsciiName(text: string): boolean {
  return ASCII.test(text);
}
const NOT_ALNUM_ASCII = /[^a-z0-9]+/g;

/**
 * Twelve hex digits (48 bits) of a fast non-cryptographic hash of a text
 * (two multiplicative 32-bit lanes over its UTF-16 code units): a name from
 * content for nodes that have no identifier. Such names only need to differ
 * within one record (they sit under the record's DOI), and the same text
 * always gives the same name.
 */
export function contentHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // The low 16 bits of h2 and the 32 of h1 as 4 + 8 lower-case hex digits (one string made, not five).
  return String.fromCharCode(
    hexDigit(h2, 12),
    hexDigit(h2, 8),
    hexDigit(h2, 4),
    hexDigit(h2, 0),
    hexDigit(h1, 28),
    hexDigit(h1, 24),
    hexDigit(h1, 20),
    hexDigit(h1, 16),
    hexDigit(h1, 12),
    hexDigit(h1, 8),
    hexDigit(h1, 4),
    hexDigit(h1, 0),
  );
}

/** The character code of the hex digit of `n` at bit `shift`. */
function hexDigit(n: number, shift: number): number {
  const d = (n >>> shift) & 15;
  return d < 10 ? 48 + d : 87 + d;
}
