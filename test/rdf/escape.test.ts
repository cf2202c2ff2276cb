import { describe, expect, it } from 'vitest';
import { serializationError } from '../helpers/errors.js';
import { blankNodeLabel, escapeIri, escapeLiteral, literalText } from '../../src/rdf/escape.js';

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
});

describe('literalText', () => {
  it('is a plain value itself and any other escaped then encoded, a concatenation as the text it spells', () => {
    for (const [value, written] of [
      ['Springer Nature 2023', 'Springer Nature 2023'],
      ['Müller, J. "quoted"\n', 'Müller, J. \\"quoted\\"\\n'],
      ['a "b" then ü', 'a \\"b\\" then ü'],
      ['a "b" only ASCII', 'a \\"b\\" only ASCII'],
      ['Ålesund', 'Ålesund'],
      ['中文 \\ 🧪\t', '中文 \\\\ 🧪\\t'],
      ['ends in a control\u0001', 'ends in a control\\u0001'],
      ['', ''],
    ]) {
      const joined = `${value.slice(0, 3)}` + value.slice(3);
      expect(literalText(joined, false)).toBe(written);
      expect(literalText(joined, true)).toBe(Buffer.from(written!, 'utf8').toString('latin1'));
    }
  });
  it('refuses a lone surrogate after the first character that is not plain', () => {
    for (const binary of [false, true]) {
      expect(serializationError(() => literalText('é then \uD800 alone', binary)).message).toMatch(
        /lone surrogate U\+D800/,
      );
    }
  });
});
