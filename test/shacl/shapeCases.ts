/**
 * One violating case per shape of shapes/: a change to a conforming fixture
 * (test/fixtures/shacl/full-records.ttl or dataset-description.ttl) after
 * which the shape must report a result. Shared by the unit tests and the
 * Jena cross-check.
 */
export interface ShapeCase {
  /** The shape that must report (local name in the srsh: namespace). */
  shape: string;
  /** The conforming fixture to change. Defaults to `records`. */
  base?: 'records' | 'dataset';
  /** Triples to remove: `subject predicate` in prefixed form (`doi:full-1 bibo:doi`). */
  remove?: string[];
  /**
   * Turtle triples to add (the prefixes of {@link CASE_PREFIXES} are declared). Each goes after the last
   * triple of its subject, else after the last that has its subject as object, else at the end: where the
   * mapper would write it, so that a record-by-record validation (`validate`, the Jena cross-check) finds
   * it with the record whose shared nodes it is about.
   */
  add?: string;
  /** Defaults to `Violation`. */
  severity?: 'Violation' | 'Warning';
}

/** Prefixes usable in `remove` and `add`. */
export const CASE_PREFIXES: Readonly<Record<string, string>> = {
  schema: 'http://schema.org/',
  bibo: 'http://purl.org/ontology/bibo/',
  dcterms: 'http://purl.org/dc/terms/',
  prism: 'http://prismstandard.org/namespaces/basic/2.0/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  void: 'http://rdfs.org/ns/void#',
  dcat: 'http://www.w3.org/ns/dcat#',
  prov: 'http://www.w3.org/ns/prov#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  sr: 'https://w3id.org/scholarly-rdf/vocab#',
  doi: 'https://doi.org/10.5555/',
  orcid: 'https://orcid.org/',
  journal: 'https://w3id.org/scholarly-rdf/journal/',
  volume: 'https://w3id.org/scholarly-rdf/journal/11306/volume/',
  issue: 'https://w3id.org/scholarly-rdf/journal/11306/volume/13/issue/',
  publisher: 'https://w3id.org/scholarly-rdf/publisher/',
  isbn: 'https://w3id.org/scholarly-rdf/isbn/',
  series: 'https://w3id.org/scholarly-rdf/series/',
  discipline: 'https://w3id.org/scholarly-rdf/discipline/',
  a: 'https://w3id.org/scholarly-rdf/doi/10.5555/full-1#',
  c: 'https://w3id.org/scholarly-rdf/doi/10.5555/chapter-1#',
  d: 'https://w3id.org/scholarly-rdf/dump/0123456789abcdef#',
  dump: 'https://w3id.org/scholarly-rdf/dump/',
};

/** Node shapes without constraints of their own (only `sh:property`): their cases are those of their property shapes. */
export const SHAPES_WITHOUT_OWN_CONSTRAINTS = ['PagesEitherFormShape', 'SchemaPagesShape', 'AuthorshipShape'];

export const SHAPE_CASES: readonly ShapeCase[] = [
  // Ownership: a node whose work (or whose referrer) is missing. Shared nodes (journals, publishers,
  // ORCID persons, ...) belong to every record that names them: an orphan is one no work of the input names.
  { shape: 'Person-owner', remove: ['doi:full-1 schema:author'] },
  { shape: 'Organization-owner', remove: ['doi:full-1 schema:publisherImprint'] },
  { shape: 'Organization-owner', add: 'publisher:nobody-s a schema:Organization ; schema:name "Nobody\'s" .' },
  { shape: 'Periodical-owner', add: 'journal:99999 a schema:Periodical , bibo:Journal ; schema:name "Orphan" .' },
  { shape: 'Volume-owner', add: 'volume:99 a schema:PublicationVolume ; schema:volumeNumber "99" .' },
  {
    shape: 'Issue-owner',
    add: 'issue:10 a schema:PublicationIssue , bibo:Issue ; schema:issueNumber "10" ; bibo:issue "10" .',
  },
  { shape: 'Book-owner', add: 'isbn:9780306406157 a schema:Book , bibo:Book ; schema:name "Orphan" .' },
  { shape: 'BookSeries-owner', add: 'series:9999 a schema:BookSeries , bibo:Series ; schema:identifier "9999" .' },
  { shape: 'MediaObject-owner', remove: ['doi:full-1 schema:encoding'] },
  { shape: 'DefinedTerm-owner', remove: ['doi:full-1 schema:about'] },
  { shape: 'Event-owner', remove: ['doi:full-1 bibo:presentedAt'] },
  { shape: 'ListCell-owner', add: 'a:authors-000000000000 rdf:first a:author-spicer-rachel ; rdf:rest rdf:nil .' },

  // The work
  {
    shape: 'WorkShape',
    add: '<https://example.org/work/1> a schema:ScholarlyArticle ; bibo:doi "10.5555/x" ; schema:name "x" ; dcterms:title "x" .',
  },
  { shape: 'Work-type', add: 'doi:full-1 a schema:CreativeWork .' },
  { shape: 'Work-doi', remove: ['doi:full-1 bibo:doi'], add: 'doi:full-1 bibo:doi "doi:10.5555/full-1" .' },
  { shape: 'Work-identifier', add: 'doi:full-1 schema:identifier "doi:10.5555/other" .' },
  {
    shape: 'DoiAgreementShape',
    remove: ['doi:full-1 schema:identifier'],
    add: 'doi:full-1 schema:identifier "doi:10.5555/full-2" .',
  },
  { shape: 'Work-name', remove: ['doi:full-1 schema:name'] },
  { shape: 'Work-title', remove: ['doi:full-1 dcterms:title'] },
  { shape: 'Work-abstract', remove: ['doi:full-1 bibo:abstract'] },
  { shape: 'Work-inLanguage', add: 'doi:full-1 schema:inLanguage "de" .' },
  {
    shape: 'Work-inLanguageTag',
    severity: 'Warning',
    remove: ['doi:full-1 schema:inLanguage'],
    add: 'doi:full-1 schema:inLanguage "English language" .',
  },
  {
    shape: 'Work-datePublished',
    remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'],
    add: 'doi:full-1 schema:datePublished "2015-02-30"^^xsd:date ; dcterms:issued "2015-02-30"^^xsd:date .',
  },
  {
    shape: 'Work-datePublishedText',
    severity: 'Warning',
    remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'],
    add: 'doi:full-1 schema:datePublished "2015" ; dcterms:issued "2015" .',
  },
  { shape: 'Work-issued', add: 'doi:full-1 dcterms:issued "2017-08-10"^^xsd:date .' },
  {
    shape: 'Work-datePublished',
    remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'],
    add: 'doi:full-1 schema:datePublished "2015-13"^^xsd:gYearMonth ; dcterms:issued "2015-13"^^xsd:gYearMonth .',
  },
  {
    shape: 'Work-issuedText',
    severity: 'Warning',
    remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'],
    add: 'doi:full-1 schema:datePublished "Summer 2015" ; dcterms:issued "Summer 2015" .',
  },
  {
    shape: 'Work-available',
    remove: ['doi:full-1 dcterms:available'],
    add: 'doi:full-1 dcterms:available "2017-13-01"^^xsd:date .',
  },
  {
    shape: 'Work-availableText',
    severity: 'Warning',
    remove: ['doi:full-1 dcterms:available'],
    add: 'doi:full-1 dcterms:available "sometime" .',
  },
  {
    shape: 'Work-coverDate',
    remove: ['doi:full-1 prism:coverDate'],
    add: 'doi:full-1 prism:coverDate "2017-13"^^xsd:gYearMonth .',
  },
  {
    shape: 'Work-coverDateText',
    severity: 'Warning',
    remove: ['doi:full-1 prism:coverDate'],
    add: 'doi:full-1 prism:coverDate "Sept 2017" .',
  },
  {
    shape: 'Work-isAccessibleForFree',
    remove: ['doi:full-1 schema:isAccessibleForFree'],
    add: 'doi:full-1 schema:isAccessibleForFree "yes"^^xsd:boolean .',
  },
  {
    shape: 'Work-isAccessibleForFreeText',
    severity: 'Warning',
    remove: ['doi:full-1 schema:isAccessibleForFree'],
    add: 'doi:full-1 schema:isAccessibleForFree "yes" .',
  },
  { shape: 'Work-pageStart', add: 'doi:full-1 schema:pageStart "2" .' },
  { shape: 'SchemaPages-pageStart', remove: ['doi:full-1 bibo:pageStart'] },
  { shape: 'SchemaPages-pageEnd', remove: ['doi:full-1 bibo:pageEnd'] },
  { shape: 'Work-pageEnd', add: 'doi:full-1 schema:pageEnd "17" .' },
  { shape: 'Work-numPages', remove: ['doi:full-1 bibo:numPages'], add: 'doi:full-1 bibo:numPages 0 .' },
  { shape: 'Work-pagination', add: 'doi:chapter-1 schema:pagination "S15-S22" .' },
  { shape: 'SchemaPages-pagination', remove: ['doi:chapter-1 bibo:pages'] },
  { shape: 'Work-author', add: 'doi:full-1 schema:author publisher:springer .' },
  { shape: 'Work-authorList', add: 'doi:full-1 bibo:authorList a:authors-c6a54a02804c .' },
  {
    shape: 'Work-authorListMembers',
    add: 'doi:full-1 schema:author a:author-third-author . a:author-third-author a schema:Person ; schema:name "Third, Author" .',
  },
  { shape: 'ListCellShape', add: 'a:authors-c6a54a02804c schema:name "a list cell with a name" .' },
  // A cell named by its position (the model before issue 17).
  {
    shape: 'ListCellShape',
    remove: ['doi:full-1 bibo:authorList'],
    add: 'doi:full-1 bibo:authorList a:authors-1 . a:authors-1 rdf:first orcid:0000-0002-1825-0097 ; rdf:rest a:authors-c6a54a02804c .',
  },
  { shape: 'ListCell-first', add: 'a:authors-b2e8ea3a2bcf rdf:first a:author-spicer-rachel .' },
  { shape: 'ListCell-rest', remove: ['a:authors-c6a54a02804c rdf:rest'] },
  // A person twice (the order of the list is the authors' order: there is no wrong order).
  {
    shape: 'AuthorListOrderShape',
    remove: ['a:authors-c6a54a02804c rdf:first'],
    add: 'a:authors-c6a54a02804c rdf:first orcid:0000-0002-1825-0097 .',
  },
  // A list that does not end (a cycle).
  {
    shape: 'AuthorListOrderShape',
    remove: ['a:authors-c6a54a02804c rdf:rest'],
    add: 'a:authors-c6a54a02804c rdf:rest a:authors-b2e8ea3a2bcf .',
  },
  // Numbered authors: an authorship that is a literal, one without its person, two with one position, a gap.
  { shape: 'Work-authorship', add: 'doi:full-1 sr:authorship "1" .' },
  {
    shape: 'Work-authorshipMembers',
    remove: ['a:authorship-7c800f2f8793 schema:item'],
    add: 'a:authorship-7c800f2f8793 schema:item orcid:0000-0002-1825-0097 .',
  },
  { shape: 'Authorship-item', remove: ['a:authorship-7c800f2f8793 schema:item'] },
  {
    shape: 'Authorship-position',
    remove: ['a:authorship-7c800f2f8793 schema:position'],
    add: 'a:authorship-7c800f2f8793 schema:position "2" .',
  },
  {
    shape: 'Authorship-position',
    remove: ['a:authorship-fc8d0756fcbf schema:position'],
    add: 'a:authorship-fc8d0756fcbf schema:position 0 .',
  },
  {
    shape: 'AuthorPositionsShape',
    remove: ['a:authorship-7c800f2f8793 schema:position'],
    add: 'a:authorship-7c800f2f8793 schema:position 1 .',
  },
  {
    shape: 'AuthorPositionsShape',
    remove: ['a:authorship-7c800f2f8793 schema:position'],
    add: 'a:authorship-7c800f2f8793 schema:position 3 .',
  },
  { shape: 'Work-isPartOf', add: 'doi:full-1 schema:isPartOf volume:13 .' },
  { shape: 'Work-publisher', add: 'doi:full-1 schema:publisher a:author-spicer-rachel .' },
  { shape: 'Work-publisherImprint', add: 'doi:full-1 schema:publisherImprint a:author-spicer-rachel .' },
  { shape: 'Work-additionalType', add: 'doi:full-1 schema:additionalType "Review" .' },
  {
    shape: 'Work-additionalType',
    remove: ['doi:chapter-1 schema:additionalType'],
    add: 'doi:chapter-1 schema:additionalType "Chapter"@en .',
  },
  // The model before issue 17: the issue number and the volume number on the work.
  { shape: 'Work-noIssue', add: 'doi:full-1 bibo:issue "9" .' },
  { shape: 'Work-noVolumeNumber', add: 'doi:full-1 schema:volumeNumber "13" .' },
  // An article in a journal typed only as a creative work (a query for articles would miss it).
  {
    shape: 'WorkKindShape',
    remove: ['doi:full-1 rdf:type'],
    add: 'doi:full-1 a schema:CreativeWork , bibo:Document .',
  },
  { shape: 'Work-url', add: 'doi:full-1 schema:url "https://example.org/"@en .' },
  { shape: 'Work-urlText', severity: 'Warning', add: 'doi:full-1 schema:url "see the publisher\'s site" .' },
  { shape: 'Work-encoding', add: 'doi:full-1 schema:encoding <https://example.org/file.pdf> .' },
  { shape: 'Work-sameAs', add: 'doi:full-1 schema:sameAs "http://dx.doi.org/10.5555/full-1" .' },
  { shape: 'Work-keywords', add: 'doi:full-1 schema:keywords "" .' },
  { shape: 'Work-about', add: 'doi:full-1 schema:about a:author-spicer-rachel .' },
  { shape: 'Work-genre', add: 'doi:full-1 schema:genre 5 .' },
  { shape: 'Work-copyrightNotice', add: 'doi:full-1 schema:copyrightNotice "Someone else" .' },
  { shape: 'PagesEither-pageStart', add: 'doi:chapter-1 schema:pageStart "S15" .' },
  { shape: 'PagesEither-pageEnd', add: 'doi:chapter-1 schema:pageEnd "S22" .' },
  { shape: 'PagesEither-biboPageStart', add: 'doi:chapter-1 bibo:pageStart "S15" .' },
  { shape: 'PagesEither-biboPageEnd', add: 'doi:chapter-1 bibo:pageEnd "S22" .' },
  { shape: 'PagesEither-numPages', add: 'doi:chapter-1 bibo:numPages 8 .' },
  {
    shape: 'LanguageTagShape',
    remove: ['doi:full-1 schema:abstract', 'doi:full-1 bibo:abstract'],
    add: 'doi:full-1 schema:abstract "x"@e ; bibo:abstract "x"@e .',
  },
  // People and organisations
  { shape: 'PersonShape', add: '<https://example.org/people/jane> a schema:Person ; schema:name "Doe, Jane" .' },
  // An ORCID iD that is not the iD's own IRI (http, not https).
  {
    shape: 'PersonShape',
    add: 'doi:full-1 schema:author <http://orcid.org/0000-0002-1825-0097> . <http://orcid.org/0000-0002-1825-0097> a schema:Person ; schema:name "Carberry, Josiah" .',
  },
  { shape: 'Person-name', add: 'a:author-spicer-rachel schema:name "Spicer, Rachel"@en .' },
  { shape: 'Person-givenName', add: 'a:author-spicer-rachel schema:givenName "" .' },
  { shape: 'Person-familyName', add: 'a:author-spicer-rachel schema:familyName "" .' },
  { shape: 'Person-sameAs', add: 'a:author-spicer-rachel schema:sameAs <http://orcid.org/0000-0002-1825-0097> .' },
  {
    shape: 'Person-identifier',
    add: 'orcid:0000-0002-1825-0097 schema:identifier "https://orcid.org/0000-0002-1825-0097" .',
  },
  { shape: 'Person-identifier', add: 'a:author-spicer-rachel schema:identifier "0000-0002-1825-0097"@en .' },
  // A person whose IRI is an ORCID iD with a wrong check character (0097 is right) ...
  {
    shape: 'OrcidCheckDigitShape',
    add: 'doi:full-1 schema:author orcid:0000-0002-1825-0098 . orcid:0000-0002-1825-0098 a schema:Person ; schema:name "Carberry, Josiah" .',
  },
  // ... and one in schema:sameAs.
  {
    shape: 'OrcidCheckDigitShape',
    add: 'a:author-spicer-rachel schema:sameAs <https://orcid.org/0000-0002-1825-0098> .',
  },
  { shape: 'OrganizationShape', add: '[] a schema:Organization ; schema:name "Anonymous" .' },
  { shape: 'Organization-name', remove: ['publisher:springer-us schema:name'] },
  { shape: 'Organization-alternateName', add: 'publisher:springer schema:alternateName 1 .' },
  // Containers
  { shape: 'PeriodicalShape', add: '[] a schema:Periodical , bibo:Journal ; schema:name "Anonymous" .' },
  { shape: 'Periodical-name', add: 'journal:11306 schema:name "" .' },
  { shape: 'Periodical-issn', add: 'journal:11306 schema:issn "15733882" .' },
  {
    shape: 'Periodical-biboIssn',
    remove: ['journal:11306 bibo:issn'],
    add: 'journal:11306 bibo:issn "ISSN 1573-3882" .',
  },
  { shape: 'Periodical-eissn', add: 'journal:11306 bibo:eissn "1573-3899" .' },
  { shape: 'VolumeShape', add: '[] a schema:PublicationVolume ; schema:volumeNumber "1" .' },
  { shape: 'Volume-volumeNumber', remove: ['volume:13 schema:volumeNumber'] },
  { shape: 'Volume-isPartOf', add: 'volume:13 schema:isPartOf issue:9 .' },
  { shape: 'IssueShape', add: '[] a schema:PublicationIssue , bibo:Issue ; schema:issueNumber "1" .' },
  { shape: 'Issue-issueNumber', remove: ['issue:9 schema:issueNumber'] },
  { shape: 'Issue-isPartOf', remove: ['issue:9 schema:isPartOf'], add: 'issue:9 schema:isPartOf publisher:springer .' },
  { shape: 'BookShape', add: '[] a schema:Book , bibo:Book ; schema:name "Anonymous" .' },
  { shape: 'Book-name', add: 'isbn:9783319242774 schema:name "Protocols, 2nd edition" .' },
  { shape: 'Book-isbn', add: 'isbn:9783319242774 schema:isbn "ISBN unknown" .' },
  // An ISBN-13 with hyphens (the mapper writes the 13 digits).
  { shape: 'Book-isbn', add: 'isbn:9783319242774 schema:isbn "978-3-319-24277-4" .' },
  { shape: 'Book-volume', add: 'isbn:9783319242774 bibo:volume "3" .' },
  // The model before issue 17: a book's number in its series as schema:volumeNumber.
  {
    shape: 'Book-noVolumeNumber',
    remove: ['isbn:9783319242774 bibo:volume'],
    add: 'isbn:9783319242774 schema:volumeNumber "2" .',
  },
  { shape: 'Book-isPartOf', add: 'isbn:9783319242774 schema:isPartOf isbn:9783319242774 .' },
  { shape: 'BookSeriesShape', add: '[] a schema:BookSeries , bibo:Series ; schema:issn "1064-3745" .' },
  { shape: 'BookSeries-issn', add: 'series:7651 schema:issn "1064-374" .' },
  { shape: 'BookSeries-biboIssn', add: 'series:7651 bibo:issn "10643745" .' },
  { shape: 'BookSeries-eissn', add: 'series:7651 bibo:eissn "1940-6030" .' },
  // Files, disciplines, conferences
  {
    shape: 'MediaObjectShape',
    add: '[] a schema:MediaObject ; schema:contentUrl <https://example.org/f.pdf> ; schema:encodingFormat "application/pdf" .',
  },
  { shape: 'MediaObject-contentUrl', remove: ['a:encoding-61a547687c95 schema:contentUrl'] },
  { shape: 'MediaObject-encodingFormat', remove: ['a:encoding-61a547687c95 schema:encodingFormat'] },
  { shape: 'DefinedTermShape', add: '[] a schema:DefinedTerm ; schema:name "Anonymous" .' },
  { shape: 'DefinedTerm-identifier', add: 'discipline:3012 schema:identifier 3012 .' },
  { shape: 'DefinedTerm-name', add: 'discipline:3012 schema:name "" .' },
  { shape: 'EventShape', add: '[] a schema:Event , bibo:Conference ; schema:name "Anonymous" .' },
  { shape: 'Event-name', add: 'a:conference-b1c4a0d0347f schema:name "Metabolomics Conference 2017" .' },
  // The dataset description
  { shape: 'DatasetShape', base: 'dataset', add: '[] a void:Dataset ; dcterms:title "Anonymous" .' },
  { shape: 'Dataset-title', base: 'dataset', remove: ['dump:0123456789abcdef dcterms:title'] },
  { shape: 'Dataset-triples', base: 'dataset', add: 'dump:0123456789abcdef void:triples "many" .' },
  { shape: 'Dataset-entities', base: 'dataset', add: 'dump:0123456789abcdef void:entities -1 .' },
  {
    shape: 'Dataset-classes',
    base: 'dataset',
    remove: ['dump:0123456789abcdef void:classes'],
    add: 'dump:0123456789abcdef void:classes 2.5 .',
  },
  { shape: 'Dataset-rights', base: 'dataset', add: 'dump:0123456789abcdef dcterms:rights [] .' },
  {
    shape: 'Dataset-license',
    base: 'dataset',
    remove: ['dump:0123456789abcdef dcterms:license'],
    add: 'dump:0123456789abcdef dcterms:license "CC0" .',
  },
  { shape: 'Dataset-source', base: 'dataset', add: 'dump:0123456789abcdef dcterms:source "the service" .' },
  { shape: 'Dataset-wasGeneratedBy', base: 'dataset', add: 'dump:0123456789abcdef prov:wasGeneratedBy d:export-2 .' },
  { shape: 'Dataset-distribution', base: 'dataset', add: 'dump:0123456789abcdef dcat:distribution "a file" .' },
  { shape: 'DistributionShape', base: 'dataset', add: '[] a dcat:Distribution .' },
  { shape: 'Distribution-mediaType', base: 'dataset', add: 'd:distribution dcat:mediaType "text/turtle" .' },
  { shape: 'ActivityShape', base: 'dataset', add: '[] a prov:Activity .' },
  {
    shape: 'Activity-startedAtTime',
    base: 'dataset',
    remove: ['d:export prov:startedAtTime'],
    add: 'd:export prov:startedAtTime "yesterday"^^xsd:dateTime .',
  },
  {
    shape: 'Activity-endedAtTime',
    base: 'dataset',
    remove: ['d:export prov:endedAtTime'],
    add: 'd:export prov:endedAtTime "2026-11-22T03:36:10Z" .',
  },
  { shape: 'Activity-used', base: 'dataset', add: 'd:export prov:used "the service" .' },
];

import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import type { ValidationOutcome, ValidationResult } from '../../src/shacl/RecordValidator.js';
import { recordKeyOf } from '../../src/group/groupRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/shacl/', import.meta.url));

/** A fixture of test/fixtures/shacl/ as text. */
export function fixtureText(name: string): string {
  return readFileSync(`${FIXTURES}${name}`, 'utf8');
}

/** A fixture of test/fixtures/shacl/ as quads. */
export function fixtureQuads(name: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle' }).parse(fixtureText(name));
}

function expand(name: string): string {
  const colon = name.indexOf(':');
  const ns = CASE_PREFIXES[name.slice(0, colon)];
  if (ns === undefined) throw new Error(`unknown prefix in ${name}`);
  return ns + name.slice(colon + 1);
}

/** The quads of a case: its base fixture, less `remove`, plus `add`. */
export function caseQuads(c: ShapeCase): RDF.Quad[] {
  const base = fixtureQuads(c.base === 'dataset' ? 'dataset-description.ttl' : 'full-records.ttl');
  const removals = (c.remove ?? []).map((r) => r.split(' ').map(expand));
  for (const [s, p] of removals) {
    if (!base.some((q) => q.subject.value === s && q.predicate.value === p))
      throw new Error(`case ${c.shape}: nothing to remove at ${s} ${p}`);
  }
  const kept = base.filter((q) => !removals.some(([s, p]) => q.subject.value === s && q.predicate.value === p));
  if (!c.add) return kept;
  const prefixes = Object.entries(CASE_PREFIXES)
    .map(([p, ns]) => `@prefix ${p}: <${ns}> .`)
    .join('\n');
  const out = kept;
  const lastIndex = (test: (x: RDF.Quad) => boolean) => {
    for (let i = out.length - 1; i >= 0; i--) if (test(out[i]!)) return i;
    return -1;
  };
  for (const q of new Parser({ format: 'text/turtle' }).parse(`${prefixes}\n${c.add}`)) {
    let at = lastIndex((x) => x.subject.equals(q.subject));
    if (at < 0) at = lastIndex((x) => x.object.equals(q.subject));
    out.splice(at < 0 ? out.length : at + 1, 0, q);
  }
  return out;
}

/** A result as `shape path severity value` (local shape name, SPARQL path, value as `<iri>` or JSON string). */
export function summary(r: ValidationResult): string {
  const value = !r.value ? '-' : r.value.termType === 'Literal' ? JSON.stringify(r.value.value) : `<${r.value.value}>`;
  return `${r.shape.value.split('#')[1]} ${r.path ?? '-'} ${r.severity} ${value}`;
}

/** N-Triples as the toolkit writes it: the quads of a record together, the shared nodes it names (subjects of no record) among them. */
export function recordDump(quads: RDF.Quad[]): string {
  const groups = new Map<string, RDF.Quad[]>();
  let current = '';
  for (const q of quads) {
    const k = (current = recordKeyOf(q.subject) ?? current);
    groups.set(k, [...(groups.get(k) ?? []), q]);
  }
  const w = serializerFor('ntriples').createWriter();
  return w.start() + [...groups.values()].map((g) => w.write(g)).join('') + w.end();
}

/** A record's outcome as comparable values: its key, whether it conforms, its results (focus node and {@link summary}), sorted. */
export function comparableOutcome(key: string | undefined, o: ValidationOutcome) {
  return {
    key,
    conforms: o.conforms,
    results: o.results.map((r) => `${r.focusNode.value} ${summary(r)}`).sort(),
  };
}
