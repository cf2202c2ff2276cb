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
  /** Turtle triples to add (the prefixes of {@link CASE_PREFIXES} are declared). */
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
  doi: 'https://doi.org/10.5555/',
  a: 'https://w3id.org/scholarly-rdf/doi/10.5555/full-1#',
  c: 'https://w3id.org/scholarly-rdf/doi/10.5555/chapter-1#',
  d: 'https://w3id.org/scholarly-rdf/dump/0123456789abcdef#',
  dump: 'https://w3id.org/scholarly-rdf/dump/',
};

/** Node shapes without constraints of their own (only `sh:property`): their cases are those of their property shapes. */
export const SHAPES_WITHOUT_OWN_CONSTRAINTS = ['PagesEitherFormShape'];

export const SHAPE_CASES: readonly ShapeCase[] = [
  // Ownership: a node whose work (or whose referrer) is missing
  { shape: 'Person-owner', remove: ['doi:full-1 schema:author'] },
  { shape: 'Organization-owner', remove: ['doi:full-1 schema:publisher'] },
  { shape: 'Periodical-owner', add: 'a:orphan-journal a schema:Periodical , bibo:Journal ; schema:name "Orphan" .' },
  { shape: 'Volume-owner', add: 'a:orphan-volume a schema:PublicationVolume ; schema:volumeNumber "1" .' },
  { shape: 'Issue-owner', add: 'a:orphan-issue a schema:PublicationIssue , bibo:Issue ; schema:issueNumber "1" .' },
  { shape: 'Book-owner', add: 'a:orphan-book a schema:Book , bibo:Book ; schema:name "Orphan" .' },
  { shape: 'BookSeries-owner', add: 'a:orphan-series a schema:BookSeries , bibo:Series ; schema:issn "1064-3745" .' },
  { shape: 'MediaObject-owner', remove: ['doi:full-1 schema:encoding'] },
  { shape: 'DefinedTerm-owner', remove: ['doi:full-1 schema:about'] },
  { shape: 'Event-owner', remove: ['doi:full-1 bibo:presentedAt'] },
  { shape: 'ListCell-owner', add: 'a:authors-9 rdf:first a:author-1 ; rdf:rest rdf:nil .' },

  // The work
  { shape: 'WorkShape', add: '<https://example.org/work/1> a schema:ScholarlyArticle ; bibo:doi "10.5555/x" ; schema:name "x" ; dcterms:title "x" .' },
  { shape: 'Work-type', add: 'doi:full-1 a schema:CreativeWork .' },
  { shape: 'Work-doi', remove: ['doi:full-1 bibo:doi'], add: 'doi:full-1 bibo:doi "doi:10.5555/full-1" .' },
  { shape: 'Work-identifier', add: 'doi:full-1 schema:identifier "doi:10.5555/other" .' },
  { shape: 'DoiAgreementShape', remove: ['doi:full-1 schema:identifier'], add: 'doi:full-1 schema:identifier "doi:10.5555/full-2" .' },
  { shape: 'Work-name', remove: ['doi:full-1 schema:name'] },
  { shape: 'Work-title', remove: ['doi:full-1 dcterms:title'] },
  { shape: 'Work-abstract', remove: ['doi:full-1 bibo:abstract'] },
  { shape: 'Work-inLanguage', add: 'doi:full-1 schema:inLanguage "de" .' },
  { shape: 'Work-inLanguageTag', severity: 'Warning', remove: ['doi:full-1 schema:inLanguage'], add: 'doi:full-1 schema:inLanguage "English language" .' },
  { shape: 'Work-datePublished', remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'], add: 'doi:full-1 schema:datePublished "2015-02-30"^^xsd:date ; dcterms:issued "2015-02-30"^^xsd:date .' },
  { shape: 'Work-datePublishedText', severity: 'Warning', remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'], add: 'doi:full-1 schema:datePublished "2015" ; dcterms:issued "2015" .' },
  { shape: 'Work-issued', add: 'doi:full-1 dcterms:issued "2017-08-10"^^xsd:date .' },
  { shape: 'Work-datePublished', remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'], add: 'doi:full-1 schema:datePublished "2015-13"^^xsd:gYearMonth ; dcterms:issued "2015-13"^^xsd:gYearMonth .' },
  { shape: 'Work-issuedText', severity: 'Warning', remove: ['doi:full-1 schema:datePublished', 'doi:full-1 dcterms:issued'], add: 'doi:full-1 schema:datePublished "Summer 2015" ; dcterms:issued "Summer 2015" .' },
  { shape: 'Work-available', remove: ['doi:full-1 dcterms:available'], add: 'doi:full-1 dcterms:available "2017-13-01"^^xsd:date .' },
  { shape: 'Work-availableText', severity: 'Warning', remove: ['doi:full-1 dcterms:available'], add: 'doi:full-1 dcterms:available "sometime" .' },
  { shape: 'Work-coverDate', remove: ['doi:full-1 prism:coverDate'], add: 'doi:full-1 prism:coverDate "2017-13"^^xsd:gYearMonth .' },
  { shape: 'Work-coverDateText', severity: 'Warning', remove: ['doi:full-1 prism:coverDate'], add: 'doi:full-1 prism:coverDate "Sept 2017" .' },
  { shape: 'Work-isAccessibleForFree', remove: ['doi:full-1 schema:isAccessibleForFree'], add: 'doi:full-1 schema:isAccessibleForFree "yes"^^xsd:boolean .' },
  { shape: 'Work-isAccessibleForFreeText', severity: 'Warning', remove: ['doi:full-1 schema:isAccessibleForFree'], add: 'doi:full-1 schema:isAccessibleForFree "yes" .' },
  { shape: 'Work-pageStart', remove: ['doi:full-1 bibo:pageStart'] },
  { shape: 'Work-pageEnd', add: 'doi:full-1 schema:pageEnd "17" .' },
  { shape: 'Work-numPages', remove: ['doi:full-1 bibo:numPages'], add: 'doi:full-1 bibo:numPages 0 .' },
  { shape: 'Work-pagination', remove: ['doi:chapter-1 bibo:pages'] },
  { shape: 'Work-author', add: 'doi:full-1 schema:author a:publisher .' },
  { shape: 'Work-authorList', add: 'doi:full-1 bibo:authorList a:authors-2 .' },
  { shape: 'Work-authorListMembers', add: 'doi:full-1 schema:author a:author-3 . a:author-3 a schema:Person ; schema:name "Third, Author" .' },
  { shape: 'ListCellShape', add: 'a:authors-2 schema:name "a list cell with a name" .' },
  { shape: 'ListCell-first', add: 'a:authors-1 rdf:first a:author-2 .' },
  { shape: 'ListCell-rest', remove: ['a:authors-2 rdf:rest'] },
  { shape: 'AuthorListOrderShape', remove: ['a:authors-1 rdf:first', 'a:authors-2 rdf:first'], add: 'a:authors-1 rdf:first a:author-2 . a:authors-2 rdf:first a:author-1 .' },
  { shape: 'Work-isPartOf', add: 'doi:full-1 schema:isPartOf a:volume .' },
  { shape: 'Work-publisher', add: 'doi:full-1 schema:publisher a:author-1 .' },
  { shape: 'Work-url', add: 'doi:full-1 schema:url "https://example.org/"@en .' },
  { shape: 'Work-urlText', severity: 'Warning', add: 'doi:full-1 schema:url "see the publisher\'s site" .' },
  { shape: 'Work-encoding', add: 'doi:full-1 schema:encoding <https://example.org/file.pdf> .' },
  { shape: 'Work-sameAs', add: 'doi:full-1 schema:sameAs "http://dx.doi.org/10.5555/full-1" .' },
  { shape: 'Work-keywords', add: 'doi:full-1 schema:keywords "" .' },
  { shape: 'Work-about', add: 'doi:full-1 schema:about a:author-1 .' },
  { shape: 'Work-genre', add: 'doi:full-1 schema:genre 5 .' },
  { shape: 'Work-copyrightNotice', add: 'doi:full-1 schema:copyrightNotice "Someone else" .' },
  { shape: 'PagesEither-pageStart', add: 'doi:chapter-1 schema:pageStart "S15" .' },
  { shape: 'PagesEither-pageEnd', add: 'doi:chapter-1 schema:pageEnd "S22" .' },
  { shape: 'PagesEither-biboPageStart', add: 'doi:chapter-1 bibo:pageStart "S15" .' },
  { shape: 'PagesEither-biboPageEnd', add: 'doi:chapter-1 bibo:pageEnd "S22" .' },
  { shape: 'PagesEither-numPages', add: 'doi:chapter-1 bibo:numPages 8 .' },
  { shape: 'LanguageTagShape', remove: ['doi:full-1 schema:abstract', 'doi:full-1 bibo:abstract'], add: 'doi:full-1 schema:abstract "x"@e ; bibo:abstract "x"@e .' },
  // People and organisations
  { shape: 'PersonShape', add: '<https://example.org/people/jane> a schema:Person ; schema:name "Doe, Jane" .' },
  { shape: 'Person-name', add: 'a:author-2 schema:name "Rachel Spicer" .' },
  { shape: 'Person-givenName', add: 'a:author-2 schema:givenName "R." .' },
  { shape: 'Person-familyName', add: 'a:author-2 schema:familyName "" .' },
  { shape: 'Person-sameAs', add: 'a:author-2 schema:sameAs <http://orcid.org/0000-0002-1825-0097> .' },
  { shape: 'Person-identifier', add: 'a:author-1 schema:identifier "https://orcid.org/0000-0002-1825-0097" .' },
  { shape: 'OrcidCheckDigitShape', remove: ['a:author-1 schema:sameAs'], add: 'a:author-1 schema:sameAs <https://orcid.org/0000-0002-1825-0098> .' },
  { shape: 'OrganizationShape', add: '[] a schema:Organization ; schema:name "Anonymous" .' },
  { shape: 'Organization-name', remove: ['a:publisher schema:name'] },
  { shape: 'Organization-alternateName', add: 'a:publisher schema:alternateName 1 .' },
  // Containers
  { shape: 'PeriodicalShape', add: '[] a schema:Periodical , bibo:Journal ; schema:name "Anonymous" .' },
  { shape: 'Periodical-name', add: 'a:periodical schema:name "Metabolomics (Online)" .' },
  { shape: 'Periodical-issn', add: 'a:periodical schema:issn "15733882" .' },
  { shape: 'Periodical-biboIssn', remove: ['a:periodical bibo:issn'], add: 'a:periodical bibo:issn "ISSN 1573-3882" .' },
  { shape: 'Periodical-eissn', add: 'a:periodical bibo:eissn "1573-3899" .' },
  { shape: 'VolumeShape', add: '[] a schema:PublicationVolume ; schema:volumeNumber "1" .' },
  { shape: 'Volume-volumeNumber', remove: ['a:volume schema:volumeNumber'] },
  { shape: 'Volume-isPartOf', add: 'a:volume schema:isPartOf a:issue .' },
  { shape: 'IssueShape', add: '[] a schema:PublicationIssue , bibo:Issue ; schema:issueNumber "1" .' },
  { shape: 'Issue-issueNumber', remove: ['a:issue schema:issueNumber'] },
  { shape: 'Issue-isPartOf', remove: ['a:issue schema:isPartOf'], add: 'a:issue schema:isPartOf a:publisher .' },
  { shape: 'BookShape', add: '[] a schema:Book , bibo:Book ; schema:name "Anonymous" .' },
  { shape: 'Book-name', add: 'c:book schema:name "Protocols, 2nd edition" .' },
  { shape: 'Book-isbn', add: 'c:book schema:isbn "ISBN unknown" .' },
  { shape: 'Book-volumeNumber', add: 'c:book schema:volumeNumber "3" .' },
  { shape: 'Book-isPartOf', add: 'c:book schema:isPartOf c:book .' },
  { shape: 'BookSeriesShape', add: '[] a schema:BookSeries , bibo:Series ; schema:issn "1064-3745" .' },
  { shape: 'BookSeries-issn', add: 'c:series schema:issn "1064-374" .' },
  { shape: 'BookSeries-biboIssn', add: 'c:series bibo:issn "10643745" .' },
  { shape: 'BookSeries-eissn', add: 'c:series bibo:eissn "1940-6030" .' },
  // Files, disciplines, conferences
  { shape: 'MediaObjectShape', add: '[] a schema:MediaObject ; schema:contentUrl <https://example.org/f.pdf> ; schema:encodingFormat "application/pdf" .' },
  { shape: 'MediaObject-contentUrl', remove: ['a:pdf schema:contentUrl'] },
  { shape: 'MediaObject-encodingFormat', remove: ['a:pdf schema:encodingFormat'] },
  { shape: 'DefinedTermShape', add: '[] a schema:DefinedTerm ; schema:name "Anonymous" .' },
  { shape: 'DefinedTerm-identifier', add: 'a:discipline-3012 schema:identifier 3012 .' },
  { shape: 'DefinedTerm-name', add: 'a:discipline-3012 schema:name "" .' },
  { shape: 'EventShape', add: '[] a schema:Event , bibo:Conference ; schema:name "Anonymous" .' },
  { shape: 'Event-name', add: 'a:conference-1 schema:name "Metabolomics Conference 2017" .' },
  // The dataset description
  { shape: 'DatasetShape', base: 'dataset', add: '[] a void:Dataset ; dcterms:title "Anonymous" .' },
  { shape: 'Dataset-title', base: 'dataset', remove: ['dump:0123456789abcdef dcterms:title'] },
  { shape: 'Dataset-triples', base: 'dataset', remove: ['dump:0123456789abcdef void:triples'], add: 'dump:0123456789abcdef void:triples "many" .' },
  { shape: 'Dataset-entities', base: 'dataset', remove: ['dump:0123456789abcdef void:entities'], add: 'dump:0123456789abcdef void:entities -1 .' },
  { shape: 'Dataset-classes', base: 'dataset', remove: ['dump:0123456789abcdef void:classes'], add: 'dump:0123456789abcdef void:classes 2.5 .' },
  { shape: 'Dataset-rights', base: 'dataset', add: 'dump:0123456789abcdef dcterms:rights [] .' },
  { shape: 'Dataset-source', base: 'dataset', add: 'dump:0123456789abcdef dcterms:source "the service" .' },
  { shape: 'Dataset-wasGeneratedBy', base: 'dataset', add: 'dump:0123456789abcdef prov:wasGeneratedBy d:export-2 .' },
  { shape: 'Dataset-distribution', base: 'dataset', add: 'dump:0123456789abcdef dcat:distribution "a file" .' },
  { shape: 'DistributionShape', base: 'dataset', add: '[] a dcat:Distribution .' },
  { shape: 'Distribution-mediaType', base: 'dataset', add: 'd:distribution dcat:mediaType "text/turtle" .' },
  { shape: 'ActivityShape', base: 'dataset', add: '[] a prov:Activity .' },
  { shape: 'Activity-startedAtTime', base: 'dataset', remove: ['d:export prov:startedAtTime'], add: 'd:export prov:startedAtTime "yesterday"^^xsd:dateTime .' },
  { shape: 'Activity-endedAtTime', base: 'dataset', remove: ['d:export prov:endedAtTime'], add: 'd:export prov:endedAtTime "2026-11-22T03:36:10Z" .' },
  { shape: 'Activity-used', base: 'dataset', add: 'd:export prov:used "the service" .' },
];

import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import type { ValidationResult } from '../../src/shacl/RecordValidator.js';

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
    if (!base.some((q) => q.subject.value === s && q.predicate.value === p)) throw new Error(`case ${c.shape}: nothing to remove at ${s} ${p}`);
  }
  const kept = base.filter((q) => !removals.some(([s, p]) => q.subject.value === s && q.predicate.value === p));
  if (!c.add) return kept;
  const prefixes = Object.entries(CASE_PREFIXES).map(([p, ns]) => `@prefix ${p}: <${ns}> .`).join('\n');
  return [...kept, ...new Parser({ format: 'text/turtle' }).parse(`${prefixes}\n${c.add}`)];
}

/** A result as `shape path severity value` (local shape name, SPARQL path, value as `<iri>` or JSON string). */
export function summary(r: ValidationResult): string {
  const value = !r.value ? '-' : r.value.termType === 'Literal' ? JSON.stringify(r.value.value) : `<${r.value.value}>`;
  return `${r.shape.value.split('#')[1]} ${r.path ?? '-'} ${r.severity} ${value}`;
}
