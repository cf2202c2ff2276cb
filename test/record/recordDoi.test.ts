import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import {
  bareDoi,
  doiKey,
  identifierNamesDoi,
  isDoi,
  isDoiResolverUrl,
  recordDoi,
  sentRecordDoi,
} from '../../src/record/recordDoi.js';

describe('recordDoi', () => {
  it('takes the doi field, trimmed, as written (its case kept: the work IRI is made of it)', () => {
    expect(recordDoi({ doi: '10.1007/s11306-017-1242-7' })).toBe('10.1007/s11306-017-1242-7');
    expect(recordDoi({ doi: '  10.1000/ABC\n' })).toBe('10.1000/ABC');
  });

  it('prefers the doi field to the identifier, even when they differ', () => {
    expect(recordDoi({ doi: '10.1/a', identifier: 'doi:10.1/b' })).toBe('10.1/a');
  });

  it('takes the DOI from a doi: identifier when the doi field is missing, blank or not a string', () => {
    expect(recordDoi({ identifier: 'doi:10.1/xyz' })).toBe('10.1/xyz');
    expect(recordDoi({ doi: '   ', identifier: 'doi:10.1/xyz' })).toBe('10.1/xyz');
    expect(recordDoi({ doi: '', identifier: 'doi:10.1/xyz' })).toBe('10.1/xyz');
    expect(recordDoi({ doi: 10.1, identifier: 'doi:10.1/xyz' })).toBe('10.1/xyz');
    expect(recordDoi({ doi: null, identifier: 'doi:10.1/xyz' })).toBe('10.1/xyz');
  });

  it('reads the doi: prefix in any case, with white space around the identifier and after the prefix', () => {
    expect(recordDoi({ identifier: 'DOI:10.1/X' })).toBe('10.1/X');
    expect(recordDoi({ identifier: 'Doi:10.1/x' })).toBe('10.1/x');
    expect(recordDoi({ identifier: '  doi: 10.1/x  ' })).toBe('10.1/x');
  });

  it('gives undefined when neither field names a DOI', () => {
    expect(recordDoi({})).toBeUndefined();
    expect(recordDoi({ doi: ' ' })).toBeUndefined();
    expect(recordDoi({ identifier: 'isbn:978-3-16-148410-0' })).toBeUndefined();
    expect(recordDoi({ identifier: ' 10.1/x' })).toBeUndefined();
    expect(recordDoi({ identifier: 'doi:' })).toBeUndefined();
    expect(recordDoi({ identifier: 'doi:   ' })).toBeUndefined();
    expect(recordDoi({ identifier: 42 })).toBeUndefined();
  });

  it('does not check the shape of the DOI (the mapper does, with isDoi)', () => {
    expect(recordDoi({ doi: 'hello' })).toBe('hello');
  });
});

describe('doiKey', () => {
  it('trims and lower-cases: DOIs that differ only in case or padding are one', () => {
    expect(doiKey(' 10.1000/ABC\t')).toBe('10.1000/abc');
    expect(doiKey('10.1000/abc')).toBe(doiKey('10.1000/ABC'));
  });

  it('cleans as the normaliser does: DOIs that differ only by characters cleaning removes or composes are one', () => {
    const one = doiKey('10.1000/café');
    for (const variant of [
      '10.1000/caf\u00E9\u0000',
      '10.1000/ca\uFFFEf\u00E9',
      '\u000010.1000/café\uFFFF',
      '10.1000/cafe\u0301',
      '10.1000/CAFE\u0301',
      '10.1000/caf\u001B\u00E9',
    ]) {
      expect(doiKey(variant), JSON.stringify(variant)).toBe(one);
    }
    // A lone surrogate becomes U+FFFD in the record, and in the key.
    expect(doiKey('10.1/a\uD800')).toBe(doiKey('10.1/a\uFFFD'));
    // Other DOIs stay other DOIs.
    expect(doiKey('10.1000/cafe')).not.toBe(one);
    expect(doiKey('10.1000/caf\u00E9 x')).not.toBe(one);
  });
});

describe('sentRecordDoi', () => {
  it('is the DOI the normaliser gives the record as sent (doi in any case, else the identifier, cleaned)', () => {
    const cases: Record<string, unknown>[] = [
      { doi: '10.1/a\u0000' },
      { DOI: ' 10.1/B ', doi: '10.1/c' },
      { doi: '\u0000', identifier: 'doi:10.1/d\uFFFE' },
      { doi: '', Identifier: ' DOI: 10.1/e ' },
      { doi: 12.5 },
      { identifier: 'isbn:1' },
      { title: 'no DOI' },
    ];
    for (const raw of cases) expect(sentRecordDoi(raw), JSON.stringify(raw)).toBe(normalizeRecord(raw).doi);
    expect(sentRecordDoi(null)).toBeUndefined();
    expect(sentRecordDoi([{ doi: '10.1/a' }])).toBeUndefined();
  });

  it('agrees with the normaliser on any record made of DOI-ish fields (property)', () => {
    const junk = fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\uFFFE',
      '\uFFFF',
      '\u001B',
      '\u0301',
      '\uD800',
      'é',
      'e\u0301',
      'A',
      '\t',
      '\n',
    );
    const text = fc
      .array(fc.oneof(junk, fc.constantFrom('10.1/', 'doi:', 'DOI: ', 'x')), { maxLength: 6 })
      .map((parts) => parts.join(''));
    const value = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean());
    const key = fc.constantFrom('doi', 'DOI', 'Doi', 'identifier', 'IDENTIFIER', 'title');
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 4 }), (pairs) => {
        const raw = Object.fromEntries(pairs);
        const normalised = normalizeRecord(raw).doi;
        expect(sentRecordDoi(raw)).toBe(normalised);
      }),
      { seed: 20261125, numRuns: 2000 },
    );
  });
});

describe('isDoi', () => {
  it('accepts 10.<digits>/<suffix> and nothing else', () => {
    expect(isDoi('10.1007/s11306-017-1242-7')).toBe(true);
    expect(isDoi('10.1002/(SICI)1097-4571')).toBe(true);
    expect(isDoi('10.1/x')).toBe(true);
    expect(isDoi('hello')).toBe(false);
    expect(isDoi('10./x')).toBe(false);
    expect(isDoi('10.12/')).toBe(false);
    expect(isDoi(' 10.1/x')).toBe(false);
    expect(isDoi('doi:10.1/x')).toBe(false);
    expect(isDoi('11.1/x')).toBe(false);
  });
});

describe('bareDoi', () => {
  it('takes one resolver or doi: prefix off a DOI a user typed, in any case, and trims', () => {
    expect(bareDoi('10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi('  10.1007/s1-2 ')).toBe('10.1007/s1-2');
    expect(bareDoi('https://doi.org/10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi('http://doi.org/10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi('http://dx.doi.org/10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi('HTTPS://DX.DOI.ORG/10.1007/S1-2')).toBe('10.1007/S1-2');
    expect(bareDoi('doi:10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi('DOI: 10.1007/s1-2')).toBe('10.1007/s1-2');
    expect(bareDoi(' https://doi.org/ 10.1007/s1-2')).toBe('10.1007/s1-2');
  });

  it('takes off one prefix only, and leaves other text as typed', () => {
    expect(bareDoi('doi:doi:10.1/x')).toBe('doi:10.1/x');
    expect(bareDoi('https://doi.org/doi:10.1/x')).toBe('doi:10.1/x');
    expect(bareDoi('doi.org/10.1/x')).toBe('doi.org/10.1/x');
    expect(bareDoi('https://www.doi.org/10.1/x')).toBe('https://www.doi.org/10.1/x');
    expect(bareDoi('https://example.org/10.1/x')).toBe('https://example.org/10.1/x');
  });
});

describe('isDoiResolverUrl', () => {
  it('knows the resolver as records link it: http or https, doi.org or dx.doi.org, any case', () => {
    expect(isDoiResolverUrl('https://doi.org/10.1/x')).toBe(true);
    expect(isDoiResolverUrl('http://dx.doi.org/10.1/x')).toBe(true);
    expect(isDoiResolverUrl('HTTP://DX.DOI.ORG/10.1/x')).toBe(true);
    expect(isDoiResolverUrl('https://doi.org.example/10.1/x')).toBe(false);
    expect(isDoiResolverUrl('https://example.org/?id=https://doi.org/10.1/x')).toBe(false);
    expect(isDoiResolverUrl('ftp://doi.org/10.1/x')).toBe(false);
  });
});

describe('identifierNamesDoi', () => {
  it('holds when the identifier is doi: and the DOI, compared without regard to case', () => {
    expect(identifierNamesDoi('doi:10.1/x', '10.1/x')).toBe(true);
    expect(identifierNamesDoi('DOI:10.1/X', '10.1/x')).toBe(true);
    expect(identifierNamesDoi('doi:10.1/y', '10.1/x')).toBe(false);
    expect(identifierNamesDoi('doi: 10.1/x', '10.1/x')).toBe(false);
    expect(identifierNamesDoi('10.1/x', '10.1/x')).toBe(false);
  });
});
