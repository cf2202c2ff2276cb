import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOO_DEEP_KEY, cutDeepJson, findTooDeep, originalOffset } from '../../src/record/cutDeepJson.js';

/** Levels of nesting of a parsed value (a scalar is 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('cutDeepJson', () => {
  it('leaves text within the limit alone (no copy), counting objects and arrays but not brackets in strings', () => {
    expect(cutDeepJson('{"a":[{"b":"[[[{{{"}]}', 3)).toBeUndefined();
    expect(cutDeepJson('"[[[[[[[["', 1)).toBeUndefined();
    expect(cutDeepJson('{"a":"\\\\"}', 1)).toBeUndefined();
  });

  it('replaces each value that opens too deep, with all it holds, by a marker that says where it was', () => {
    const text = '{"a":[1,{"b":2}],"c":{"d":[3]},"e":"]}"}';
    const cut = cutDeepJson(text, 2)!;
    expect(cut.cuts.map((c) => text.slice(c.at, c.end))).toEqual(['{"b":2}', '[3]']);
    const value = JSON.parse(cut.text) as { a: unknown[]; c: { d: unknown }; e: string };
    expect(value.a).toEqual([1, { [TOO_DEEP_KEY]: text.indexOf('{"b"') }]);
    expect(value.c.d).toEqual({ [TOO_DEEP_KEY]: text.indexOf('[3]') });
    expect(value.e).toBe(']}');
    expect(findTooDeep(value)).toBe('a[1]');
    expect(findTooDeep({ ok: [1, 2], also: { x: 'y' } })).toBeUndefined();
  });

  it('cuts a value never closed to the end of the text, so that parsing fails as it would have', () => {
    const cut = cutDeepJson('[[[[[[', 2)!;
    expect(cut.text).toBe('[[{"\\u0000maxDepth":2}');
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(originalOffset(cut, cut.text.length)).toBe(6);
  });

  it('maps offsets of the cut text back to the text as given', () => {
    const text = '[[[1]],[[2]],3,x]';
    const cut = cutDeepJson(text, 2)!;
    for (const ch of ['3', 'x', ']']) {
      const at = cut.text.lastIndexOf(ch);
      expect(text[originalOffset(cut, at)], ch).toBe(ch);
    }
    // Inside a marker: where the value cut off starts.
    expect(originalOffset(cut, cut.text.indexOf('maxDepth'))).toBe(2);
  });

  it('is exact on any JSON (property): cut only when deeper than the limit, the cut value within it, its markers where depth ran out', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 6 }), (value, maxDepth) => {
        const text = JSON.stringify(value);
        const depth = depthOf(value);
        const cut = cutDeepJson(text, maxDepth);
        if (depth <= maxDepth) {
          expect(cut).toBeUndefined();
          return;
        }
        const parsed = JSON.parse(cut!.text) as unknown;
        // The markers are objects of one level at the limit.
        expect(depthOf(parsed)).toBe(maxDepth + 1);
        expect(findTooDeep(parsed)).toBeDefined();
        for (const c of cut!.cuts) expect('{['.includes(text[c.at]!)).toBe(true);
      }),
      { seed: 20261125, numRuns: 500 },
    );
  });
});
