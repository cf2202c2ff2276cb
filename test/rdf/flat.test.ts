import { describe, expect, it } from 'vitest';
import { flat } from '../../src/rdf/flat.js';

describe('flat', () => {
  it('returns the text it is given, a concatenation and the empty text alike', () => {
    const left = 'https://w3id.org/scholarly-rdf/doi/';
    for (const right of ['10.1007/s00381-023-0000-t#author-佐藤', '']) {
      const joined = left + right;
      expect(flat(joined)).toBe(`${left}${right}`);
      expect(flat(joined).length).toBe(left.length + right.length);
    }
    expect(flat('')).toBe('');
  });
});
