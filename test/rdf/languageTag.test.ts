import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_TAG, isLanguageTag } from '../../src/rdf/languageTag.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';

describe('isLanguageTag', () => {
  it('accepts BCP 47 tags, grandfathered ones included', () => {
    for (const t of [
      'en',
      'de-CH',
      'zh-Hant-TW',
      'sl-rozaj-biske',
      'x-private',
      'en-US-x-twain',
      'gsw',
      'english',
      'i-klingon',
      'en-GB-oed',
      'zh-min-nan',
      'art-lojban',
    ]) {
      expect(isLanguageTag(t), t).toBe(true);
    }
  });

  it('refuses what is not one (two regions, a lone singleton, a bare x, over-long subtags)', () => {
    for (const t of [
      'e',
      'x',
      'en-',
      'en-a',
      'en-US-US',
      'de-CH-',
      'english-language-tag-x',
      'en_US',
      'abcdefghi',
      'i-foo',
    ]) {
      expect(isLanguageTag(t), t).toBe(false);
    }
  });

  it("is the expression of the shapes' SPARQL language-tag constraint", () => {
    const shapes = readFileSync(fileURLToPath(new URL('../../shapes/work.ttl', import.meta.url)), 'utf8');
    const inShapes = /FILTER \(!REGEX\(LANG\(\?value\), "([^"]+)", "i"\)\)/.exec(shapes)?.[1];
    expect(inShapes).toBe(LANGUAGE_TAG.source);
  });

  it('decides what the mapper tags: a language the shapes would refuse leaves titles untagged, with a note', () => {
    const mapped = mapRecord(normalizeRecord({ doi: '10.1007/s1', title: 'T', language: 'en-US-US' }));
    const title = mapped.quads.find((q) => q.predicate.value === 'http://purl.org/dc/terms/title')!.object;
    expect(title.termType === 'Literal' && title.language).toBe('');
    expect(mapped.notes.some((n) => n.startsWith('language: "en-US-US" is not a language tag'))).toBe(true);
  });
});
