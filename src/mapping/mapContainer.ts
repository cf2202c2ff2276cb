import type * as RDF from '@rdfjs/types';
import { ISSN_URN, NS } from '../rdf/namespaces.js';
import type { ScholarlyRecord } from '../record/types.js';
import type { EntityIris } from './entityIris.js';
import { isbn10CheckDigit, isbn13CheckDigit, isbn13Form, issnCheckDigit, issnForm } from '../record/identifiers.js';
import type { RecordTriples } from './RecordTriples.js';
import type { ContainerKind, WorkKind } from './workKind.js';

/** The verified identifiers of a record's container; the ones that failed are kept on the work as sent. */
interface ContainerKeys {
  issn?: string;
  eIssn?: string;
  /** ISBN-13 forms, print first, without repeats. */
  isbns: string[];
}

/**
 * The container of a work: journal > volume > issue; the book of a chapter
 * (and its series); or, for a book, its series. Shared containers are named
 * by their identifiers (see {@link EntityIris}); a journal the record names
 * without any identifier stays the record's own node. Facts go where their
 * vocabulary's domain allows: `bibo:issue` on the issue (domain bibo:Issue),
 * `bibo:volume` on a document (the work, or a book), `schema:volumeNumber`
 * only on a `schema:PublicationVolume`.
 */
export function mapContainer(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
  kind: WorkKind,
  container: ContainerKind,
): void {
  const keys = readKeys(t, record, work);
  const name = record.publicationName ?? record.journalTitle;
  if (kind === 'book') {
    // The work is the book: the ISBNs and the volume number are its own; what contains it is its series.
    addIsbns(t, work, keys.isbns);
    if (record.volume) t.add(work, t.bibo('volume'), t.str(record.volume));
    const seriesName = name && name !== record.title ? name : undefined;
    const series = mapSeries(t, record, iris, doi, keys, seriesName);
    if (series) t.add(work, t.schema('isPartOf'), series);
    numberOnWork(t, record, work);
  } else if (kind === 'chapter' || container === 'book') {
    if (name || keys.isbns.length || record.volume || keys.issn || keys.eIssn || record.journalId) {
      const book = keys.isbns.length ? t.sharedIri(iris.book(keys.isbns[0]!), iris) : t.iri(iris.owned(doi, 'book'));
      t.add(work, t.schema('isPartOf'), book);
      t.type(book, t.schema('Book'), t.bibo('Book'));
      if (name) t.add(book, t.schema('name'), t.str(name));
      addIsbns(t, book, keys.isbns);
      // A book's number in its series: bibo:volume (domain bibo:Document), not schema:volumeNumber (PublicationVolume).
      if (record.volume) t.add(book, t.bibo('volume'), t.str(record.volume));
      const series = mapSeries(t, record, iris, doi, keys, undefined);
      if (series) t.add(book, t.schema('isPartOf'), series);
    }
    numberOnWork(t, record, work);
  } else {
    // ISBNs sent with a journal record (the service's book key set on a journal page) identify nothing of it.
    for (const field of ISBN_FIELDS) {
      const value = record[field];
      if (value && isbn13Form(value)) {
        t.add(work, t.sr(field), t.str(value));
        t.note(`${field}: "${value}" on a work in a journal identifies no journal; kept as sr:${field} on the work`);
      }
    }
    mapJournal(t, record, iris, doi, work, keys, name);
  }
  if (record.topicalCollection) t.add(work, t.sr('topicalCollection'), t.str(record.topicalCollection));
}

function mapJournal(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
  keys: ContainerKeys,
  name: string | undefined,
): void {
  const issnKey = keys.issn ?? keys.eIssn;
  // A journal named with its publisher can be found again by both, whatever other key a record carries.
  const house = record.publisher ?? record.publisherName;
  const nameIri = name && house ? iris.journalByName(house, name) : undefined;
  const sharedIri = record.journalId ? iris.journalById(record.journalId) : issnKey ? iris.byIssn(issnKey) : nameIri;
  let top: RDF.NamedNode | undefined;
  if (name || sharedIri) {
    top = sharedIri ? t.sharedIri(sharedIri, iris) : t.iri(iris.owned(doi, 'periodical'));
    t.type(top, t.schema('Periodical'), t.bibo('Journal'));
    if (name) t.add(top, t.schema('name'), t.str(name));
    addSerialKeys(t, iris, top, record, keys);
    // The journal's other keys in this record: one node under owl:sameAs whichever key another record carries.
    if (nameIri && nameIri !== sharedIri) t.add(top, t.inNamespace(NS.owl, 'sameAs'), t.sharedIri(nameIri, iris));
    if (sharedIri && name) t.identities.serial = { keys: serialKeys(sharedIri, keys, nameIri), name };
  }
  // Volumes and issues of a shared journal are shared too: one node for all the articles of an issue.
  // An issue number without a volume may repeat every year: such an issue stays the record's own.
  let path = record.volume ? sharedIri : undefined;
  if (record.volume) {
    path = path ? iris.volume(path, record.volume) : undefined;
    const volume = path ? t.sharedIri(path, iris) : t.iri(iris.owned(doi, 'volume'));
    t.type(volume, t.schema('PublicationVolume'));
    t.add(volume, t.schema('volumeNumber'), t.str(record.volume));
    if (top) t.add(volume, t.schema('isPartOf'), top);
    t.add(work, t.bibo('volume'), t.str(record.volume));
    top = volume;
  }
  if (record.number) {
    path = path ? iris.issue(path, record.number) : undefined;
    const issue = path ? t.sharedIri(path, iris) : t.iri(iris.owned(doi, 'issue'));
    t.type(issue, t.schema('PublicationIssue'), t.bibo('Issue'));
    t.add(issue, t.schema('issueNumber'), t.str(record.number));
    t.add(issue, t.bibo('issue'), t.str(record.number));
    if (record.issueType) t.add(issue, t.sr('issueType'), t.str(record.issueType));
    if (top) t.add(issue, t.schema('isPartOf'), top);
    top = issue;
  } else if (record.issueType) {
    t.add(work, t.sr('issueType'), t.str(record.issueType));
  }
  if (top) t.add(work, t.schema('isPartOf'), top);
}

/** The series of a book (by its id, else an ISSN, else the record's own node), when the record gives one. */
function mapSeries(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  keys: ContainerKeys,
  name: string | undefined,
): RDF.NamedNode | undefined {
  const issnKey = keys.issn ?? keys.eIssn;
  if (!(name || issnKey || record.journalId)) return undefined;
  const shared = record.journalId ? iris.seriesById(record.journalId) : issnKey ? iris.byIssn(issnKey) : undefined;
  const series = shared ? t.sharedIri(shared, iris) : t.iri(iris.owned(doi, 'series'));
  t.type(series, t.schema('BookSeries'), t.bibo('Series'));
  if (name) t.add(series, t.schema('name'), t.str(name));
  addSerialKeys(t, iris, series, record, keys);
  return series;
}

/**
 * A journal's or series' ISSNs (print `bibo:issn`, electronic `bibo:eissn`, both `schema:issn`, each linked to
 * the ISSN Portal, and `owl:sameAs` its URN `urn:issn:…`, the name every record and source gives it) and id.
 */
function addSerialKeys(
  t: RecordTriples,
  iris: EntityIris,
  node: RDF.NamedNode,
  record: ScholarlyRecord,
  keys: ContainerKeys,
): void {
  if (keys.issn) addIssn(t, iris, node, keys.issn, 'issn');
  if (keys.eIssn && keys.eIssn !== keys.issn) addIssn(t, iris, node, keys.eIssn, 'eissn');
  if (record.journalId) t.add(node, t.schema('identifier'), t.str(record.journalId));
}

/** The IRIs a journal is known by in a record: the one it is named by, its ISSNs' URNs, but not its name's (names are what is compared). */
function serialKeys(iri: string, keys: ContainerKeys, nameIri: string | undefined): string[] {
  const out = iri === nameIri ? [] : [iri];
  if (keys.issn) out.push(ISSN_URN + keys.issn);
  if (keys.eIssn && keys.eIssn !== keys.issn) out.push(ISSN_URN + keys.eIssn);
  return out;
}

function addIssn(
  t: RecordTriples,
  iris: EntityIris,
  node: RDF.NamedNode,
  issn: string,
  biboLocal: 'issn' | 'eissn',
): void {
  t.add(node, t.schema('issn'), t.str(issn));
  t.add(node, t.bibo(biboLocal), t.str(issn));
  t.add(node, t.schema('sameAs'), t.sharedIri(iris.issnPortal(issn), iris));
  t.add(node, t.inNamespace(NS.owl, 'sameAs'), t.sharedIri(iris.issnUrn(issn), iris));
}

function addIsbns(t: RecordTriples, node: RDF.NamedNode, isbns: readonly string[]): void {
  for (const isbn of isbns) {
    t.add(node, t.schema('isbn'), t.str(isbn));
    t.add(node, t.bibo('isbn'), t.str(isbn));
  }
}

/** In a book, the record's issue `number` is the work's own number (`bibo:number`: not an issue of a periodical). */
function numberOnWork(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode): void {
  if (record.number) t.add(work, t.bibo('number'), t.str(record.number));
  if (record.issueType) t.add(work, t.sr('issueType'), t.str(record.issueType));
}

/**
 * The record's ISSNs and ISBNs, verified. One that is none, or whose check
 * digit fails, is kept on the work as sent (`W sr:<field>`), with a note.
 */
function readKeys(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode): ContainerKeys {
  const issn = verifiedIssn(t, work, 'issn', record.issn);
  const eIssn = verifiedIssn(t, work, 'eIssn', record.eIssn);
  const isbns: string[] = [];
  for (const field of ISBN_FIELDS) {
    const value = record[field];
    if (!value) continue;
    const good = isbn13Form(value);
    if (!good) keepOnWork(t, work, field, value, isbnProblem(value));
    else if (!isbns.includes(good)) isbns.push(good);
  }
  return { issn, eIssn, isbns };
}

/** The fields of a record's ISBNs, print first. */
const ISBN_FIELDS = ['printIsbn', 'electronicIsbn', 'isbn'] as const;

/** An ISSN field's verified form; one that fails is kept on the work ({@link keepOnWork}). */
function verifiedIssn(
  t: RecordTriples,
  work: RDF.NamedNode,
  field: string,
  value: string | undefined,
): string | undefined {
  if (!value) return undefined;
  const good = issnForm(value);
  if (!good) keepOnWork(t, work, field, value, issnProblem(value));
  return good;
}

/** An identifier that failed its check, kept on the work as sent (`W sr:<field>`), with a note saying `why`. */
function keepOnWork(t: RecordTriples, work: RDF.NamedNode, field: string, value: string, why: string): void {
  t.add(work, t.sr(field), t.str(value));
  t.note(`${field}: "${value}" ${why}; kept as sr:${field} on the work, not as an identifier`);
}

function issnProblem(value: string): string {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9]{7}[0-9X]$/.test(compact)
    ? `has a wrong check digit (expected ${issnCheckDigit(compact)})`
    : 'is not an ISSN';
}

function isbnProblem(value: string): string {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^97[89][0-9]{10}$/.test(compact)) return `has a wrong check digit (expected ${isbn13CheckDigit(compact)})`;
  if (/^[0-9]{9}[0-9X]$/.test(compact)) return `has a wrong check digit (expected ${isbn10CheckDigit(compact)})`;
  return 'is not an ISBN';
}
