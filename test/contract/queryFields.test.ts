import { describe, expect, it } from 'vitest';
import {
  BASIC_FIELDS,
  PREMIUM_FIELDS,
  describeRefusedTerms,
  queryTerms,
  refusedTerms,
} from '../../src/contract/queryFields.js';

describe('queryTerms', () => {
  it('reads field:value and field=value constraints, skipping phrases and words', () => {
    expect(
      queryTerms('keyword:"graphene oxide" AND (YEAR:2015 OR -title:x) "year:2016" doi=10.1/x free words'),
    ).toEqual([
      { field: 'keyword', text: 'keyword:"graphene oxide"' },
      { field: 'year', text: 'YEAR:2015' },
      { field: 'title', text: 'title:x' },
      { field: 'doi', text: 'doi=10.1/x' },
    ]);
    expect(queryTerms('a "b:c d" e')).toEqual([]);
    expect(queryTerms('https://x.org/a:b')).toEqual([{ field: 'https', text: 'https://x.org/a:b' }]);
  });
});

describe('refusedTerms', () => {
  it('a basic key: every premium-only field, with a basic alternative where there is one; premium: none', () => {
    expect(refusedTerms('year:2015 keyword:x sort:date', 'basic')).toEqual([
      {
        field: 'year',
        text: 'year:2015',
        alternative: expect.stringContaining('onlinedatefrom:/onlinedateto: or datefrom:/dateto:'),
      },
      { field: 'sort', text: 'sort:date' },
    ]);
    expect(refusedTerms('year:2015 sort:date', 'premium')).toEqual([]);
    for (const f of BASIC_FIELDS) expect(refusedTerms(`${f}:1`, 'basic')).toEqual([]);
    for (const f of PREMIUM_FIELDS) expect(refusedTerms(`${f}:1`, 'basic')).toHaveLength(1);
    expect(new Set([...BASIC_FIELDS].filter((f) => PREMIUM_FIELDS.includes(f)))).toEqual(new Set());
  });

  it('says each field, that it needs a premium key and the basic alternative', () => {
    expect(describeRefusedTerms(refusedTerms('orcid:0000-0001 year:2015', 'basic'))).toBe(
      'the query field `orcid:` (orcid:0000-0001) needs a premium key; the query field `year:` (year:2015) needs a premium key; with a basic key use onlinedatefrom:/onlinedateto: or datefrom:/dateto: (e.g. datefrom:2015-01-01 dateto:2015-12-31)',
    );
  });
});
