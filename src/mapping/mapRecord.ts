import type * as RDF from '@rdfjs/types';
import { orcidCheckCharacter } from '../record/orcid.js';
import { DataFactory } from 'n3';
import { MappingError } from '../errors.js';
import type { ScholarlyRecord } from '../record/types.js';
import { cleanText, encodeIriPath, encodeIriSegment, toIri } from './iri.js';
import { isLanguageTag } from './languageTag.js';
import { DEFAULT_BASE, DOI_RESOLVER, NS, ORCID_RESOLVER } from './namespaces.js';
import { classifyPages } from './classifyPages.js';
import { dateLiteralKind } from './dates.js';

/** Options of {@link mapRecord}. */
export interface MapOptions {
  /** Base of the IRIs minted for the nodes a record owns (`<base>doi/<doi>#author-1`). Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** schema.org namespace: `http` (`http://schema.org/`, what schema.org's own RDF uses) or `https`. Defaults to `http`. */
  schemaScheme?: 'http' | 'https';
  /** RDF/JS data factory for the quads. Defaults to n3's DataFactory. */
  factory?: RDF.DataFactory;
  /** How errors name a record without a DOI. Defaults to `record`. */
  recordLabel?: string;
}

/** The triples of one record and what the mapper noticed. */
export interface MappedRecord {
  /** `https://doi.org/<doi>`. */
  subject: RDF.NamedNode;
  doi: string;
  /** The record's triples, the work's own first, then the nodes it owns. */
  quads: RDF.Quad[];
  /** Fields of the record the mapper does not know (reported, never dropped silently). */
  unknownFields: string[];
  /** What was changed or skipped on the way, one line each. */
  notes: string[];
}

const DOI_SHAPE = /^10\.\d+\/./;

/**
 * Maps one normalised record onto schema.org and BIBO triples. Pure: no I/O,
 * the same record always gives the same quads. A record without a usable DOI
 * throws a {@link MappingError} (the DOI is the record's identity).
 */
export function mapRecord(record: ScholarlyRecord, options: MapOptions = {}): MappedRecord {
  const f = options.factory ?? DataFactory;
  const base = options.base ?? DEFAULT_BASE;
  const S = options.schemaScheme === 'https' ? NS.schemaHttps : NS.schemaHttp;
  const label = options.recordLabel ?? 'record';
  const notes = [...record.notes];

  const doi = record.doi;
  if (!doi) throw new MappingError('no DOI (neither "doi" nor "identifier": "doi:...")', label, 'doi');
  if (!DOI_SHAPE.test(doi)) throw new MappingError(`"${doi}" is not a DOI (expected 10.<digits>/<suffix>)`, doi, 'doi');

  const quads: RDF.Quad[] = [];
  const iri = (value: string) => f.namedNode(value);
  const schema = (local: string) => f.namedNode(S + local);
  const bibo = (local: string) => f.namedNode(NS.bibo + local);
  const dcterms = (local: string) => f.namedNode(NS.dcterms + local);
  const sr = (local: string) => f.namedNode(NS.sr + local);
  const rdfType = f.namedNode(`${NS.rdf}type`);
  const xsd = (local: string) => f.namedNode(NS.xsd + local);
  const add = (s: RDF.Quad_Subject, p: RDF.NamedNode, o: RDF.Quad_Object) => quads.push(f.quad(s, p, o));
  const str = (value: string) => f.literal(value);
  const lang = isLanguageTag(record.language ?? '') ? record.language!.toLowerCase() : undefined;
  const text = (value: string) => (lang ? f.literal(value, lang) : f.literal(value));
  const typed = (value: string, type: string) => f.literal(value, xsd(type));
  const nodeBase = `${base}doi/${encodeIriPath(doi)}#`;
  const node = (local: string) => iri(nodeBase + local);

  const work = iri(DOI_RESOLVER + encodeIriPath(doi));
  const kind = workKind(record);
  const [schemaClass, biboClass] = WORK_CLASSES[kind];
  add(work, rdfType, schema(schemaClass));
  add(work, rdfType, bibo(biboClass));
  add(work, bibo('doi'), str(doi));
  // schema:identifier names the work's DOI; an identifier of the record that names another is kept as sent.
  const identifierAgrees = record.identifier !== undefined && record.identifier.toLowerCase() === `doi:${doi}`.toLowerCase();
  add(work, schema('identifier'), str(identifierAgrees ? record.identifier! : `doi:${doi}`));
  if (record.identifier !== undefined && !identifierAgrees) {
    add(work, sr('identifier'), str(record.identifier));
    notes.push(`identifier: "${record.identifier}" does not name the DOI ${doi}; kept as sr:identifier`);
  }
  if (record.contentType) add(work, sr('contentType'), str(record.contentType));
  if (record.publicationType) add(work, sr('publicationType'), str(record.publicationType));
  if (record.title) {
    add(work, schema('name'), text(record.title));
    add(work, dcterms('title'), text(record.title));
  }
  if (record.abstract) {
    add(work, schema('abstract'), text(record.abstract.text));
    add(work, bibo('abstract'), text(record.abstract.text));
    if (record.abstract.heading) notes.push(`abstract: heading "${record.abstract.heading}" taken off the text`);
  }
  if (record.language) {
    add(work, schema('inLanguage'), str(record.language));
    if (!lang) notes.push(`language: "${record.language}" is not a language tag; titles carry no tag`);
  }

  const date = (value: string | undefined, field: string, ...predicates: RDF.NamedNode[]) => {
    if (!value) return;
    const type = dateLiteralKind(value);
    const literal = type ? typed(value, type) : str(value);
    if (!type) notes.push(`${field}: "${value}" is not a valid date; written as plain text`);
    for (const p of predicates) add(work, p, literal);
  };
  date(record.publicationDate, 'publicationDate', schema('datePublished'), dcterms('issued'));
  date(record.onlineDate, 'onlineDate', dcterms('available'));
  date(record.coverDate, 'coverDate', f.namedNode(`${NS.prism}coverDate`));

  if (record.openaccess) {
    const v = record.openaccess.toLowerCase();
    if (v === 'true' || v === 'false') add(work, schema('isAccessibleForFree'), typed(v, 'boolean'));
    else {
      add(work, schema('isAccessibleForFree'), str(record.openaccess));
      notes.push(`openaccess: "${record.openaccess}" is not true/false; written as plain text`);
    }
  }

  // Pages: split (pageStart/pageEnd) or free text (pagination + bibo:pages), never both.
  const pages = classifyPages(record.startingPage, record.endingPage, {
    onlineFirst: !record.volume && !record.number,
  });
  switch (pages.kind) {
    case 'split':
      add(work, schema('pageStart'), str(pages.start));
      add(work, bibo('pageStart'), str(pages.start));
      add(work, schema('pageEnd'), str(pages.end));
      add(work, bibo('pageEnd'), str(pages.end));
      if (pages.numPages !== undefined) add(work, bibo('numPages'), typed(String(pages.numPages), 'integer'));
      break;
    case 'start':
      add(work, schema('pageStart'), str(pages.start));
      add(work, bibo('pageStart'), str(pages.start));
      break;
    case 'end':
      add(work, schema('pageEnd'), str(pages.end));
      add(work, bibo('pageEnd'), str(pages.end));
      break;
    case 'pagination':
      add(work, schema('pagination'), str(pages.text));
      add(work, bibo('pages'), str(pages.text));
      break;
    case 'placeholder':
      notes.push(`startingPage: "${pages.value}" on an online-first record (no volume, no issue) is a placeholder; no pages written`);
      break;
    case 'none':
      break;
  }

  // Creators, in order, also as a bibo:authorList of named cells.
  const persons: RDF.NamedNode[] = [];
  record.creators.forEach((creator, i) => {
    const person = node(`author-${i + 1}`);
    persons.push(person);
    add(work, schema('author'), person);
    add(person, rdfType, schema('Person'));
    if (creator.name) {
      add(person, schema('name'), str(creator.name));
      const comma = creator.name.indexOf(',');
      if (comma > 0 && comma === creator.name.lastIndexOf(',')) {
        const family = creator.name.slice(0, comma).trim();
        // What follows the comma may start with a combining mark: cleaned again (gives the mark a base).
        const given = cleanText(creator.name.slice(comma + 1).trim()).text.trim();
        if (family && given) {
          add(person, schema('familyName'), str(family));
          add(person, schema('givenName'), str(given));
        }
      }
    }
    if (creator.orcid) {
      add(person, schema('sameAs'), iri(ORCID_RESOLVER + creator.orcid));
      add(person, schema('identifier'), str(creator.orcid));
    } else if (creator.orcidRaw) {
      add(person, schema('identifier'), str(creator.orcidRaw));
      const digits = /(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/.exec(creator.orcidRaw)?.[1]?.toUpperCase();
      const why = digits ? `has a wrong check character (expected ${orcidCheckCharacter(digits)})` : 'is not an ORCID iD';
      notes.push(`creators[${i}].ORCID: "${creator.orcidRaw}" ${why}; kept as an identifier only, not linked to orcid.org`);
    }
  });
  if (persons.length) {
    add(work, bibo('authorList'), node('authors-1'));
    persons.forEach((person, i) => {
      const cell = node(`authors-${i + 1}`);
      add(cell, f.namedNode(`${NS.rdf}first`), person);
      add(cell, f.namedNode(`${NS.rdf}rest`), i + 1 < persons.length ? node(`authors-${i + 2}`) : f.namedNode(`${NS.rdf}nil`));
    });
  }

  // Containers: journal > volume > issue, or the book of a chapter.
  const containerName = record.publicationName ?? record.journalTitle;
  // An ISSN or ISBN that is none is kept as sent (W sr:<field>, as the other raw fields), with a note.
  const checked = (field: string, value: string | undefined, form: (v: string) => string | undefined, what: string) => {
    if (!value) return undefined;
    const good = form(value);
    if (good) return good;
    add(work, sr(field), str(value));
    notes.push(`${field}: "${value}" is not ${what}; kept as sr:${field} on the work`);
    return undefined;
  };
  const issn = checked('issn', record.issn, issnForm, 'an ISSN');
  const eIssn = checked('eIssn', record.eIssn, issnForm, 'an ISSN');
  const isbns = (
    [
      ['printIsbn', record.printIsbn],
      ['electronicIsbn', record.electronicIsbn],
      ['isbn', record.isbn],
    ] as const
  )
    .map(([field, value]) => checked(field, value, isbnForm, 'an ISBN'))
    .filter((v): v is string => Boolean(v));
  /** The ISSNs of a journal or of a book series: print as bibo:issn, electronic as bibo:eissn, both as schema:issn. */
  const addIssns = (container: RDF.NamedNode) => {
    if (issn) {
      add(container, schema('issn'), str(issn));
      add(container, bibo('issn'), str(issn));
    }
    if (eIssn) {
      add(container, schema('issn'), str(eIssn));
      add(container, bibo('eissn'), str(eIssn));
    }
    if (record.journalId) add(container, schema('identifier'), str(record.journalId));
  };
  if (kind === 'book') {
    // The work is the book: the ISBNs and the volume number are its own; what contains it is its series.
    for (const isbn of dedupe(isbns)) {
      add(work, schema('isbn'), str(isbn));
      add(work, bibo('isbn'), str(isbn));
    }
    if (record.volume) add(work, schema('volumeNumber'), str(record.volume));
    const seriesName = containerName && containerName !== record.title ? containerName : undefined;
    if (seriesName || issn || eIssn || record.journalId) {
      const series = node('series');
      add(work, schema('isPartOf'), series);
      add(series, rdfType, schema('BookSeries'));
      add(series, rdfType, bibo('Series'));
      if (seriesName) add(series, schema('name'), str(seriesName));
      addIssns(series);
    }
    if (record.number) add(work, bibo('issue'), str(record.number));
    if (record.issueType) add(work, sr('issueType'), str(record.issueType));
  } else if (isBookContainer(record, kind)) {
    if (containerName || isbns.length || record.volume || issn || eIssn || record.journalId) {
      const book = node('book');
      add(work, schema('isPartOf'), book);
      add(book, rdfType, schema('Book'));
      add(book, rdfType, bibo('Book'));
      if (containerName) add(book, schema('name'), str(containerName));
      for (const isbn of dedupe(isbns)) {
        add(book, schema('isbn'), str(isbn));
        add(book, bibo('isbn'), str(isbn));
      }
      if (record.volume) add(book, schema('volumeNumber'), str(record.volume));
      if (issn || eIssn || record.journalId) {
        // A book with an ISSN is a volume of a book series (Methods in Molecular Biology, ...).
        const series = node('series');
        add(book, schema('isPartOf'), series);
        add(series, rdfType, schema('BookSeries'));
        add(series, rdfType, bibo('Series'));
        addIssns(series);
      }
    }
    if (record.number) add(work, bibo('issue'), str(record.number));
    if (record.issueType) add(work, sr('issueType'), str(record.issueType));
  } else {
    let top: RDF.NamedNode | undefined;
    if (containerName || issn || eIssn || record.journalId || isbns.length) {
      top = node('periodical');
      add(top, rdfType, schema('Periodical'));
      add(top, rdfType, bibo('Journal'));
      if (containerName) add(top, schema('name'), str(containerName));
      addIssns(top);
      for (const isbn of dedupe(isbns)) add(top, schema('isbn'), str(isbn));
    }
    if (record.volume) {
      const volume = node('volume');
      add(volume, rdfType, schema('PublicationVolume'));
      add(volume, schema('volumeNumber'), str(record.volume));
      if (top) add(volume, schema('isPartOf'), top);
      add(work, bibo('volume'), str(record.volume));
      top = volume;
    }
    if (record.number) {
      const issue = node('issue');
      add(issue, rdfType, schema('PublicationIssue'));
      add(issue, rdfType, bibo('Issue'));
      add(issue, schema('issueNumber'), str(record.number));
      if (record.issueType) add(issue, sr('issueType'), str(record.issueType));
      if (top) add(issue, schema('isPartOf'), top);
      add(work, bibo('issue'), str(record.number));
      top = issue;
    } else if (record.issueType) {
      add(work, sr('issueType'), str(record.issueType));
    }
    if (top) add(work, schema('isPartOf'), top);
  }
  if (record.topicalCollection) add(work, sr('topicalCollection'), str(record.topicalCollection));

  // Publisher.
  if (record.publisher || record.publisherName) {
    const org = node('publisher');
    add(work, schema('publisher'), org);
    add(org, rdfType, schema('Organization'));
    add(org, schema('name'), str(record.publisherName ?? record.publisher!));
    if (record.publisherName && record.publisher && record.publisher !== record.publisherName) {
      add(org, schema('alternateName'), str(record.publisher));
    }
  }

  // Links: html page, pdf file, DOI resolver, anything else as text.
  let encodings = 0;
  record.urls.forEach((url, i) => {
    const target = toIri(url.value);
    if (!target) {
      add(work, schema('url'), str(url.value));
      notes.push(`url[${i}]: "${url.value}" is not an absolute URL; written as text`);
      return;
    }
    const format = url.format.toLowerCase();
    if (format === 'pdf' || (format !== '' && format !== 'html')) {
      encodings++;
      const media = node(format === 'pdf' && encodings === 1 ? 'pdf' : `encoding-${i + 1}`);
      add(work, schema('encoding'), media);
      add(media, rdfType, schema('MediaObject'));
      add(media, schema('contentUrl'), iri(target));
      add(media, schema('encodingFormat'), str(MEDIA_TYPES[format] ?? url.format));
      if (url.platform) add(media, sr('platform'), str(url.platform));
    } else if (format === '' && /^https?:\/\/(dx\.)?doi\.org\//i.test(target)) {
      add(work, schema('sameAs'), iri(target));
    } else {
      add(work, schema('url'), iri(target));
    }
  });

  for (const keyword of dedupe([...record.subjects, ...record.keywords])) add(work, schema('keywords'), str(keyword));
  // A discipline's node is named by its id; one without an id, or whose id an earlier different one
  // took, by its position (#discipline-n2), so that no two disciplines merge into one node.
  const disciplineTerms = new Map<string, string | undefined>();
  record.disciplines.forEach((d, i) => {
    let local = d.id ? `discipline-${encodeIriSegment(d.id)}` : `discipline-n${i + 1}`;
    if (disciplineTerms.has(local)) {
      if (disciplineTerms.get(local) === d.term) return; // the same discipline twice
      local = `discipline-n${i + 1}`;
    }
    disciplineTerms.set(local, d.term);
    const term = node(local);
    add(work, schema('about'), term);
    add(term, rdfType, schema('DefinedTerm'));
    if (d.id) add(term, schema('identifier'), str(d.id));
    if (d.term) add(term, schema('name'), str(d.term));
  });
  for (const genre of dedupe(record.genre)) add(work, schema('genre'), str(genre));
  if (record.copyright) add(work, schema('copyrightNotice'), str(record.copyright));

  record.conferenceInfo.forEach((info, i) => {
    const event = node(`conference-${i + 1}`);
    add(work, bibo('presentedAt'), event);
    add(event, rdfType, schema('Event'));
    add(event, rdfType, bibo('Conference'));
    if (typeof info === 'string' || typeof info === 'number') {
      add(event, schema('name'), str(String(info)));
    } else if (info && typeof info === 'object') {
      const o = info as Record<string, unknown>;
      const name = ['confName', 'name', 'confTitle', 'title'].map((k) => o[k]).find((v) => typeof v === 'string' && v.trim());
      if (typeof name === 'string') add(event, schema('name'), str(name.trim()));
      add(event, schema('description'), str(JSON.stringify(info)));
    }
  });

  return { subject: work, doi, quads, unknownFields: Object.keys(record.unknownFields), notes };
}

type WorkKind = 'article' | 'chapter' | 'book' | 'other';

const WORK_CLASSES: Record<WorkKind, [string, string]> = {
  article: ['ScholarlyArticle', 'AcademicArticle'],
  chapter: ['Chapter', 'Chapter'],
  book: ['Book', 'Book'],
  other: ['CreativeWork', 'Document'],
};

const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  epub: 'application/epub+zip',
  xml: 'application/xml',
};

/**
 * The kind of a work: from `contentType` when it names one; else (a type of
 * its own such as Protocol or ReferenceWorkEntry, or none) from where it was
 * published: `publicationType`, else the container keys it has (ISSN or
 * journal id: an article; ISBN: a chapter).
 */
function workKind(record: ScholarlyRecord): WorkKind {
  const type = (record.contentType ?? '').toLowerCase();
  if (type === 'article' || type === 'journal article') return 'article';
  if (type === 'chapter' || type === 'book chapter') return 'chapter';
  if (type === 'book') return 'book';
  const pub = (record.publicationType ?? '').toLowerCase();
  if (pub === 'journal') return 'article';
  if (pub === 'book' || pub === 'bookseries') return 'chapter';
  if (pub) return 'other';
  if (record.issn || record.eIssn || record.journalId) return 'article';
  if (record.printIsbn || record.electronicIsbn || record.isbn) return 'chapter';
  return 'other';
}

function isBookContainer(record: ScholarlyRecord, kind: WorkKind): boolean {
  const pub = (record.publicationType ?? '').toLowerCase();
  if (pub === 'journal') return false;
  if (pub === 'book' || pub === 'bookseries') return true;
  if (kind === 'chapter' || kind === 'book') return true;
  if (kind === 'article') return false;
  return !record.issn && !record.eIssn && !record.journalId && Boolean(record.printIsbn || record.electronicIsbn || record.isbn);
}

/** An ISSN in its usual form (`1064-3745`; `10643745` and a lower-case x are tidied), or undefined when it is none. */
export function issnForm(value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9]{7}[0-9X]$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4)}` : undefined;
}

/** An ISBN-10 or ISBN-13 as sent (hyphens kept), or undefined when it is none. */
export function isbnForm(value: string): string | undefined {
  const v = value.trim();
  return /^(97[89]-?)?[0-9]{1,5}-?[0-9]+-?[0-9]+-?[0-9X]$/.test(v) && [10, 13].includes(v.replace(/-/g, '').length) ? v : undefined;
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
