import { describe, expect, it } from 'vitest';
import { collapseWhitespace, unwrapParagraphs } from '../../src/record/collapseWhitespace.js';

describe('collapseWhitespace', () => {
  it('makes every run of white space that is not one plain space one space', () => {
    expect(collapseWhitespace('A\ntitle\r\nwrapped\t and  padded\u00A0here\u2028too')).toBe(
      'A title wrapped and padded here too',
    );
  });

  it('returns text with single spaces only as it is', () => {
    const s = 'Already one line';
    expect(collapseWhitespace(s)).toBe(s);
  });
});

describe('unwrapParagraphs', () => {
  it('keeps paragraph breaks (two line breaks, or U+2029) as a blank line, and joins wrapped lines', () => {
    expect(unwrapParagraphs('First line\nwrapped.\n\nSecond  paragraph\r\n\r\nThird\u2029Fourth')).toBe(
      'First line wrapped.\n\nSecond paragraph\n\nThird\n\nFourth',
    );
  });

  it('counts CR LF as one line break: a single CR LF joins lines', () => {
    expect(unwrapParagraphs('a\r\nb')).toBe('a b');
  });
});
