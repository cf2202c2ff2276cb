import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MappingError } from '../../src/errors.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';

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
    const r = normalizeRecord({ doi: '10.1/a', volume: '', number: '  ', genre: 'OriginalPaper', url: 'http://example.org/x' });
    expect(r.volume).toBeUndefined();
    expect(r.number).toBeUndefined();
    expect(r.genre).toEqual(['OriginalPaper']);
    expect(r.urls).toEqual([{ format: '', platform: '', value: 'http://example.org/x' }]);
  });

  it('takes the glued heading off an abstract, and reads {h1, p} abstracts', () => {
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'AbstractWe show.' }).abstract).toEqual({ heading: 'Abstract', text: 'We show.' });
    expect(normalizeRecord({ doi: '10.1/a', abstract: 'Introduction The field' }).abstract).toEqual({ text: 'Introduction The field' });
    expect(normalizeRecord({ doi: '10.1/a', abstract: { h1: 'Abstract', p: ['One.', 'Two.'] } }).abstract).toEqual({
      heading: 'Abstract',
      text: 'One.\n\nTwo.',
    });
  });

  it('leaves out a creator whose name has no letter or digit, with a note', () => {
    const r = normalizeRecord({ doi: '10.1/a', creators: [{ creator: '  ,  ' }, ' - ', { creator: 'Doe, Jane' }, { creator: ',', ORCID: '0000-0002-1825-0097' }] });
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
});
