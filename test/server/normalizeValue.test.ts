import { describe, expect, it } from 'vitest';
import { doiKey } from '../../src/record/recordDoi.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { evaluateQuery } from '../../src/server/evaluateQuery.js';
import { normalizeValue } from '../../src/server/normalizeValue.js';
import { parseQuery } from '../../src/server/parseQuery.js';

describe('normalizeValue', () => {
  it('keys DOIs as the rest of the toolkit does (doiKey): case, padding and what the normaliser cleans away aside', () => {
    for (const doi of [
      '10.1000/Caf\u00E9',
      ' 10.1000/cafe\u0301 ',
      '10.1000/caf\u00E9\u0000',
      '10.1000/ca\uFFFEf\u00E9',
    ]) {
      expect(normalizeValue('doi', doi), JSON.stringify(doi)).toBe(doiKey(doi));
      expect(normalizeValue('doi', doi)).toBe('10.1000/caf\u00E9');
    }
  });

  it('lets the catalogue find a record by its DOI as the mapped output writes it, whatever the record sent', () => {
    const catalogue = Catalogue.fromRecords([
      { doi: '10.1000/caf\u00E9\u0000', title: 'x' },
      { doi: '10.1000/cafe', title: 'y' },
    ]);
    const find = (q: string) => [...evaluateQuery(catalogue, parseQuery(q))];
    expect(find('doi:10.1000/café')).toEqual([0]);
    expect(find('doi:10.1000/CAFE\u0301')).toEqual([0]);
    expect(find('doi:10.1000/cafe')).toEqual([1]);
  });
});
