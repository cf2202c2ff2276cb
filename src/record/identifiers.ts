/**
 * Standard identifiers of the containers a record names (ISSN, ISBN), read
 * and verified: a mistyped one would merge a work into someone else's journal
 * or book, so only values whose check digit holds become identities.
 */

/**
 * An ISSN in its usual form (`1064-3745`; `10643745`, spaces and a lower-case
 * x are tidied) when its ISO 3297 check digit holds, else undefined.
 */
export function issnForm(value: string): string | undefined {
  if (ISSN_FORM.test(value)) return issnCheckDigit(value.slice(0, 4) + value.slice(5)) === value[8] ? value : undefined;
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[0-9]{7}[0-9X]$/.test(compact)) return undefined;
  return issnCheckDigit(compact) === compact[7] ? `${compact.slice(0, 4)}-${compact.slice(4)}` : undefined;
}

const ISSN_FORM = /^[0-9]{4}-[0-9]{3}[0-9X]$/;

/** ISO 3297 check digit of the first seven digits of an ISSN (weights 8..2, modulus 11, 10 written X). */
export function issnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(digits[i]) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/**
 * An ISBN-10 or ISBN-13 (hyphens and spaces ignored) as the 13 digits of its
 * ISBN-13 form when its check digit holds, else undefined. An ISBN-10 becomes
 * `978` + its first nine digits + the ISBN-13 check digit, as ISO 2108 defines.
 */
export function isbn13Form(value: string): string | undefined {
  const compact = compactIsbn(value) ?? value.replace(/[\s-]/g, '').toUpperCase();
  if (/^97[89][0-9]{10}$/.test(compact)) return isbn13CheckDigit(compact) === compact[12] ? compact : undefined;
  if (/^[0-9]{9}[0-9X]$/.test(compact)) {
    if (isbn10CheckDigit(compact) !== compact[9]) return undefined;
    const twelve = `978${compact.slice(0, 9)}`;
    return twelve + isbn13CheckDigit(twelve);
  }
  return undefined;
}

/**
 * An ISBN of ASCII digits, hyphens and an `X` (the usual form, `978-1-4419-7991-9`) without its hyphens, read a
 * character at a time (no regular expression, no string made when it has none); undefined for any other
 * character ({@link isbn13Form} then tidies it as a whole).
 */
function compactIsbn(value: string): string | undefined {
  let hyphens = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 45) hyphens = true;
    else if ((c < 48 || c > 57) && c !== 88) return undefined;
  }
  return hyphens ? value.replaceAll('-', '') : value;
}

/** ISBN-13 (EAN-13) check digit of the first twelve digits: weights 1 and 3 alternating, modulus 10. */
export function isbn13CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

/** ISBN-10 check digit of the first nine digits: weights 10..2, modulus 11, 10 written X. */
export function isbn10CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}
