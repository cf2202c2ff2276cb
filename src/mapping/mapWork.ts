import type * as RDF from '@rdfjs/types';
import { isLanguageTag } from '../rdf/languageTag.js';
import { DOI_RESOLVER, DX_DOI_RESOLVER, NS } from '../rdf/namespaces.js';
import { encodeIriPath } from './iri.js';
import { identifierNamesDoi } from '../record/recordDoi.js';
import type { ScholarlyRecord } from '../record/types.js';
import { dateLiteralKind } from './dates.js';
import { mapPages } from './mapPages.js';
import type { RecordTriples } from './RecordTriples.js';
import type { WorkKind } from './workKind.js';

/** The classes of a work of each kind: schema.org, BIBO. */
const WORK_CLASSES: Record<WorkKind, [string, string]> = {
  article: ['ScholarlyArticle', 'AcademicArticle'],
  chapter: ['Chapter', 'Chapter'],
  book: ['Book', 'Book'],
  other: ['CreativeWork', 'Document'],
};

/** The work's own statements: types, identifiers, title, abstract, language, dates, access, pages. */
export function mapWork(
  t: RecordTriples,
  record: ScholarlyRecord,
  doi: string,
  work: RDF.NamedNode,
  kind: WorkKind,
): void {
  const [schemaClass, biboClass] = WORK_CLASSES[kind];
  t.type(work, t.schema(schemaClass), t.bibo(biboClass));
  if (kind === 'other') {
    t.note(
      `contentType: ${record.contentType ? `"${record.contentType}"` : 'missing'}, and no journal or book the work is in; typed schema:CreativeWork, bibo:Document`,
    );
  }
  mapIdentifiers(t, record, doi, work);
  // The service's own type label: schema:additionalType takes text (a type name of another scheme).
  if (record.contentType) t.add(work, t.schema('additionalType'), t.str(record.contentType));
  if (record.publicationType) t.add(work, t.sr('publicationType'), t.str(record.publicationType));
  if (record.title) {
    t.add(work, t.schema('name'), t.text(record.title));
    t.add(work, t.dcterms('title'), t.text(record.title));
  }
  if (record.abstract?.languages) {
    // One abstract per language, tagged with the language its heading names (else the record's).
    for (const part of record.abstract.languages) {
      const literal = part.language ? t.f.literal(part.text, part.language) : t.text(part.text);
      t.add(work, t.schema('abstract'), literal);
      t.add(work, t.bibo('abstract'), literal);
    }
  } else if (record.abstract) {
    t.add(work, t.schema('abstract'), t.text(record.abstract.text));
    t.add(work, t.bibo('abstract'), t.text(record.abstract.text));
    if (record.abstract.heading) t.note(`abstract: heading "${record.abstract.heading}" taken off the text`);
  }
  if (record.language) {
    t.add(work, t.schema('inLanguage'), t.str(record.language));
    if (!isLanguageTag(record.language))
      t.note(`language: "${record.language}" is not a language tag; titles carry no tag`);
  }
  mapDates(t, record, work);
  mapOpenAccess(t, record, work);
  // schema.org's page properties belong to articles and chapters (and issues, volumes); BIBO's to any document.
  mapPages(t, record, work, kind === 'article' || kind === 'chapter');
}

/** `bibo:doi`, and `schema:identifier` naming the DOI; an identifier of the record that names another is kept as sent. */
function mapIdentifiers(t: RecordTriples, record: ScholarlyRecord, doi: string, work: RDF.NamedNode): void {
  t.add(work, t.bibo('doi'), t.str(doi));
  addDoiAliases(t, doi, work);
  const identifierAgrees = record.identifier !== undefined && identifierNamesDoi(record.identifier, doi);
  t.add(work, t.schema('identifier'), t.str(identifierAgrees ? record.identifier! : `doi:${doi}`));
  if (record.identifier !== undefined && !identifierAgrees) {
    t.add(work, t.sr('identifier'), t.str(record.identifier));
    t.note(`identifier: "${record.identifier}" does not name the DOI ${doi}; kept as sr:identifier`);
  }
}

/**
 * `owl:sameAs` the other IRIs the world names the work by: `http://dx.doi.org/<doi>` (Crossref's RDF) and, when
 * the DOI has upper-case letters, the lower-cased DOI under both resolvers (DOIs are case-insensitive; Crossref
 * and SciGraph write them in lower case). The DOI as the record spells it stays the work's own IRI.
 */
function addDoiAliases(t: RecordTriples, doi: string, work: RDF.NamedNode): void {
  const sameAs = t.inNamespace(NS.owl, 'sameAs');
  // The work's IRI holds the DOI's path already (`EntityIris.work`): not encoded again.
  const path = work.value.startsWith(DOI_RESOLVER) ? work.value.slice(DOI_RESOLVER.length) : encodeIriPath(doi);
  t.add(work, sameAs, t.iri(DX_DOI_RESOLVER + path));
  const lower = doi.toLowerCase();
  if (lower !== doi) {
    const lowerPath = encodeIriPath(lower);
    t.add(work, sameAs, t.iri(DOI_RESOLVER + lowerPath));
    t.add(work, sameAs, t.iri(DX_DOI_RESOLVER + lowerPath));
  }
}

/** The dates, typed by their form (`xsd:date`, `xsd:gYearMonth`, `xsd:gYear`, ...); one that is none is plain text, with a note. */
function mapDates(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode): void {
  addDate(t, work, record.publicationDate, 'publicationDate', t.schema('datePublished'), t.dcterms('issued'));
  addDate(t, work, record.onlineDate, 'onlineDate', t.dcterms('available'));
  addDate(t, work, record.coverDate, 'coverDate', t.inNamespace(NS.prism, 'coverDate'));
}

/** `W p <date>` (and `W also <date>`), the date typed by its form, or plain text with a note. */
function addDate(
  t: RecordTriples,
  work: RDF.NamedNode,
  value: string | undefined,
  field: string,
  p: RDF.NamedNode,
  also?: RDF.NamedNode,
): void {
  if (!value) return;
  const type = dateLiteralKind(value);
  const literal = type ? t.typed(value, type) : t.str(value);
  if (!type) t.note(`${field}: "${value}" is not a valid date; written as plain text`);
  t.add(work, p, literal);
  if (also) t.add(work, also, literal);
}

/** `schema:isAccessibleForFree`: a boolean when the record says true or false (any case), else its text, with a note. */
function mapOpenAccess(t: RecordTriples, record: ScholarlyRecord, work: RDF.NamedNode): void {
  if (!record.openaccess) return;
  const v = record.openaccess.toLowerCase();
  if (v === 'true' || v === 'false') t.add(work, t.schema('isAccessibleForFree'), t.typed(v, 'boolean'));
  else {
    t.add(work, t.schema('isAccessibleForFree'), t.str(record.openaccess));
    t.note(`openaccess: "${record.openaccess}" is not true/false; written as plain text`);
  }
}
