import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/cli/progress/format.js';

describe('formatCount', () => {
  it("groups an integer's digits by thousands as toLocaleString('en-US') does", () => {
    const values = [0, 7, 42, 999, 1000, 1234, 99999, 100000, 1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, -1, -1234567];
    for (const x of values) expect(formatCount(x)).toBe(x.toLocaleString('en-US'));
    expect(formatCount(12345)).toBe('12,345');
  });

  it('leaves what is not a safe integer to toLocaleString', () => {
    for (const x of [1234.5678, 2 ** 60, Number.NaN, Infinity]) expect(formatCount(x)).toBe(x.toLocaleString('en-US'));
  });
});
