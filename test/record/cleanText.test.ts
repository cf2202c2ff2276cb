import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/record/cleanText.js';

describe('cleanText', () => {
  it('leaves text all formats can carry as it is, with no change counted', () => {
    expect(cleanText('Metabolomics: a tab\there, a line\nthere, ü, 𝔘')).toEqual({
      text: 'Metabolomics: a tab\there, a line\nthere, ü, 𝔘',
      changed: 0,
    });
  });

  it('removes controls XML 1.0 cannot carry and U+FFFE/U+FFFF, and replaces lone surrogates by U+FFFD, counting each', () => {
    expect(cleanText('A\u0000B\u000BC\uFFFED\uFFFF')).toEqual({ text: 'ABCD', changed: 4 });
    expect(cleanText('x\uD800y\uDC00')).toEqual({ text: 'x\uFFFDy\uFFFD', changed: 2 });
  });

  it('puts text in NFC, counting the step once', () => {
    expect(cleanText('Mu\u0308ller e\u0301')).toEqual({ text: 'Müller é', changed: 1 });
  });

  it('gives a leading combining character U+25CC DOTTED CIRCLE as its base, after leading white space', () => {
    expect(cleanText('\u0301abc')).toEqual({ text: '\u25CC\u0301abc', changed: 1 });
    expect(cleanText(' \u1161')).toEqual({ text: ' \u25CC\u1161', changed: 1 });
    // NEL is white space one-line text collapses and trims (fuzz seed 313617026: a genre "\u0085\u1160" became "\u1160").
    expect(cleanText('\u0085\u1160')).toEqual({ text: '\u0085\u25CC\u1160', changed: 1 });
  });
});
