/**
 * jsonText (src/record/jsonText.ts) writes what JSON.stringify writes, for any
 * JSON value, without recursion: the rejects file keeps records nested deeper
 * than the stack.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonText } from '../../src/record/jsonText.js';
import { fuzzParams, reportCases } from './fuzzConfig.js';

const startedAt = Date.now();
afterAll(() => reportCases('jsonText.test.ts', startedAt));

describe('jsonText', () => {
  it('equals JSON.stringify on any JSON value (property-based)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
      }),
      fuzzParams('jsonText = JSON.stringify', 300),
    );
  });

  it('writes a value nested 200,000 levels deep, which JSON.stringify cannot', () => {
    const depth = 200_000;
    const text = `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonText(value)).toBe(text);
  });

  it('stops at maxLength', () => {
    expect(jsonText({ a: 'x'.repeat(1000) }, 10)).toBe('{"a":"xxxx');
  });
});
