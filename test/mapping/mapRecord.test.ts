import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { unwrap } from '../../src/record/unwrap.js';

const S = 'http://schema.org/';
const B = 'http://purl.org/ontology/bibo/';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

function map(raw: Record<string, unknown>, options = {}) {
  return mapRecord(normalizeRecord({ doi: '10.1007/s1-2', ...raw }), options);
}
function objects(quads: RDF.Quad[], predicate: string, subject?: string): RDF.Term[] {
  return quads
    .filter((q) => q.predicate.value === predicate && (!subject || q.subject.value === subject))
    .map((q) => q.object);
}
function values(quads: RDF.Quad[], predicate: string, subject?: string): string[] {
  return objects(quads, predicate, subject).map((o) => o.value);
}
const WORK = 'https://doi.org/10.1007/s1-2';
const BASE = 'https://w3id.org/scholarly-rdf/';
const NODE = `${BASE}doi/10.1007/s1-2#`;
const SR = 'https://w3id.org/scholarly-rdf/vocab#';

/** The members of the work's bibo:authorList, in order. */
function authorList(quads: RDF.Quad[]): string[] {
  const list: string[] = [];
  let cell = values(quads, `${B}authorList`, WORK)[0];
  while (cell && cell !== `${RDF_NS}nil` && list.length < 1000) {
    list.push(values(quads, `${RDF_NS}first`, cell)[0]!);
    cell = values(quads, `${RDF_NS}rest`, cell)[0];
  }
  return list;
}

describe('mapRecord', () => {
  it("makes its quads with the toolkit's own factory by default: stored fields, equal to n3's quads of the same record", () => {
    const raw = {
      title: 'T',
      language: 'EN',
      creators: [{ creator: 'Doe, J.' }],
      publicationDate: '2020-01-02',
      url: [{ format: 'pdf', value: 'http://x.org/a.pdf' }],
    };
    const ours = map(raw).quads;
    const theirs = map(raw, { factory: DataFactory }).quads;
    expect(ours).toHaveLength(theirs.length);
    ours.forEach((q, i) =>
      expect(q.equals(theirs[i]!), `${q.subject.value} ${q.predicate.value} ${q.object.value}`).toBe(true),
    );
    const title = objects(ours, `${S}name`, WORK)[0] as RDF.Literal;
    expect(Object.keys(title)).toEqual(expect.arrayContaining(['value', 'language', 'datatype']));
    // the term type is the class's constant, not a field of each term
    expect(Object.keys(title)).not.toContain('termType');
    expect(title.termType).toBe('Literal');
    expect(title.language).toBe('en');
  });

  it('mints the work IRI from the DOI, percent-encoding what an IRI cannot hold', () => {
    expect(map({}).subject.value).toBe(WORK);
    expect(mapRecord(normalizeRecord({ doi: '10.1002/(SICI)1097<x>;2 #?%' })).subject.value).toBe(
      'https://doi.org/10.1002/(SICI)1097%3Cx%3E;2%20%23%3F%25',
    );
  });

  it('gives no blank nodes and the same quads for the same record', () => {
    const raw = JSON.parse(readFileSync('test/fixtures/service/metadata-json-article-metabolomics-2017.json', 'utf8'))
      .records[0];
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
    expect(type({ issn: '1573-3882', publicationName: 'Metabolomics' })).toEqual([
      `${B}AcademicArticle`,
      `${S}ScholarlyArticle`,
    ]);
    expect(type({ journalId: '11306' })).toEqual([`${B}AcademicArticle`, `${S}ScholarlyArticle`]);
    expect(type({ isbn: '978-3-319-24277-4' })).toEqual([`${S}Chapter`, `${B}Chapter`].sort());
    expect(type({ title: 'Somewhere' })).toEqual([`${B}Document`, `${S}CreativeWork`]);
  });

  it('types a work in a journal as an article when contentType is missing, also on pages that send the book key set (empty ISBNs)', () => {
    const bookKeySet = {
      publicationName: 'BMC Cancer',
      printIsbn: '',
      electronicIsbn: '',
      isbn: '',
      volume: '18',
      startingPage: '12',
    };
    const { quads, notes } = map(bookKeySet);
    expect(values(quads, `${RDF_NS}type`, WORK).sort()).toEqual([`${B}AcademicArticle`, `${S}ScholarlyArticle`]);
    expect(notes.filter((n) => n.startsWith('contentType'))).toEqual([]);
    const journal = values(quads, `${S}isPartOf`, values(quads, `${S}isPartOf`, WORK)[0])[0]!;
    expect(values(quads, `${RDF_NS}type`, journal)).toContain(`${S}Periodical`);
    // A work the record places nowhere is a plain creative work, and says so.
    const plain = map({ contentType: 'Dataset', title: 'x' });
    expect(plain.notes).toContain(
      'contentType: "Dataset", and no journal or book the work is in; typed schema:CreativeWork, bibo:Document',
    );
  });

  it('writes split pages as pageStart/pageEnd (schema and bibo) with numPages, and no pagination', () => {
    const { quads } = map({ startingPage: '3', endingPage: '39', volume: '9' });
    expect(values(quads, `${S}pageStart`)).toEqual(['3']);
    expect(values(quads, `${B}pageEnd`)).toEqual(['39']);
    expect(objects(quads, `${B}numPages`)).toEqual([
      expect.objectContaining({ value: '37', datatype: expect.objectContaining({ value: `${XSD}integer` }) }),
    ]);
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
    expect(values(quads, `${S}author`, WORK)).toEqual([`${NODE}author-doe-jane`]);
    expect(values(quads, `${S}identifier`, `${NODE}author-doe-jane`)).toEqual(['0000-0002-1825-0098']);
    expect(
      quads.some(
        (q) => q.subject.value.startsWith('https://orcid.org/') || q.object.value.startsWith('https://orcid.org/'),
      ),
    ).toBe(false);
    expect(notes).toContain(
      'creators[0].ORCID: "0000-0002-1825-0098" has a wrong check character (expected 7); kept as an identifier only, not linked to orcid.org',
    );
  });

  it('makes an author with an ORCID iD the iD itself, one without a node named by the record and the name, in an ordered bibo:authorList', () => {
    const { quads } = map({
      creators: [
        { creator: 'Spicer, Rachel', ORCID: '0000-0002-1825-0097' },
        { creator: 'Plato' },
        { creator: 'Müller,  J.-P.' },
      ],
    });
    const orcid = 'https://orcid.org/0000-0002-1825-0097';
    expect(values(quads, `${S}author`, WORK)).toEqual([orcid, `${NODE}author-plato`, `${NODE}author-muller-j-p`]);
    expect(values(quads, `${S}givenName`, orcid)).toEqual(['Rachel']);
    expect(values(quads, `${S}familyName`, orcid)).toEqual(['Spicer']);
    expect(values(quads, `${S}familyName`, `${NODE}author-plato`)).toEqual([]);
    expect(values(quads, `${S}identifier`, orcid)).toEqual(['0000-0002-1825-0097']);
    expect(values(quads, `${S}sameAs`, orcid)).toEqual([]);
    expect(authorList(quads)).toEqual([orcid, `${NODE}author-plato`, `${NODE}author-muller-j-p`]);
  });

  it("keeps every identity across two harvests (an author inserted in front, the journal spelt another way): no person gets another's name or ORCID, the journal is one node", () => {
    const ann = { creator: 'Alpha, Ann', ORCID: '0000-0002-1825-0097' };
    const bob = { creator: 'Beta, Bob' };
    const gil = { creator: 'Gamma, Gil', ORCID: '0000-0001-5109-3700' };
    const before = map({ creators: [ann, bob], journalId: '11306', publicationName: 'Metabolomics' }).quads;
    const after = map({
      creators: [gil, bob, ann],
      journalId: '11306',
      publicationName: 'METABOLOMICS (Springer)',
    }).quads;
    const union = [...before, ...after];
    const subjects = new Set(
      union
        .filter((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${S}Person`)
        .map((q) => q.subject.value),
    );
    expect(subjects.size).toBe(3);
    for (const person of subjects) expect(new Set(values(union, `${S}name`, person)).size, person).toBe(1);
    expect(values(union, `${S}name`, 'https://orcid.org/0000-0002-1825-0097')).toEqual(['Alpha, Ann', 'Alpha, Ann']);
    expect(values(union, `${S}identifier`, 'https://orcid.org/0000-0001-5109-3700')).toEqual(['0000-0001-5109-3700']);
    expect(values(union, `${S}identifier`, `${NODE}author-beta-bob`)).toEqual([]);
    // Each list cell of the union has one first and one rest: two whole lists, no tangle.
    const cells = new Set(union.filter((q) => q.predicate.value === `${RDF_NS}first`).map((q) => q.subject.value));
    for (const cell of cells) {
      expect(new Set(values(union, `${RDF_NS}first`, cell)).size).toBe(1);
      expect(new Set(values(union, `${RDF_NS}rest`, cell)).size).toBe(1);
    }
    expect(authorList(after)).toEqual([
      'https://orcid.org/0000-0001-5109-3700',
      `${NODE}author-beta-bob`,
      'https://orcid.org/0000-0002-1825-0097',
    ]);
    // The journal spelt two ways is one node, with each record's spelling.
    const journals = new Set(
      union
        .filter((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${S}Periodical`)
        .map((q) => q.subject.value),
    );
    expect([...journals]).toEqual([`${BASE}journal/11306`]);
    expect(new Set(values(union, `${S}name`, `${BASE}journal/11306`))).toEqual(
      new Set(['Metabolomics', 'METABOLOMICS (Springer)']),
    );
  });

  it('names two authors of one name apart (~2), lists a repeated ORCID once, and links no ORCID given to two different names', () => {
    const twins = map({ creators: [{ creator: 'Wang, Y.' }, { creator: 'Wang, Y.' }] }).quads;
    expect(values(twins, `${S}author`, WORK)).toEqual([`${NODE}author-wang-y`, `${NODE}author-wang-y~2`]);
    const repeated = map({
      creators: [
        { creator: 'Doe, J.', ORCID: '0000-0002-1825-0097' },
        { creator: 'Doe, J.', ORCID: '0000-0002-1825-0097' },
      ],
    });
    expect(authorList(repeated.quads)).toEqual(['https://orcid.org/0000-0002-1825-0097']);
    expect(repeated.notes.some((n) => n.startsWith('creators[1]: the same person'))).toBe(true);
    const clash = map({
      creators: [
        { creator: 'Doe, J.', ORCID: '0000-0002-1825-0097' },
        { creator: 'Roe, R.', ORCID: '0000-0002-1825-0097' },
      ],
    });
    expect(values(clash.quads, `${S}author`, WORK)).toEqual([`${NODE}author-doe-j`, `${NODE}author-roe-r`]);
    expect(values(clash.quads, `${S}identifier`, `${NODE}author-roe-r`)).toEqual(['0000-0002-1825-0097']);
    expect(clash.notes.filter((n) => n.includes('is given to creators of different names'))).toHaveLength(2);
  });

  it('chains issue → volume → journal under the journal id, links the ISSNs, and puts the issue number on the issue only', () => {
    const { quads } = map({
      publicationName: 'Metabolomics',
      issn: '1573-3882',
      eIssn: '1573-3890',
      volume: '13',
      number: '9',
      journalId: '11306',
    });
    const journal = `${BASE}journal/11306`;
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([`${journal}/volume/13/issue/9`]);
    expect(values(quads, `${S}isPartOf`, `${journal}/volume/13/issue/9`)).toEqual([`${journal}/volume/13`]);
    expect(values(quads, `${S}isPartOf`, `${journal}/volume/13`)).toEqual([journal]);
    expect(values(quads, `${S}issn`, journal).sort()).toEqual(['1573-3882', '1573-3890']);
    expect(values(quads, `${B}issn`, journal)).toEqual(['1573-3882']);
    expect(values(quads, `${B}eissn`, journal)).toEqual(['1573-3890']);
    expect(values(quads, `${S}sameAs`, journal)).toEqual([
      'https://portal.issn.org/resource/ISSN/1573-3882',
      'https://portal.issn.org/resource/ISSN/1573-3890',
    ]);
    expect(values(quads, `${S}issueNumber`, `${journal}/volume/13/issue/9`)).toEqual(['9']);
    expect(values(quads, `${B}issue`, `${journal}/volume/13/issue/9`)).toEqual(['9']);
    expect(values(quads, `${B}issue`, WORK)).toEqual([]);
    expect(values(quads, `${B}volume`, WORK)).toEqual(['13']);
    expect(values(quads, `${S}volumeNumber`, `${journal}/volume/13`)).toEqual(['13']);
  });

  it('names a journal by its journal id, else its ISSN (print, else electronic), else the record; its issues the same way', () => {
    const container = (extra: Record<string, string>) =>
      values(map({ publicationName: 'J', ...extra }).quads, `${S}isPartOf`, WORK)[0];
    expect(container({ journalId: '12', issn: '1573-3882' })).toBe(`${BASE}journal/12`);
    expect(container({ issn: '1573-3882', eIssn: '1573-3890' })).toBe(`${BASE}issn/1573-3882`);
    expect(container({ eIssn: '1573-3890' })).toBe(`${BASE}issn/1573-3890`);
    expect(container({ issn: '1573-3883' })).toBe(`${NODE}periodical`); // wrong check digit: no identity
    expect(container({ issn: '1573-3882', volume: '4', number: 'S1' })).toBe(`${BASE}issn/1573-3882/volume/4/issue/S1`);
    expect(container({ issn: '1573-3882', number: '2' })).toBe(`${NODE}issue`); // issue 2 of which year? the record's own
    expect(container({ volume: '3', number: '1' })).toBe(`${NODE}issue`);
    expect(
      values(map({ publicationName: 'J', volume: '3', number: '1' }).quads, `${S}isPartOf`, `${NODE}volume`),
    ).toEqual([`${NODE}periodical`]);
  });

  it('gives 100 records of 7 journals 7 journal nodes and one node per issue and per publisher', () => {
    const quads = Array.from(
      { length: 100 },
      (_, i) =>
        mapRecord(
          normalizeRecord({
            doi: `10.1/a${i}`,
            publicationName: `Journal ${i % 7}`,
            journalId: String(100 + (i % 7)),
            volume: '1',
            number: String(i % 2),
            publisher: i % 3 ? 'Springer' : 'SPRINGER',
            publisherName: i % 3 ? 'BioMed Central' : 'Springer',
          }),
        ).quads,
    ).flat();
    const typed = (cls: string) =>
      new Set(
        quads
          .filter((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === cls)
          .map((q) => q.subject.value),
      );
    expect(typed(`${S}Periodical`).size).toBe(7);
    expect(typed(`${S}PublicationIssue`).size).toBe(14);
    expect([...typed(`${S}Organization`)].sort()).toEqual([
      `${BASE}publisher/biomed-central`,
      `${BASE}publisher/springer`,
    ]);
  });

  it('puts a chapter in the book of its ISBN (ISBN-13, check digit verified), its number in the series as bibo:volume, never schema:volumeNumber', () => {
    const chapter = map({
      contentType: 'Chapter',
      publicationType: 'Book',
      publicationName: 'Methods',
      printIsbn: '3-319-24277-X',
      electronicIsbn: '978-3-319-24277-4',
      volume: '7',
      number: '2',
    }).quads;
    const book = `${BASE}isbn/9783319242774`;
    expect(values(chapter, `${S}isPartOf`, WORK)).toEqual([book]);
    expect(values(chapter, `${S}isbn`, book)).toEqual(['9783319242774']);
    expect(values(chapter, `${B}volume`, book)).toEqual(['7']);
    expect(values(chapter, `${S}volumeNumber`)).toEqual([]);
    expect(values(chapter, `${B}issue`)).toEqual([]);
    expect(values(chapter, `${B}number`, WORK)).toEqual(['2']);
  });

  it('keeps the ISSNs of a book in a series on a schema:BookSeries the book is part of', () => {
    const { quads } = map({
      contentType: 'Protocol',
      publicationType: 'Book',
      publicationName: 'Plant Stress',
      issn: '1064-3745',
      eIssn: '1940-6029',
      printIsbn: '978-1-0716-3972-6',
      volume: '1351',
    });
    const book = `${BASE}isbn/9781071639726`;
    const series = `${BASE}issn/1064-3745`;
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([book]);
    expect(values(quads, `${S}isPartOf`, book)).toEqual([series]);
    expect(values(quads, `${RDF_NS}type`, series).sort()).toEqual([`${B}Series`, `${S}BookSeries`]);
    expect(values(quads, `${S}issn`, series).sort()).toEqual(['1064-3745', '1940-6029']);
    expect(values(quads, `${B}issn`, series)).toEqual(['1064-3745']);
    expect(values(quads, `${B}eissn`, series)).toEqual(['1940-6029']);
    expect(values(quads, `${B}volume`, book)).toEqual(['1351']);
    expect(
      values(
        map({ contentType: 'Chapter', journalId: '5584', printIsbn: '978-1-0716-3972-6' }).quads,
        `${S}isPartOf`,
        book,
      ),
    ).toEqual([`${BASE}series/5584`]);
  });

  it('types partial dates as the service sends them: a year xsd:gYear, a month xsd:gYearMonth, in every date field', () => {
    const { quads, notes } = map({
      publicationDate: '2024',
      onlineDate: '2024-03',
      coverDate: '2024',
      openaccess: 'true',
    });
    const literal = (p: string) => objects(quads, p)[0] as RDF.Literal;
    expect([literal(`${S}datePublished`).value, literal(`${S}datePublished`).datatype.value]).toEqual([
      '2024',
      `${XSD}gYear`,
    ]);
    expect(literal('http://purl.org/dc/terms/available').datatype.value).toBe(`${XSD}gYearMonth`);
    expect(literal('http://prismstandard.org/namespaces/basic/2.0/coverDate').datatype.value).toBe(`${XSD}gYear`);
    expect(notes.filter((n) => /date/i.test(n))).toEqual([]);
    expect(
      (objects(map({ publicationDate: '2024-13' }).quads, `${S}datePublished`)[0] as RDF.Literal).datatype.value,
    ).toBe(`${XSD}string`);
  });

  it('types dates and open access, and keeps malformed values as plain literals', () => {
    const { quads, notes } = map({
      publicationDate: '2017-08-09',
      onlineDate: '2015-02-30',
      coverDate: '2017-09',
      openaccess: 'true',
    });
    const dt = (p: string) => (objects(quads, p)[0] as RDF.Literal).datatype.value;
    expect(dt(`${S}datePublished`)).toBe(`${XSD}date`);
    expect(dt('http://purl.org/dc/terms/available')).toBe(`${XSD}string`);
    expect(dt('http://prismstandard.org/namespaces/basic/2.0/coverDate')).toBe(`${XSD}gYearMonth`);
    expect(dt(`${S}isAccessibleForFree`)).toBe(`${XSD}boolean`);
    expect(notes.join('\n')).toMatch(/onlineDate/);
    expect(dt.call(null, `${S}isAccessibleForFree`)).toBe(`${XSD}boolean`);
    expect(
      (objects(map({ openaccess: 'yes' }).quads, `${S}isAccessibleForFree`)[0] as RDF.Literal).datatype.value,
    ).toBe(`${XSD}string`);
  });

  it('tags title and abstract with a valid language, and strips a glued heading', () => {
    const { quads } = map({ title: 'Titel', abstract: 'ZusammenfassungWir zeigen.', language: 'de' });
    expect(objects(quads, `${S}name`)).toEqual([expect.objectContaining({ value: 'Titel', language: 'de' })]);
    expect(objects(quads, `${S}abstract`)).toEqual([expect.objectContaining({ value: 'Wir zeigen.', language: 'de' })]);
    expect(objects(map({ title: 'T', language: 'not a tag' }).quads, `${S}name`)).toEqual([
      expect.objectContaining({ language: '' }),
    ]);
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
    const [pdf] = values(quads, `${S}encoding`, WORK);
    expect(pdf).toMatch(/#encoding-[0-9a-f]{12}$/);
    expect(values(quads, `${S}encodingFormat`, pdf)).toEqual(['application/pdf']);
    expect(values(quads, `${S}contentUrl`, pdf)).toEqual(['http://link.springer.com/x.pdf']);
    expect(values(quads, `${S}sameAs`, WORK)).toEqual(['http://dx.doi.org/10.1007/s1-2']);
    // A file's node is named by the file, not its place: another link in front changes nothing.
    const moved = map({
      url: [
        { format: 'html', platform: '', value: 'http://a.org/' },
        { format: 'pdf', platform: 'web', value: 'http://link.springer.com/x.pdf' },
      ],
    }).quads;
    expect(values(moved, `${S}encoding`, WORK)).toEqual([pdf]);
  });

  it('makes a book work part of its series, with its own ISBNs and volume (no #book node of its own)', () => {
    const { quads } = map({
      contentType: 'Book',
      title: 'Plant Stress',
      publicationName: 'Methods in Molecular Biology',
      issn: '1064-3745',
      printIsbn: '978-1-0716-3972-6',
      volume: '1351',
    });
    const series = `${BASE}issn/1064-3745`;
    expect(values(quads, `${S}isPartOf`, WORK)).toEqual([series]);
    expect(values(quads, `${S}name`, series)).toEqual(['Methods in Molecular Biology']);
    expect(values(quads, `${S}isbn`, WORK)).toEqual(['9781071639726']);
    expect(values(quads, `${B}volume`, WORK)).toEqual(['1351']);
    expect(values(quads, `${S}volumeNumber`, WORK)).toEqual([]);
    expect(quads.some((q) => q.subject.value === `${NODE}book`)).toBe(false);
    // A publication name that is the book's own title names no series.
    const alone = map({
      contentType: 'Book',
      title: 'Plant Stress',
      publicationName: 'Plant Stress',
      printIsbn: '978-1-0716-3972-6',
    }).quads;
    expect(values(alone, `${S}isPartOf`, WORK)).toEqual([]);
  });

  it('keeps an ISSN or ISBN that is none as sent (sr:<field>), with a note, and tidies an unhyphenated ISSN', () => {
    const { quads, notes } = map({
      publicationName: 'J',
      issn: 'n/a',
      eIssn: '15733890',
      printIsbn: 'ISBN unknown',
      contentType: 'Article',
    });
    expect(values(quads, `${S}issn`, `${BASE}issn/1573-3890`)).toEqual(['1573-3890']);
    expect(values(quads, `${SR}issn`, WORK)).toEqual(['n/a']);
    expect(values(quads, `${SR}printIsbn`, WORK)).toEqual(['ISBN unknown']);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^issn: "n\/a" is not an ISSN/),
        expect.stringMatching(/^printIsbn: "ISBN unknown" is not an ISBN/),
      ]),
    );
  });

  it('keeps an ISSN or ISBN whose check digit fails as sent, never as an identity, and says which digit was expected', () => {
    const { quads, notes } = map({
      publicationName: 'J',
      issn: '1573-3883',
      contentType: 'Chapter',
      printIsbn: '978-3-319-24277-5',
    });
    expect(values(quads, `${SR}issn`, WORK)).toEqual(['1573-3883']);
    expect(values(quads, `${SR}printIsbn`, WORK)).toEqual(['978-3-319-24277-5']);
    expect(notes).toContain(
      'issn: "1573-3883" has a wrong check digit (expected 2); kept as sr:issn on the work, not as an identifier',
    );
    expect(notes).toContain(
      'printIsbn: "978-3-319-24277-5" has a wrong check digit (expected 4); kept as sr:printIsbn on the work, not as an identifier',
    );
    expect(quads.some((q) => /\/(issn|isbn)\//.test(q.subject.value))).toBe(false);
  });

  it("keeps an identifier that names another DOI as sr:identifier, with a note; schema:identifier names the work's DOI", () => {
    const { quads, notes } = map({ identifier: 'doi:10.1007/other' });
    expect(values(quads, `${S}identifier`, WORK)).toEqual(['doi:10.1007/s1-2']);
    expect(values(quads, 'https://w3id.org/scholarly-rdf/vocab#identifier', WORK)).toEqual(['doi:10.1007/other']);
    expect(notes.some((n) => n.startsWith('identifier: "doi:10.1007/other" does not name the DOI'))).toBe(true);
    expect(values(map({ identifier: 'DOI:10.1007/S1-2' }).quads, `${S}identifier`, WORK)).toEqual(['DOI:10.1007/S1-2']);
  });

  it("makes a discipline with an id a concept of the service's scheme, shared by every record; one without, the record's own", () => {
    const { quads } = map({
      disciplines: [{ term: 'Physics' }, { id: '1', term: 'Chemistry' }, { id: '1', term: 'Chemistry' }],
    });
    const about = values(quads, `${S}about`, WORK);
    expect(about).toEqual([`${NODE}discipline-physics`, `${BASE}discipline/1`]);
    expect(values(quads, `${RDF_NS}type`, `${BASE}discipline/1`).sort()).toEqual([
      `${S}DefinedTerm`,
      'http://www.w3.org/2004/02/skos/core#Concept',
    ]);
    expect(values(quads, 'http://www.w3.org/2004/02/skos/core#inScheme', `${BASE}discipline/1`)).toEqual([
      `${BASE}discipline/`,
    ]);
    expect(values(quads, `${S}inDefinedTermSet`, `${BASE}discipline/1`)).toEqual([`${BASE}discipline/`]);
    expect(values(quads, `${S}name`, `${BASE}discipline/1`)).toEqual(['Chemistry']);
    expect(values(quads, `${S}identifier`, `${NODE}discipline-physics`)).toEqual([]);
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
    expect(values(quads, `${S}publisher`, WORK)).toEqual([`${BASE}publisher/springer`]);
    expect(values(quads, `${S}publisherImprint`, WORK)).toEqual([`${BASE}publisher/springer-nature`]);
    expect(values(quads, `${S}name`, `${BASE}publisher/springer-nature`)).toEqual(['Springer Nature']);
    expect(values(quads, `${S}alternateName`)).toEqual([]);
    expect(values(quads, `${S}keywords`)).toEqual(['Chemistry', 'Physics']);
    expect(values(quads, `${S}name`, `${BASE}discipline/1`)).toEqual(['Chemistry']);
    expect(values(quads, `${S}genre`)).toEqual(['OriginalPaper']);
    expect(values(quads, `${S}copyrightNotice`)).toEqual(['© 2017']);
    const [conference] = values(quads, `${B}presentedAt`, WORK);
    expect(conference).toMatch(/#conference-[0-9a-f]{12}$/);
    expect(values(quads, `${S}name`, conference)).toEqual(['ISWC 2017']);
  });

  it('writes one publisher when publisher and publisherName name one organisation (or only one is given)', () => {
    for (const raw of [
      { publisher: 'Springer' },
      { publisherName: 'Springer' },
      { publisher: 'springer', publisherName: 'Springer' },
    ]) {
      const { quads } = map(raw);
      expect(values(quads, `${S}publisher`, WORK)).toEqual([`${BASE}publisher/springer`]);
      expect(values(quads, `${S}publisherImprint`, WORK)).toEqual([]);
    }
  });

  it("keeps the service's type label as schema:additionalType (no sr:contentType)", () => {
    const { quads } = map({ contentType: 'Protocol', publicationType: 'Book' });
    expect(values(quads, `${S}additionalType`, WORK)).toEqual(['Protocol']);
    expect(values(quads, `${SR}contentType`)).toEqual([]);
  });

  it('uses https://schema.org/ and another base when asked', () => {
    const { quads } = map(
      { creators: [{ creator: 'A' }], journalId: '7' },
      { schemaScheme: 'https', base: 'http://example.org/' },
    );
    expect(values(quads, 'https://schema.org/author')).toEqual(['http://example.org/doi/10.1007/s1-2#author-a']);
    expect(values(quads, 'https://schema.org/isPartOf')).toEqual(['http://example.org/journal/7']);
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
