import { describe, expect, it } from 'vitest';
import { serializationError } from '../helpers/errors.js';
import {
  escapeResolvedIri,
  escapeXmlAttr,
  escapeXmlText,
  isNcName,
  isTurtleLocalName,
  jsonString,
  splitIriForXml,
} from '../../src/serialize/escape.js';

describe('escape', () => {
  describe('escapeXmlText and escapeXmlAttr', () => {
    it('escape markup, keep ]]> and -- safe', () => {
      expect(escapeXmlText('a < b & c > d ]]> -- "q"')).toBe('a &lt; b &amp; c &gt; d ]]&gt; -- "q"');
      expect(escapeXmlAttr('a<b&c"d\te\nf\rg')).toBe('a&lt;b&amp;c&quot;d&#9;e&#10;f&#13;g');
    });
    it('keep tab and newline in text, and protect CR', () => {
      expect(escapeXmlText('a\tb\nc\r\nd')).toBe('a\tb\nc&#13;\nd');
    });
    it('refuse characters XML 1.0 cannot carry', () => {
      for (const c of ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u001F', '\uFFFE', '\uFFFF', '\uD800']) {
        serializationError(() => escapeXmlText(`a${c}b`));
        serializationError(() => escapeXmlAttr(`a${c}b`));
      }
      expect(serializationError(() => escapeXmlText('ab\u0001')).message).toMatch(/U\+0001/);
    });
  });

  describe('jsonString', () => {
    it('is JSON.stringify for well-formed strings', () => {
      for (const s of ['plain', 'q"b\\', 'ctl\u0001\n', '🧪 \u2028']) expect(JSON.parse(jsonString(s))).toBe(s);
    });
    it('refuses lone surrogates', () => {
      serializationError(() => jsonString('\uDBFF'));
    });
  });

  describe('names', () => {
    it('isNcName follows XML names without colons', () => {
      expect(isNcName('name')).toBe(true);
      expect(isNcName('_x-1.2')).toBe(true);
      expect(isNcName('Übersicht')).toBe(true);
      expect(isNcName('1x')).toBe(false);
      expect(isNcName('a:b')).toBe(false);
      expect(isNcName('')).toBe(false);
    });
    it('splitIriForXml splits at the last # or / or at the longest NCName suffix', () => {
      expect(splitIriForXml('http://schema.org/name')).toEqual(['http://schema.org/', 'name']);
      expect(splitIriForXml('http://x.org/v#p')).toEqual(['http://x.org/v#', 'p']);
      expect(splitIriForXml('http://x.org/v/123abc')).toEqual(['http://x.org/v/123', 'abc']);
      expect(splitIriForXml('http://x.org/v/123')).toBeUndefined();
      expect(splitIriForXml('http://x.org/v/')).toBeUndefined();
    });
    it('isTurtleLocalName accepts the ASCII PN_LOCAL subset', () => {
      expect(isTurtleLocalName('ScholarlyArticle')).toBe(true);
      expect(isTurtleLocalName('123')).toBe(true);
      expect(isTurtleLocalName('a.b')).toBe(true);
      expect(isTurtleLocalName('a%20b')).toBe(true);
      expect(isTurtleLocalName('a.')).toBe(false);
      expect(isTurtleLocalName('a/b')).toBe(false);
      expect(isTurtleLocalName('')).toBe(false);
    });
  });

  describe('escapeResolvedIri', () => {
    it('refuses a dot segment of the path, which a reader would resolve away', () => {
      for (const iri of [
        'http://a.example/./b',
        'http://a.example/b/..',
        'http://a.example/..',
        'urn:.',
        'urn:./x',
        'urn:x/../y',
      ]) {
        expect(() => escapeResolvedIri(iri), iri).toThrow(/'\.' or '\.\.' segment/);
      }
    });

    it('keeps dots elsewhere: in names, the host, the query and the fragment', () => {
      for (const iri of [
        'http://a.example/b.c/.d/..e',
        'http://a.example/b?x=/./',
        'http://a.example/b#/../',
        'urn:x.y',
        'http://a.example',
      ]) {
        expect(escapeResolvedIri(iri)).toBe(iri);
      }
    });
  });
});
