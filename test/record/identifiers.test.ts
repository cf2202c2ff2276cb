import { describe, expect, it } from 'vitest';
import {
  isbn10CheckDigit,
  isbn13CheckDigit,
  isbn13Form,
  issnCheckDigit,
  issnForm,
} from '../../src/record/identifiers.js';

describe('identifiers', () => {
  it('computes ISSN, ISBN-10 and ISBN-13 check digits of real identifiers', () => {
    expect(issnCheckDigit('1573772')).toBe('1'); // 1573-7721, Multimedia Tools and Applications
    expect(issnCheckDigit('1050124')).toBe('X'); // 1050-124X: a remainder of 10 is written X
    expect(isbn13CheckDigit('978144197991')).toBe('9'); // 978-1-4419-7991-9
    expect(isbn10CheckDigit('144197991')).toBe('3'); // 1-4419-7991-3
  });

  it('gives the ISSN form only when the check digit holds', () => {
    expect(issnForm('1573-7721')).toBe('1573-7721');
    expect(issnForm('15737721')).toBe('1573-7721');
    expect(issnForm('1050 124x')).toBe('1050-124X');
    expect(issnForm('1573-7722')).toBeUndefined();
    expect(issnForm('ISSN 1573')).toBeUndefined();
  });

  it('gives the ISBN-13 form of an ISBN-13 or ISBN-10 only when its check digit holds', () => {
    expect(isbn13Form('978-1-4419-7991-9')).toBe('9781441979919');
    expect(isbn13Form('1-4419-7991-3')).toBe('9781441979919');
    expect(isbn13Form('978-1-4419-7991-8')).toBeUndefined();
    expect(isbn13Form('1-4419-7991-2')).toBeUndefined();
    expect(isbn13Form('not an isbn')).toBeUndefined();
  });
});
