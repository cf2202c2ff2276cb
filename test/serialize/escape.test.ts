import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import {
  blankNodeLabel,
  escapeIri,
  escapeLiteral,
  escapeXmlAttr,
  escapeXmlText,
  isNcName,
  isTurtleLocalName,
  jsonString,
  splitIriForXml,
} from '../../src/serialize/escape.js';

function serializationError(fn: () => unknown): ToolkitError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolkitError);
    expect((e as ToolkitError).code).toBe('serialization');
    return e as ToolkitError;
  }
  throw new Error('expected a serialization error');
}

describe('escape', () => {
  describe('escapeLiteral', () => {
    it('leaves ordinary text (unicode included) alone', () => {
      const text = 'Müller, Ånna – 中文 🧪';
      expect(escapeLiteral(text)).toBe(text);
    });
    it('escapes quote, backslash, newline, return, tab and other controls', () => {
      expect(escapeLiteral('a"b\\c\nd\re\tf\u0001g\u007f')).toBe('a\\"b\\\\c\\nd\\re\\tf\\u0001g\\u007F');
    });
    it('refuses lone surrogates but keeps pairs', () => {
      expect(escapeLiteral('"🧪"')).toBe('\\"🧪\\"');
      expect(serializationError(() => escapeLiteral('x\uD800y')).message).toMatch(/lone surrogate U\+D800/);
      serializationError(() => escapeLiteral('\uDC00'));
    });
  });

  describe('escapeIri', () => {
    it('passes percent-encoded DOIs with ( ) ; : through', () => {
      const iri = 'https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C435::AID-JBM5%3E3.0.CO;2-F';
      expect(escapeIri(iri)).toBe(iri);
    });
    it('refuses characters no IRI may hold', () => {
      for (const c of [' ', '<', '>', '"', '{', '}', '|', '^', '`', '\\', '\n', '\u0000']) {
        expect(serializationError(() => escapeIri(`http://x.org/a${c}b`)).message).toMatch(/percent-encode/);
      }
    });
  });

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

  describe('blankNodeLabel', () => {
    it('keeps simple labels and encodes others injectively', () => {
      expect(blankNodeLabel('b0')).toBe('b0');
      expect(blankNodeLabel('n3-12')).toBe('n3-12');
      const labels = ['a b', 'a_b', 'a_20_b', '-x', 'x.', 'é', ''];
      const out = labels.map(blankNodeLabel);
      expect(new Set(out).size).toBe(labels.length);
      for (const l of out) expect(l).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/);
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
});
