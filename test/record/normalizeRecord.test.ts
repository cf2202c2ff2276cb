import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { STRING_KEYS, emptyRecord, normalizeRecord } from '../../src/record/normalizeRecord.js';

const fixture = (name: string) => JSON.parse(readFileSync(`test/fixtures/service/${name}`, 'utf8'));

describe('normalizeRecord', () => {
  it('reads the v2 record of the real 2017 response', () => {
    const raw = fixture('metadata-json-article-metabolomics-2017.json').records[0];
    const r = normalizeRecord(raw);
    expect(r.doi).toBe('10.1007/s11306-017-1242-7');
    expect(r.creators.map((c) => c.name)).toContain('Cañueto, Daniel');
    expect(r.genre).toEqual(['ReviewPaper', 'Review Article']);
    expect(r.urls).toEqual([{ format: '', platform: '', value: 'http://dx.doi.org/10.1007/s11306-017-1242-7' }]);
    expect(r.startingPage).toBe('1');
    expect(r.endingPage).toBe('16');
    expect(r.unknownFields).toEqual({});
  });

  it('accepts every key spelling the service uses', () => {
    const r = normalizeRecord({ doi: '10.1/a', journalid: '11101', issuetype: 'Regular', openAccess: 'true' });
    expect(r.journalId).toBe('11101');
    expect(r.issueType).toBe('Regular');
    expect(r.openaccess).toBe('true');
  });

  it('drops empty strings and takes genre as a string, url as a string', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      volume: '',
      number: '  ',
      genre: 'OriginalPaper',
      url: 'http://example.org/x',
    });
    expect(r.volume).toBeUndefined();
    expect(r.number).toBeUndefined();
    expect(r.genre).toEqual(['OriginalPaper']);
    expect(r.urls).toEqual([{ format: '', platform: '', value: 'http://example.org/x' }]);
  });

  it('takes the glued heading off an abstract, and reads {h1, p} abstracts', () => {
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'AbstractWe show.' }).abstract).toEqual({
      heading: 'Abstract',
      text: 'We show.',
    });
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'Introduction The field' }).abstract).toEqual({
      text: 'Introduction The field',
    });
    expect(normalizeRecord({ doi: '10.1/a', abstract: { h1: 'Abstract', p: ['One.', 'Two.'] } }).abstract).toEqual({
      heading: 'Abstract',
      text: 'One.\n\nTwo.',
    });
  });

  it('takes the glued "Abstract" off the real 2015 abstract, and leaves its text and the real 2017 structured abstract as they are', () => {
    const page = fixture('meta-v1-2015-articles-last-page-s701-2records.json');
    const r = normalizeRecord(page.records[0]);
    expect(r.abstract?.heading).toBe('Abstract');
    expect(r.abstract?.text).toBe(page.records[0].abstract.slice('Abstract'.length));
    expect(r.abstract?.text).toMatch(/^Ever increasing numbers of antibiotic resistances/);
    expect(r.notes).toEqual([]);
    expect(normalizeRecord(page.records[1]).abstract).toBeUndefined();
    // Headings followed by a space ("Objectives To compile") are not glued: text as it stands.
    const raw = fixture('metadata-json-article-metabolomics-2017.json').records[0];
    const m = normalizeRecord(raw);
    expect(m.abstract).toEqual({ text: raw.abstract });
    expect(m.notes).toEqual([]);
  });

  it('separates the glued section headings of a structured abstract, with one note', () => {
    // The 2015 record's abstract as a structured abstract: "Abstract", then glued section headings.
    const text = fixture('meta-v1-2015-articles-last-page-s701-2records.json').records[0].abstract as string;
    const sentences = text.slice('Abstract'.length).split('. ');
    const part = (from: number, to?: number) => sentences.slice(from, to).join('. ');
    const glued = `AbstractBackground${part(0, 3)}.Methods${part(3, 6)}.Results${part(6, 9)}.Conclusions${part(9)}`;
    const r = normalizeRecord({ doi: '10.1/a', abstract: glued });
    expect(r.abstract).toEqual({
      heading: 'Abstract',
      text: `Background: ${part(0, 3)}.\n\nMethods: ${part(3, 6)}.\n\nResults: ${part(6, 9)}.\n\nConclusions: ${part(9)}`,
    });
    expect(r.abstract?.text).toMatch(
      /\n\nConclusions: This review also discusses the hurdles of clinical implementation\.$/,
    );
    expect(r.notes).toEqual(['abstract: 4 section headings separated from the text']);

    const one = normalizeRecord({ doi: '10.1/a', abstract: 'Materials and methodsWe studied 128 women.' });
    expect(one.abstract).toEqual({ text: 'Materials and methods: We studied 128 women.' });
    expect(one.notes).toEqual(['abstract: 1 section heading separated from the text']);
    // A lone one-word heading glued at the start may be a name ("ContextCapture is…"): left as it is.
    const lone = normalizeRecord({ doi: '10.1/a', abstract: 'ObjectiveBreast cancer is common in elderlies.' });
    expect(lone.abstract).toEqual({ text: 'ObjectiveBreast cancer is common in elderlies.' });
    expect(lone.notes).toEqual([]);
    // A section heading at the start is kept in the text, not taken off as the abstract's heading.
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'BackgroundWe ask.ResultsYes.' }).abstract).toEqual({
      text: 'Background: We ask.\n\nResults: Yes.',
    });
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'Background noise is low. Results follow.' }).notes).toEqual([]);
  });

  it('separates glued section headings in each paragraph of an {h1, p} abstract', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      abstract: { h1: 'Abstract', p: ['PurposeTo test.MethodsWe did.', 'ResultsIt worked.ConclusionsGood.'] },
    });
    expect(r.abstract).toEqual({
      heading: 'Abstract',
      text: 'Purpose: To test.\n\nMethods: We did.\n\nResults: It worked.\n\nConclusions: Good.',
    });
    expect(r.notes).toEqual(['abstract: 4 section headings separated from the text']);
  });

  it('collapses line breaks and white-space runs in one-line text, with one note per field', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      title: 'A  title\r\n continued',
      publicationName: 'Journal of\n   Biology',
      journalTitle: 'Journal\tof Biology',
      publisher: 'Springer\u00A0 Nature',
      publisherName: 'Springer\u2028Nature',
      creators: [
        { creator: 'Doe,\n  Jane' },
        { creator: 'Roe,\tRichard' },
        'Poe,\r\nEdgar',
        { creator: 'Plain, Name' },
      ],
      subjects: ['Life\nSciences', 'Cell  Biology'],
      keywords: ['breast\ncancer', 'elderly'],
      genre: ['Original\nPaper'],
      disciplines: [{ id: 'D1', term: 'Cell\n Biology' }, 'Life \n Sciences'],
      conferenceInfo: [{ confName: 'Int. Conf.\n  on X', confLoc: 'Berlin' }],
      topicalCollection: 'Special\nIssue',
      copyright: '©2015 Springer\n Nature',
    });
    expect(r.title).toBe('A title continued');
    expect(r.publicationName).toBe('Journal of Biology');
    expect(r.journalTitle).toBe('Journal of Biology');
    expect(r.publisher).toBe('Springer Nature');
    expect(r.publisherName).toBe('Springer Nature');
    expect(r.creators.map((c) => c.name)).toEqual(['Doe, Jane', 'Roe, Richard', 'Poe, Edgar', 'Plain, Name']);
    expect(r.subjects).toEqual(['Life Sciences', 'Cell Biology']);
    expect(r.keywords).toEqual(['breast cancer', 'elderly']);
    expect(r.genre).toEqual(['Original Paper']);
    expect(r.disciplines).toEqual([{ id: 'D1', term: 'Cell Biology' }, { term: 'Life Sciences' }]);
    expect(r.conferenceInfo).toEqual([{ confName: 'Int. Conf. on X', confLoc: 'Berlin' }]);
    expect([r.topicalCollection, r.copyright]).toEqual(['Special Issue', '©2015 Springer Nature']);
    const fields = [
      'title',
      'publicationName',
      'journalTitle',
      'publisher',
      'publisherName',
      'creators',
      'subjects',
      'keywords',
      'genre',
      'disciplines',
      'conferenceInfo',
      'topicalCollection',
      'copyright',
    ];
    expect(r.notes).toHaveLength(fields.length);
    for (const field of fields) {
      expect(
        r.notes.filter((n) => n.startsWith(`${field}: `)),
        field,
      ).toEqual([
        `${field}: line breaks, tabs and runs of white space collapsed to single spaces (text wrapped across lines or padded in the source)`,
      ]);
    }
  });

  it('leaves one-line text with single spaces, and identifiers, as they are, without a note', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      title: 'A title, with punctuation: and more',
      creators: [{ creator: 'Doe, Jane' }],
      subjects: ['Life Sciences'],
      journalId: '11\n101',
    });
    expect(r.title).toBe('A title, with punctuation: and more');
    expect(r.journalId).toBe('11\n101');
    expect(r.notes).toEqual([]);
  });

  it("keeps the abstract's paragraph breaks and joins its wrapped lines, with one note", () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      abstract:
        'First line\nwrapped here.\n\nSecond\r\nparagraph.\r\n\r\nThird  paragraph\twith a tab. \n \n\n\nFourth.\u2029Fifth.',
    });
    expect(r.abstract).toEqual({
      text: 'First line wrapped here.\n\nSecond paragraph.\n\nThird paragraph with a tab.\n\nFourth.\n\nFifth.',
    });
    expect(r.notes).toEqual([
      'abstract: lines wrapped inside a paragraph joined and runs of white space collapsed to single spaces; paragraph breaks kept',
    ]);
    const p = normalizeRecord({ doi: '10.1/a', abstract: { p: ['One\nline.', 'Two\n\nparagraphs.'] } });
    expect(p.abstract).toEqual({ text: 'One line.\n\nTwo\n\nparagraphs.' });
    expect(p.notes).toHaveLength(1);
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'One.\n\nTwo.' }).notes).toEqual([]);
  });

  it('leaves out a creator whose name has no letter or digit, with a note', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      creators: [{ creator: '  ,  ' }, ' - ', { creator: 'Doe, Jane' }, { creator: ',', ORCID: '0000-0002-1825-0097' }],
    });
    expect(r.creators).toEqual([{ name: 'Doe, Jane' }, { name: '', orcid: '0000-0002-1825-0097' }]);
    expect(r.notes.filter((n) => n.includes('names nobody'))).toHaveLength(3);
  });

  it('takes the DOI from the identifier when the doi key is missing', () => {
    expect(normalizeRecord({ identifier: 'doi:10.1/xyz' }).doi).toBe('10.1/xyz');
  });

  it('reads ORCID iDs with or without the resolver, and keeps a malformed or mistyped one as raw', () => {
    const r = normalizeRecord({
      doi: '10.1/a',
      creators: [
        { creator: 'A, B', ORCID: 'https://orcid.org/0000-0002-1694-233x' },
        { creator: 'C, D', ORCID: 'nope' },
        { creator: 'E, F', ORCID: '0000-0002-1825-009X' },
      ],
    });
    expect(r.creators[0]).toEqual({ name: 'A, B', orcid: '0000-0002-1694-233X' });
    expect(r.creators[1]).toEqual({ name: 'C, D', orcidRaw: 'nope' });
    // The check character of 0000-0002-1825-009 is 7: a mistyped iD, not linked.
    expect(r.creators[2]).toEqual({ name: 'E, F', orcidRaw: '0000-0002-1825-009X' });
  });

  it('keeps unknown keys, also inside creators, instead of dropping them', () => {
    const r = normalizeRecord({ doi: '10.1/a', funder: 'X', creators: [{ creator: 'A', affiliation: 'Y' }] });
    expect(Object.keys(r.unknownFields).sort()).toEqual(['creators[].affiliation', 'funder']);
  });

  it('removes characters RDF/XML cannot carry and says so', () => {
    const r = normalizeRecord({ doi: '10.1/a', title: 'A\u0000B\uFFFEC\uD800D' });
    expect(r.title).toBe('ABC\uFFFDD');
    expect(r.notes.join()).toMatch(/title/);
  });

  it('names the record and the field when a value has the wrong type', () => {
    expect(() => normalizeRecord({ doi: '10.1/a', title: { x: 1 } })).toThrow(MappingError);
    try {
      normalizeRecord({ doi: '10.1/a', creators: [{ creator: 'A' }, 42] });
    } catch (err) {
      expect(err).toBeInstanceOf(MappingError);
      expect((err as MappingError).recordId).toBe('10.1/a');
      expect((err as MappingError).path).toBe('creators[1]');
    }
    expect(() => normalizeRecord([1, 2], { recordLabel: 'f.json#3' })).toThrow(/f\.json#3.*\(record\).*array/);
  });

  it('gives every record its fields in one order, whatever the order and spelling of the keys sent (one shape)', () => {
    expect(Object.keys(emptyRecord()).slice(0, STRING_KEYS.length + 1)).toEqual([...STRING_KEYS, 'abstract']);
    expect(
      Object.values(emptyRecord())
        .slice(0, STRING_KEYS.length + 1)
        .every((v) => v === undefined),
    ).toBe(true);
    const a = normalizeRecord({ doi: '10.1/a', title: 'T', journalid: '7', volume: '3' });
    const b = normalizeRecord({ volume: '3', journalId: '7', title: 'T', doi: '10.1/b', extra: 1 });
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect([a.journalId, b.journalId, a.abstract, b.unknownFields]).toEqual(['7', '7', undefined, { extra: 1 }]);
  });
});
