import type * as RDF from '@rdfjs/types';
import { NS } from '../rdf/namespaces.js';
import { cleanedText } from '../record/cleanText.js';
import { orcidCheckCharacter } from '../record/orcid.js';
import type { Creator } from '../record/types.js';
import { type EntityIris, contentHash, isAsciiName, slug, slugSegment } from './entityIris.js';
import type { RecordTriples } from './RecordTriples.js';

/**
 * The authors of a work: `W schema:author P` for each, in the order of the
 * record also as `W bibo:authorList` (an RDF list). A person with a verified
 * ORCID iD is `https://orcid.org/<iD>`, the same node in every record; one
 * without is `<base>doi/<doi>#author-<name>` (a second author of the same
 * name in the record `~2`, ...), so inserting or reordering authors changes
 * no identity. The list's cells are named by the authors from that cell to
 * the end (a hash): two versions of a record share a cell only where they
 * share the rest of the list, so a union of both is two lists, never a tangle.
 */
export function mapCreators(
  t: RecordTriples,
  creators: readonly Creator[],
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
): void {
  if (creators.length === 0) return;
  const members: Member[] = [];
  // ORCID IRIs listed (made for the first); a person without one is listed under a name no other creator of the
  // record has.
  let listed: Set<string> | undefined;
  const homonyms = new Map<string, number>();
  const conflicting = conflictingOrcids(creators);
  for (let i = 0; i < creators.length; i++) {
    const original = creators[i]!;
    let creator = original;
    if (creator.orcid && conflicting?.has(creator.orcid)) {
      // One iD on two differently named creators: which one it belongs to is unknown; linking either could be false.
      t.note(
        `creators[${i}].ORCID: "${creator.orcid}" is given to creators of different names in this record; kept as an identifier only, not linked to orcid.org`,
      );
      creator = { name: creator.name, orcidRaw: creator.orcid };
    }
    let iri: string;
    // a person without an ORCID iD: `author-` and the slug of an ASCII name is ASCII
    let ascii = false;
    if (creator.orcid) {
      iri = iris.orcid(creator.orcid);
      listed ??= new Set();
      if (listed.has(iri)) {
        t.note(`creators[${i}]: the same person (ORCID iD ${creator.orcid}) again; listed once`);
        continue;
      }
      listed.add(iri);
      t.identities.orcids.push([creator.orcid, creator.name]);
    } else {
      const key = slugSegment(creator.name || creator.orcidRaw || '') || 'unnamed';
      const n = (homonyms.get(key) ?? 0) + 1;
      homonyms.set(key, n);
      iri = iris.owned(doi, `author-${key}${n > 1 ? `~${n}` : ''}`);
      ascii = iris.ownedAscii(doi) && isAsciiName(key);
    }
    const person = creator.orcid ? t.sharedIri(iri, iris) : t.ownIri(iri, ascii);
    members.push({ key: memberKey(iri), node: person });
    t.add(work, t.schema('author'), person);
    describePerson(t, iris, person, creator, original, i);
  }
  addAuthorList(t, iris, doi, work, members);
  addAuthorships(t, iris, doi, work, members);
}

/**
 * Author order by number (dblp's signature ordinal): `W sr:authorship A` for each author, `A a schema:ListItem;
 * schema:position n` (1..n, `xsd:integer`) `; schema:item P`. The authorship is named by its person (a hash, as
 * the list cells), never by its position: "the third author of W" is `?w sr:authorship [schema:position 3;
 * schema:item ?p]`, no list walk.
 */
function addAuthorships(
  t: RecordTriples,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
  members: readonly Member[],
): void {
  const authorship = t.sr('authorship');
  const listItem = t.schema('ListItem');
  const position = t.schema('position');
  const item = t.schema('item');
  // `authorship-` and a hash's hex digits
  const ascii = iris.ownedAscii(doi);
  for (let i = 0; i < members.length; i++) {
    const member = members[i]!;
    const node = t.ownIri(iris.owned(doi, authorshipLocal(member.key)), ascii);
    t.add(work, authorship, node);
    t.type(node, listItem);
    t.add(node, position, t.integer(i + 1));
    t.add(node, item, member.node);
  }
}

/**
 * `authorship-<hash of the member's key>`. Hashed each time: a cache by key (16,384 members) cost more than the
 * hash of a key of a few dozen characters (339 against 200 ns an author, 78,248 authors of 20,000 generated
 * records in one process).
 */
function authorshipLocal(key: string): string {
  return `authorship-${contentHash(key)}`;
}

/** An author in the list: its {@link memberKey} and its node. */
interface Member {
  key: string;
  node: RDF.NamedNode;
}

/** What tells the members of one record apart: the part after '#' of its own nodes, the whole ORCID IRI. */
function memberKey(member: string): string {
  const hash = member.indexOf('#');
  return hash < 0 ? member : member.slice(hash);
}

/** A person's type, name (split into family and given name at a single comma) and ORCID iD or what was sent as one. */
function describePerson(
  t: RecordTriples,
  iris: EntityIris,
  person: RDF.NamedNode,
  creator: Creator,
  original: Creator,
  i: number,
): void {
  t.type(person, t.schema('Person'));
  if (creator.name) {
    t.add(person, t.schema('name'), t.str(creator.name));
    const comma = creator.name.indexOf(',');
    if (comma > 0 && comma === creator.name.lastIndexOf(',')) {
      const family = creator.name.slice(0, comma).trim();
      // What follows the comma may start with a combining mark: cleaned again (gives the mark a base).
      const given = cleanedText(creator.name.slice(comma + 1).trim()).trim();
      if (family && given) {
        t.add(person, t.schema('familyName'), t.str(family));
        t.add(person, t.schema('givenName'), t.str(given));
      }
    }
  }
  if (creator.orcid) {
    t.add(person, t.schema('identifier'), t.str(creator.orcid));
    // The iD's http form, the IRI Crossref's RDF names the person by.
    t.add(person, t.inNamespace(NS.owl, 'sameAs'), t.sharedIri(iris.orcidHttp(creator.orcid), iris));
  } else if (creator.orcidRaw !== undefined && creator.orcidRaw === original.orcid) {
    t.add(person, t.schema('identifier'), t.str(creator.orcidRaw));
  } else if (creator.orcidRaw) {
    t.add(person, t.schema('identifier'), t.str(creator.orcidRaw));
    const digits = /(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/.exec(creator.orcidRaw)?.[1]?.toUpperCase();
    const why = digits ? `has a wrong check character (expected ${orcidCheckCharacter(digits)})` : 'is not an ORCID iD';
    t.note(`creators[${i}].ORCID: "${creator.orcidRaw}" ${why}; kept as an identifier only, not linked to orcid.org`);
  }
}

/**
 * `W bibo:authorList` of the members (IRIs), an RDF list whose cells are
 * named from the last to the first: each by its member and the name of the
 * cell after it.
 */
function addAuthorList(
  t: RecordTriples,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
  members: readonly Member[],
): void {
  const cells: RDF.NamedNode[] = new Array(members.length);
  let rest = '';
  // `authors-` and a hash's hex digits
  const ascii = iris.ownedAscii(doi);
  for (let i = members.length - 1; i >= 0; i--) {
    rest = contentHash(`${members[i]!.key}\n${rest}`);
    cells[i] = t.ownIri(iris.owned(doi, `authors-${rest}`), ascii);
  }
  t.add(work, t.bibo('authorList'), cells[0]!);
  const first = t.inNamespace(NS.rdf, 'first');
  const restP = t.inNamespace(NS.rdf, 'rest');
  const nil = t.inNamespace(NS.rdf, 'nil');
  for (let i = 0; i < cells.length; i++) {
    t.add(cells[i]!, first, members[i]!.node);
    t.add(cells[i]!, restP, i + 1 < cells.length ? cells[i + 1]! : nil);
  }
}

/**
 * ORCID iDs the record gives to creators whose names differ (after normalisation): they identify nobody for sure.
 * Undefined when there are none (sets and maps are made only as far as the creators need them).
 */
function conflictingOrcids(creators: readonly Creator[]): Set<string> | undefined {
  let out: Set<string> | undefined;
  // The first creator of each iD; names are compared (slugs made) only for an iD given more than once.
  let first: Map<string, Creator> | undefined;
  let names: Map<string, string> | undefined;
  for (const c of creators) {
    if (!c.orcid) continue;
    first ??= new Map();
    const earlier = first.get(c.orcid);
    if (earlier === undefined) {
      first.set(c.orcid, c);
      continue;
    }
    names ??= new Map();
    let before = names.get(c.orcid);
    if (before === undefined) names.set(c.orcid, (before = slug(earlier.name)));
    const name = slug(c.name);
    if (before !== name && before !== '' && name !== '') (out ??= new Set()).add(c.orcid);
  }
  return out;
}
