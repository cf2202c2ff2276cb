import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { MappingError } from '../errors.js';
import type { ScholarlyRecord } from '../record/types.js';
import { classifyPages } from './classifyPages.js';
import { dateLiteralKind } from './dates.js';
import { EntityIris, contentHash, slug } from './entityIris.js';
import { encodeIriSegment, toIri } from './iri.js';
import { isLanguageTag } from './languageTag.js';
import { mapContainer } from './mapContainer.js';
import { mapCreators } from './mapCreators.js';
import { DEFAULT_BASE, NS } from './namespaces.js';
import { RecordTriples } from './RecordTriples.js';
import { type WorkKind, containerKind, workKind } from './workKind.js';

/** Options of {@link mapRecord}. */
export interface MapOptions {
  /** Base of the IRIs minted for shared entities (`<base>journal/<id>`) and the nodes a record owns (`<base>doi/<doi>#...`). Defaults to `https://w3id.org/scholarly-rdf/`. */
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
  /**
   * The record's triples: the work's own first, then the nodes it names
   * (shared entities such as its journal or publisher included, so that each
   * record's triples describe it whole).
   */
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
 * throws a {@link MappingError} (the DOI is the record's identity). Entities
 * other records may name too (journals, books, publishers, ORCID persons,
 * disciplines) get IRIs from their identifiers (see {@link EntityIris}).
 */
export function mapRecord(record: ScholarlyRecord, options: MapOptions = {}): MappedRecord {
  const label = options.recordLabel ?? 'record';
  const doi = record.doi;
  if (!doi) throw new MappingError('no DOI (neither "doi" nor "identifier": "doi:...")', label, 'doi');
  if (!DOI_SHAPE.test(doi)) throw new MappingError(`"${doi}" is not a DOI (expected 10.<digits>/<suffix>)`, doi, 'doi');

  const iris = new EntityIris(options.base ?? DEFAULT_BASE);
  const lang = isLanguageTag(record.language ?? '') ? record.language!.toLowerCase() : undefined;
  const t = new RecordTriples(options.factory ?? DataFactory, options.schemaScheme === 'https' ? NS.schemaHttps : NS.schemaHttp, lang, [...record.notes]);
  const work = t.iri(iris.work(doi));
  const container = containerKind(record);
  const kind = workKind(record, container);

  mapWork(t, record, doi, work, kind);
  mapCreators(t, record.creators, iris, doi, work);
  mapContainer(t, record, iris, doi, work, kind, container);
  mapPublisher(t, record, iris, work);
  mapLinks(t, record, iris, doi, work);
  mapSubjects(t, record, iris, doi, work);
  mapConferences(t, record, iris, doi, work);
  return { subject: work, doi, quads: t.quads, unknownFields: Object.keys(record.unknownFields), notes: t.notes };
}

/** The work's own statements: types, identifiers, title, abstract, language, dates, access, pages. */
function mapWork(t: RecordTriples, record: ScholarlyRecord, doi: string, work: RDF.NamedNode, kind: WorkKind): void {
  const [schemaClass, biboClass] = WORK_CLASSES[kind];
  t.type(work, t.schema(schemaClass), t.bibo(biboClass));
  if (kind === 'other') {
    t.note(`contentType: ${record.contentType ? `"${record.contentType}"` : 'missing'}, and no journal or book the work is in; typed schema:CreativeWork, bibo:Document`);
  }
  t.add(work, t.bibo('doi'), t.str(doi));
  // schema:identifier names the work's DOI; an identifier of the record that names another is kept as sent.
  const identifierAgrees = record.identifier !== undefined && record.identifier.toLowerCase() === `doi:${doi}`.toLowerCase();
  t.add(work, t.schema('identifier'), t.str(identifierAgrees ? record.identifier! : `doi:${doi}`));
  if (record.identifier !== undefined && !identifierAgrees) {
    t.add(work, t.sr('identifier'), t.str(record.identifier));
    t.note(`identifier: "${record.identifier}" does not name the DOI ${doi}; kept as sr:identifier`);
  }
  // The service's own type label: schema:additionalType takes text (a type name of another scheme).
  if (record.contentType) t.add(work, t.schema('additionalType'), t.str(record.contentType));
  if (record.publicationType) t.add(work, t.sr('publicationType'), t.str(record.publicationType));
  if (record.title) {
    t.add(work, t.schema('name'), t.text(record.title));
    t.add(work, t.dcterms('title'), t.text(record.title));
  }
  if (record.abstract) {
    t.add(work, t.schema('abstract'), t.text(record.abstract.text));
    t.add(work, t.bibo('abstract'), t.text(record.abstract.text));
    if (record.abstract.heading) t.note(`abstract: heading "${record.abstract.heading}" taken off the text`);
  }
  if (record.language) {
    t.add(work, t.schema('inLanguage'), t.str(record.language));
    if (!isLanguageTag(record.language)) t.note(`language: "${record.language}" is not a language tag; titles carry no tag`);
  }

  const date = (value: string | undefined, field: string, ...predicates: RDF.NamedNode[]) => {
    if (!value) return;
    const type = dateLiteralKind(value);
    const literal = type ? t.typed(value, type) : t.str(value);
    if (!type) t.note(`${field}: "${value}" is not a valid date; written as plain text`);
    for (const p of predicates) t.add(work, p, literal);
  };
  date(record.publicationDate, 'publicationDate', t.schema('datePublished'), t.dcterms('issued'));
  date(record.onlineDate, 'onlineDate', t.dcterms('available'));
  date(record.coverDate, 'coverDate', t.term(`${NS.prism}coverDate`));

  if (record.openaccess) {
    const v = record.openaccess.toLowerCase();
    if (v === 'true' || v === 'false') t.add(work, t.schema('isAccessibleForFree'), t.typed(v, 'boolean'));
    else {
      t.add(work, t.schema('isAccessibleForFree'), t.str(record.openaccess));
      t.note(`openaccess: "${record.openaccess}" is not true/false; written as plain text`);
    }
  }
  // schema.org's page properties belong to articles and chapters (and issues, volumes); BIBO's to any document.
  mapPages(t, record, work, kind === 'article' || kind === 'chapter');
}

/**
 * Pages: split (pageStart/pageEnd) or free text (pagination + bibo:pages), never both. The schema.org
 * forms only where their domain holds (`withSchema`: an article or a chapter), the BIBO ones always.
 */
function mapPages(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode, withSchema: boolean): void {
  const pages = classifyPages(record.startingPage, record.endingPage, {
    onlineFirst: !record.volume && !record.number,
  });
  const start = (value: string) => {
    if (withSchema) t.add(work, t.schema('pageStart'), t.str(value));
    t.add(work, t.bibo('pageStart'), t.str(value));
  };
  const end = (value: string) => {
    if (withSchema) t.add(work, t.schema('pageEnd'), t.str(value));
    t.add(work, t.bibo('pageEnd'), t.str(value));
  };
  switch (pages.kind) {
    case 'split':
      start(pages.start);
      end(pages.end);
      if (pages.numPages !== undefined) t.add(work, t.bibo('numPages'), t.typed(String(pages.numPages), 'integer'));
      break;
    case 'start':
      start(pages.start);
      break;
    case 'end':
      end(pages.end);
      break;
    case 'pagination':
      if (withSchema) t.add(work, t.schema('pagination'), t.str(pages.text));
      t.add(work, t.bibo('pages'), t.str(pages.text));
      break;
    case 'placeholder':
      t.note(`startingPage: "${pages.value}" on an online-first record (no volume, no issue) is a placeholder; no pages written`);
      break;
    case 'none':
      break;
  }
}

/**
 * The publisher, one node per normalised name. `publisher` is the service's
 * short label of the publishing house, `publisherName` its full name; when
 * they name two organisations (`Springer` and `BioMed Central`), the work's
 * `schema:publisher` is the house and its `schema:publisherImprint` the
 * imprint that published it: nothing is said of one organisation that is
 * true of the other only.
 */
function mapPublisher(t: RecordTriples, record: ScholarlyRecord, iris: EntityIris, work: RDF.NamedNode): void {
  const { publisher, publisherName } = record;
  const org = (name: string) => {
    const node = t.iri(iris.publisher(name));
    t.type(node, t.schema('Organization'));
    t.add(node, t.schema('name'), t.str(name));
    return node;
  };
  if (publisher && publisherName && slug(publisher) !== slug(publisherName)) {
    t.add(work, t.schema('publisher'), org(publisher));
    t.add(work, t.schema('publisherImprint'), org(publisherName));
  } else if (publisher || publisherName) {
    t.add(work, t.schema('publisher'), org(publisherName ?? publisher!));
  }
}

/** Links: html page, pdf and other files, the DOI resolver, anything else as text. */
function mapLinks(t: RecordTriples, record: ScholarlyRecord, iris: EntityIris, doi: string, work: RDF.NamedNode): void {
  record.urls.forEach((url, i) => {
    const target = toIri(url.value);
    if (!target) {
      t.add(work, t.schema('url'), t.str(url.value));
      t.note(`url[${i}]: "${url.value}" is not an absolute URL; written as text`);
      return;
    }
    const format = url.format.toLowerCase();
    if (format === 'pdf' || (format !== '' && format !== 'html')) {
      // A file is named by its URL (and format), not by its place in the list.
      const media = t.iri(iris.owned(doi, `encoding-${contentHash(`${format}\n${target}`)}`));
      t.add(work, t.schema('encoding'), media);
      t.type(media, t.schema('MediaObject'));
      t.add(media, t.schema('contentUrl'), t.iri(target));
      t.add(media, t.schema('encodingFormat'), t.str(MEDIA_TYPES[format] ?? url.format));
      if (url.platform) t.add(media, t.sr('platform'), t.str(url.platform));
    } else if (format === '' && /^https?:\/\/(dx\.)?doi\.org\//i.test(target)) {
      t.add(work, t.schema('sameAs'), t.iri(target));
    } else {
      t.add(work, t.schema('url'), t.iri(target));
    }
  });
}

/**
 * Keywords, disciplines and genres. A discipline with an id is a concept of
 * the service's scheme (`<base>discipline/<id>`, shared by every record);
 * one without is the record's own node, named by its term.
 */
function mapSubjects(t: RecordTriples, record: ScholarlyRecord, iris: EntityIris, doi: string, work: RDF.NamedNode): void {
  for (const keyword of dedupe([...record.subjects, ...record.keywords])) t.add(work, t.schema('keywords'), t.str(keyword));
  let scheme: RDF.NamedNode | undefined;
  const seen = new Set<string>();
  for (const d of record.disciplines) {
    const iri = d.id ? iris.discipline(d.id) : iris.owned(doi, `discipline-${encodeIriSegment(slug(d.term ?? '') || 'unnamed')}`);
    const key = `${iri}\n${d.term ?? ''}`;
    if (seen.has(key)) continue; // the same discipline twice
    seen.add(key);
    const term = t.iri(iri);
    t.add(work, t.schema('about'), term);
    t.type(term, t.schema('DefinedTerm'));
    if (d.id) {
      if (!scheme) {
        scheme = t.iri(iris.disciplineScheme());
        t.type(scheme, t.schema('DefinedTermSet'), t.skos('ConceptScheme'));
      }
      t.type(term, t.skos('Concept'));
      t.add(term, t.schema('inDefinedTermSet'), scheme);
      t.add(term, t.skos('inScheme'), scheme);
      t.add(term, t.schema('identifier'), t.str(d.id));
    }
    if (d.term) t.add(term, t.schema('name'), t.str(d.term));
  }
  for (const genre of dedupe(record.genre)) t.add(work, t.schema('genre'), t.str(genre));
  if (record.copyright) t.add(work, t.schema('copyrightNotice'), t.str(record.copyright));
}

/** Conferences, each the record's own node named by its content. */
function mapConferences(t: RecordTriples, record: ScholarlyRecord, iris: EntityIris, doi: string, work: RDF.NamedNode): void {
  for (const info of record.conferenceInfo) {
    const json = JSON.stringify(info) ?? 'null';
    const event = t.iri(iris.owned(doi, `conference-${contentHash(json)}`));
    t.add(work, t.bibo('presentedAt'), event);
    t.type(event, t.schema('Event'), t.bibo('Conference'));
    if (typeof info === 'string' || typeof info === 'number') {
      t.add(event, t.schema('name'), t.str(String(info)));
    } else if (info && typeof info === 'object') {
      const o = info as Record<string, unknown>;
      const name = ['confName', 'name', 'confTitle', 'title'].map((k) => o[k]).find((v) => typeof v === 'string' && v.trim());
      if (typeof name === 'string') t.add(event, t.schema('name'), t.str(name.trim()));
      t.add(event, t.schema('description'), t.str(json));
    }
  }
}

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

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
