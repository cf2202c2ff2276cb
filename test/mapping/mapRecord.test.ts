import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { unwrap } from '../../src/record/readRecords.js';

const S = 'http://schema.org/';
const B = 'http://purl.org/ontology/bibo/';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

function map(raw: Record<string, unknown>, options = {}) {
  return mapRecord(normalizeRecord({ doi: '10.1007/s1-2', ...raw }), options);
}
function objects(quads: RDF.Quad[], predicate: string, subject?: string): RDF.Term[] {
  return quads.filter((q) => q.predicate.value === predicate && (!subject || q.subject.value === subject)).map((q) => q.object);
}
function values(quads: RDF.Quad[], predicate: string, subject?: string): string[] {
  return objects(quads, predicate, subject).map((o) => o.value);
}
const WORK = 'https://doi.org/10.1007/s1-2';
const NODE = 'https://w3id.org/scholarly-rdf/doi/10.1007/s1-2#';

describe('mapRecord', () => {
  it('mints the work IRI from the DOI, percent-encoding what an IRI cannot hold', () => {
    expect(map({}).subject.value).toBe(WORK);
    expect(mapRecord(normalizeRecord({ doi: '10.1002/(SICI)1097<x>;2 #?%' })).subject.value).toBe(
      'https://doi.org/10.1002/(SICI)1097%3Cx%3E;2%20%23%3F%25',
    );
  });

  it('gives no blank nodes and the same quads for the same record', () => {
    const raw = JSON.parse(readFileSync('test/fixtures/service/metadata-json-article-metabolomics-2017.json', 'utf8')).records[0];
    const a = mapRecord(normalizeRecord(raw)).quads;
    const b = mapRecord(normalizeRecord(raw)).quads;
    expect(a.some((q) => q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode')).toBe(false);
    expect(a.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`)).toEqual(
      b.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`),
    );
  });

  it.each([
    ['Article', undefined, 'ScholarlyArticle', 'AcademicArticle'],
    ['Chapter', 'Book', 'Chapter', 'Chapter'],
    ['Book', undefined, 'Book', 'Book'],
    ['Protocol', undefined, 'CreativeWork', 'Document'],
    ['Protocol', 'Book', 'Chapter', 'Chapter'],
    ['Editorial', 'Journal', 'ScholarlyArticle', 'AcademicArticle'],
    [undefined, 'Journal', 'ScholarlyArticle', 'AcademicArticle'],
  ])('types contentType %s / publicationType %s as schema:%s + bibo:%s', (contentType, publicationType, s, b) => {
    const { quads } = map({ contentType, publicationType });
    expect(values(quads, `${RDF_NS}type`, WORK).sort()).toEqual([S + s, B + b].sort());
  });

  it('types a work of no type by its container keys: ISSN or journal id, an article; ISBN, a chapter', () => {
    const type = (extra: Record<string, string>) => values(map(extra).quads, `${RDF_NS}type`, WORK).sort();
    expect(type({ issn: '1573-3882', publicationName: 'Metabolomics' })).toEqual([`${B}AcademicArticle`, `${S}ScholarlyArticle`]);
    expect(type({ journalId: '11306' })).toEqual([`${B}AcademicArticle`, `${S}ScholarlyArticle`]);
    expect(type({ isbn: '978-3-319-24277-4' })).toEqual([`${S}Chapter`, `${B}Chapter`].sort());
    expect(type({ publicationName: 'Somewhere' })).toEqual([`${B}Document`, `${S}CreativeWork`]);
  });

  it('writes split pages as pageStart/pageEnd (schema and bibo) with numPages, and no pagination', () => {
    const { quads } = map({ startingPage: '3', endingPage: '39', volume: '9' });
    expect(values(quads, `${S}pageStart`)).toEqual(['3']);
    expect(values(quads, `${B}pageEnd`)).toEqual(['39']);
    expect(objects(quads, `${B}numPages`)).toEqual([expect.objectContaining({ value: '37', datatype: expect.objectContaining({ value: `${XSD}integer` }) })]);
    expect(values(quads, `${S}pagination`)).toEqual([]);
  });

  it('writes unsplit pages as pagination and bibo:pages, and no pageStart/pageEnd', () => {
    const { quads } = map({ startingPage: '1-6, 9', volume: '2' });
    expect(values(quads, `${S}pagination`)).toEqual(['1-6, 9']);
    expect(values(quads, `${B}pages`)).toEqual(['1-6, 9']);
    expect(values(quads, `${S}pageStart`)).toEqual([]);
    expect(values(quads, `${S}pageEnd`)).toEqual([]);
  });

  it('writes a lone article number as pageStart only', () => {
    const { quads } = map({ startingPage: 'e1234', volume: '5' });
    expect(values(quads, `${S}pageStart`)).toEqual(['e1234']);
    expect(values(quads, `${S}pageEnd`)).toEqual([]);
    expect(values(quads, `${B}numPages`)).toEqual([]);
  });

  it('does not link a mistyped ORCID iD (wrong check character) to orcid.org, and says why in a note', () => {
    const { quads, notes } = map({ creators: [{ creator: 'Doe, Jane', ORCID: '0000-0002-1825-0098' }] });
    expect(values(quads, `${S}sameAs`, `${NODE}author-1`)).toEqual([]);
    expect(values(quads, `${S}identifier`, `${NODE}author-1`)).toEqual(['0000-0002-1825-0098']);
    expect(notes).toContain('creators[0].ORCID: "0000-0002-1825-0098" has a wrong check character (expected 7); kept as an identifier only, not linked to orcid.org');
  });

  it('maps creators to persons with names, ORCID and an ordered bibo:authorList of minted cells', () => {
    const { quads } = map({ creators: [{ creator: 'Spicer, Rachel', ORCID: '0000-0002-1825-0097' }, { creator: 'Plato' }] });
    expect(values(quads, `${S}author`, WORK)).toEqual([`${NODE}author-1`, `${NODE}author-2`]);
    expect(values(quads, `${S}givenName`, `${NODE}author-1`)).toEqual(['Rachel']);
    expect(values(quads, `${S}familyName`, `${NODE}author-1`)).toEqual(['Spicer']);
    expect(values(quads, `${S}familyName`, `${NODE}author-2`)).toEqual([]);
    expect(values(quads, `${S}sameAs`, `${NODE}author-1`)).toEqual(['https://orcid.org/0000-0002-1825-0097']);
    expect(values(quads, `${S}identifier`, `${NODE}author-1`)).toEqual(['0000-0002-1825-0097']);
    // Walk the list.
    const list: string[] = [];
    let cell = values(quads, `${B}authorList`, WORK)[0];
    while (cell && cell !== `${RDF_NS}nil`) {
      list.push(values(quads, `${RDF_NS}first`, cell)[0]!);
      cell = values(quads, `${RDF_NS}rest`, cell)[0];
    }
    expect(list).toEqual([`${NODE}author-1`, `${NODE}author-2`]);
  });

  it('chains issue → volume → periodical with ISSNs, and puts chapters in a book', () => {
    const { quads } = map({ publicationName: 'Metabolomics', issn: '1573-3890', eIssn: '1573-3891', volume: '13', number: '9', journalId: '11306' });
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([`${NODE}issue`]);
    expect(values(quads, `${S}isPartOf`, `${NODE}issue`)).toEqual([`${NODE}volume`]);
    expect(values(quads, `${S}isPartOf`, `${NODE}volume`)).toEqual([`${NODE}periodical`]);
    expect(values(quads, `${S}issn`, `${NODE}periodical`).sort()).toEqual(['1573-3890', '1573-3891']);
    expect(values(quads, `${B}eissn`, `${NODE}periodical`)).toEqual(['1573-3891']);
    expect(values(quads, `${S}issueNumber`, `${NODE}issue`)).toEqual(['9']);
    expect(values(quads, `${S}volumeNumber`, `${NODE}volume`)).toEqual(['13']);
    const chapter = map({ contentType: 'Chapter', publicationType: 'Book', publicationName: 'Methods', printIsbn: '978-1-4939-0000-1' }).quads;
    expect(values(chapter, `${S}isPartOf`, WORK)).toEqual([`${NODE}book`]);
    expect(values(chapter, `${S}isbn`, `${NODE}book`)).toEqual(['978-1-4939-0000-1']);
  });

  it('keeps the ISSNs of a book in a series on a schema:BookSeries the book is part of', () => {
    const { quads } = map({ contentType: 'Protocol', publicationType: 'Book', publicationName: 'Plant Stress', issn: '1064-3745', eIssn: '1940-6029', printIsbn: '978-1-0716-3972-6', volume: '1351' });
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([`${NODE}book`]);
    expect(values(quads, `${S}isPartOf`, `${NODE}book`)).toEqual([`${NODE}series`]);
    expect(values(quads, `${RDF_NS}type`, `${NODE}series`).sort()).toEqual([`${B}Series`, `${S}BookSeries`]);
    expect(values(quads, `${S}issn`, `${NODE}series`).sort()).toEqual(['1064-3745', '1940-6029']);
    expect(values(quads, `${B}issn`, `${NODE}series`)).toEqual(['1064-3745']);
    expect(values(quads, `${B}eissn`, `${NODE}series`)).toEqual(['1940-6029']);
    expect(values(quads, `${S}volumeNumber`, `${NODE}book`)).toEqual(['1351']);
  });

  it('types partial dates as the service sends them: a year xsd:gYear, a month xsd:gYearMonth, in every date field', () => {
    const { quads, notes } = map({ publicationDate: '2024', onlineDate: '2024-03', coverDate: '2024', openaccess: 'true' });
    const literal = (p: string) => objects(quads, p)[0] as RDF.Literal;
    expect([literal(`${S}datePublished`).value, literal(`${S}datePublished`).datatype.value]).toEqual(['2024', `${XSD}gYear`]);
    expect(literal('http://purl.org/dc/terms/available').datatype.value).toBe(`${XSD}gYearMonth`);
    expect(literal('http://prismstandard.org/namespaces/basic/2.0/coverDate').datatype.value).toBe(`${XSD}gYear`);
    expect(notes.filter((n) => /date/i.test(n))).toEqual([]);
    expect((objects(map({ publicationDate: '2024-13' }).quads, `${S}datePublished`)[0] as RDF.Literal).datatype.value).toBe(`${XSD}string`);
  });

  it('types dates and open access, and keeps malformed values as plain literals', () => {
    const { quads, notes } = map({ publicationDate: '2017-08-09', onlineDate: '2015-02-30', coverDate: '2017-09', openaccess: 'true' });
    const dt = (p: string) => (objects(quads, p)[0] as RDF.Literal).datatype.value;
    expect(dt(`${S}datePublished`)).toBe(`${XSD}date`);
    expect(dt('http://purl.org/dc/terms/available')).toBe(`${XSD}string`);
    expect(dt('http://prismstandard.org/namespaces/basic/2.0/coverDate')).toBe(`${XSD}gYearMonth`);
    expect(dt(`${S}isAccessibleForFree`)).toBe(`${XSD}boolean`);
    expect(notes.join('\n')).toMatch(/onlineDate/);
    expect(dt.call(null, `${S}isAccessibleForFree`)).toBe(`${XSD}boolean`);
    expect((objects(map({ openaccess: 'yes' }).quads, `${S}isAccessibleForFree`)[0] as RDF.Literal).datatype.value).toBe(`${XSD}string`);
  });

  it('tags title and abstract with a valid language, and strips a glued heading', () => {
    const { quads } = map({ title: 'Titel', abstract: 'ZusammenfassungWir zeigen.', language: 'de' });
    expect(objects(quads, `${S}name`)).toEqual([expect.objectContaining({ value: 'Titel', language: 'de' })]);
    expect(objects(quads, `${S}abstract`)).toEqual([expect.objectContaining({ value: 'Wir zeigen.', language: 'de' })]);
    expect(objects(map({ title: 'T', language: 'not a tag' }).quads, `${S}name`)).toEqual([expect.objectContaining({ language: '' })]);
  });

  it('maps html to schema:url, pdf to a media object, the resolver to sameAs', () => {
    const { quads } = map({
      url: [
        { format: 'html', platform: 'web', value: 'http://link.springer.com/x' },
        { format: 'pdf', platform: 'web', value: 'http://link.springer.com/x.pdf' },
        { format: '', platform: '', value: 'http://dx.doi.org/10.1007/s1-2' },
      ],
    });
    expect(values(quads, `${S}url`, WORK)).toEqual(['http://link.springer.com/x']);
    expect(values(quads, `${S}encoding`, WORK)).toEqual([`${NODE}pdf`]);
    expect(values(quads, `${S}encodingFormat`, `${NODE}pdf`)).toEqual(['application/pdf']);
    expect(values(quads, `${S}contentUrl`, `${NODE}pdf`)).toEqual(['http://link.springer.com/x.pdf']);
    expect(values(quads, `${S}sameAs`, WORK)).toEqual(['http://dx.doi.org/10.1007/s1-2']);
  });

  it('makes a book work part of its series, with its own ISBNs and volume (no #book node of its own)', () => {
    const { quads } = map({ contentType: 'Book', title: 'Plant Stress', publicationName: 'Methods in Molecular Biology', issn: '1064-3745', printIsbn: '978-1-0716-3972-6', volume: '1351' });
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([`${NODE}series`]);
    expect(values(quads, `${S}name`, `${NODE}series`)).toEqual(['Methods in Molecular Biology']);
    expect(values(quads, `${S}isbn`, WORK)).toEqual(['978-1-0716-3972-6']);
    expect(values(quads, `${S}volumeNumber`, WORK)).toEqual(['1351']);
    expect(quads.some((q) => q.subject.value === `${NODE}book`)).toBe(false);
    // A publication name that is the book's own title names no series.
    const alone = map({ contentType: 'Book', title: 'Plant Stress', publicationName: 'Plant Stress', printIsbn: '978-1-0716-3972-6' }).quads;
    expect(values(alone, `${S}isPartOf`, WORK)).toEqual([]);
  });

  it('keeps an ISSN or ISBN that is none as sent (sr:<field>), with a note, and tidies an unhyphenated ISSN', () => {
    const { quads, notes } = map({ publicationName: 'J', issn: 'n/a', eIssn: '1573389x', printIsbn: 'ISBN unknown', contentType: 'Article' });
    expect(values(quads, `${S}issn`, `${NODE}periodical`)).toEqual(['1573-389X']);
    expect(values(quads, 'https://w3id.org/scholarly-rdf/vocab#issn', WORK)).toEqual(['n/a']);
    expect(values(quads, 'https://w3id.org/scholarly-rdf/vocab#printIsbn', WORK)).toEqual(['ISBN unknown']);
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/^issn: "n\/a" is not an ISSN/), expect.stringMatching(/^printIsbn: "ISBN unknown" is not an ISBN/)]));
  });

  it('keeps an identifier that names another DOI as sr:identifier, with a note; schema:identifier names the work\'s DOI', () => {
    const { quads, notes } = map({ identifier: 'doi:10.1007/other' });
    expect(values(quads, `${S}identifier`, WORK)).toEqual(['doi:10.1007/s1-2']);
    expect(values(quads, 'https://w3id.org/scholarly-rdf/vocab#identifier', WORK)).toEqual(['doi:10.1007/other']);
    expect(notes.some((n) => n.startsWith('identifier: "doi:10.1007/other" does not name the DOI'))).toBe(true);
    expect(values(map({ identifier: 'DOI:10.1007/S1-2' }).quads, `${S}identifier`, WORK)).toEqual(['DOI:10.1007/S1-2']);
  });

  it('never merges two disciplines into one node (an id equal to another\'s position, an id twice)', () => {
    const { quads } = map({ disciplines: [{ term: 'Physics' }, { id: '1', term: 'Chemistry' }, { id: '1', term: 'Chemistry' }, { id: '1', term: 'Biology' }] });
    const about = values(quads, `${S}about`, WORK);
    expect(about).toEqual([`${NODE}discipline-n1`, `${NODE}discipline-1`, `${NODE}discipline-n4`]);
    for (const node of about) expect(values(quads, `${S}name`, node)).toHaveLength(1);
  });

  it('maps publisher, subjects (deduplicated), disciplines, genre, copyright and conferenceInfo', () => {
    const { quads } = map({
      publisher: 'Springer',
      publisherName: 'Springer Nature',
      subjects: ['Chemistry', 'Chemistry', 'Physics'],
      disciplines: [{ id: '1', term: 'Chemistry' }],
      genre: ['OriginalPaper'],
      copyright: '© 2017',
      conferenceInfo: [{ confName: 'ISWC 2017' }],
    });
    expect(values(quads, `${S}name`, `${NODE}publisher`)).toEqual(['Springer Nature']);
    expect(values(quads, `${S}alternateName`, `${NODE}publisher`)).toEqual(['Springer']);
    expect(values(quads, `${S}keywords`)).toEqual(['Chemistry', 'Physics']);
    expect(values(quads, `${S}name`, `${NODE}discipline-1`)).toEqual(['Chemistry']);
    expect(values(quads, `${S}genre`)).toEqual(['OriginalPaper']);
    expect(values(quads, `${S}copyrightNotice`)).toEqual(['© 2017']);
    expect(values(quads, `${S}name`, `${NODE}conference-1`)).toEqual(['ISWC 2017']);
  });

  it('uses https://schema.org/ and another base when asked', () => {
    const { quads } = map({ creators: [{ creator: 'A' }] }, { schemaScheme: 'https', base: 'http://example.org/' });
    expect(values(quads, 'https://schema.org/author')).toEqual(['http://example.org/doi/10.1007/s1-2#author-1']);
  });

  it('rejects a record without a DOI, naming the field', () => {
    expect(() => mapRecord(normalizeRecord({ title: 'x' }), { recordLabel: 'in.json#2' })).toThrow(MappingError);
    expect(() => mapRecord(normalizeRecord({ doi: 'hello' }))).toThrow(/field doi/);
  });

  it('converts every shared real fixture without loss: each non-empty field value shows up in the output', () => {
    for (const file of [
      'metadata-json-article-metabolomics-2017.json',
      'metadata-json-2023-record-only-computational-visual-media.json',
      'meta-v1-2015-articles-last-page-s701-2records.json',
    ]) {
      const parsed = JSON.parse(readFileSync(`test/fixtures/service/${file}`, 'utf8'));
      for (const item of unwrap(parsed)) {
        if (item.kind !== 'record') continue;
        const raw = item.raw as Record<string, unknown>;
        const { quads, unknownFields } = mapRecord(normalizeRecord(raw));
        expect(unknownFields).toEqual([]);
        const text = quads.map((q) => q.object.value).join('\n');
        const leaves: [string, string][] = [];
        const walk = (path: string, v: unknown) => {
          if (typeof v === 'string') leaves.push([path, v]);
          else if (Array.isArray(v)) v.forEach((x, i) => walk(`${path}[${i}]`, x));
          else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(`${path}.${k}`, x);
        };
        walk('', raw);
        for (const [path, value] of leaves) {
          if (value.trim() === '' || /\.(format|platform)$/.test(path)) continue;
          if (path === '.startingPage' && value === '1' && !raw.volume) continue; // the online-first placeholder, noted
          const expected = path === '.abstract' ? value.replace(/^Abstract/, '') : value;
          expect(text, `${file} ${path}`).toContain(expected);
        }
      }
    }
  });
});
