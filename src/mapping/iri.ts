/**
 * IRI minting and text cleaning: the one place where record strings become
 * IRIs and literal text, so that every serialiser receives only values all
 * five formats can carry.
 */

// Characters that may stand unescaped in the path of an IRI (RFC 3987 ipchar plus '/'), ASCII part.
const PATH_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/**
 * Percent-encodes a string for use in an IRI path: keeps unreserved ASCII,
 * sub-delimiters, `:`, `@` and `/`, keeps non-ASCII letters (IRIs allow them),
 * and encodes everything else (space, `<>"{}|\^\``, `#`, `?`, `%`, `[`, `]`,
 * controls and non-characters) as UTF-8 percent-escapes.
 */
export function encodeIriPath(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) {
      out += PATH_SAFE.test(ch) ? ch : percentEncode(ch);
    } else if (isIriUcschar(cp)) {
      out += ch;
    } else {
      out += percentEncode(ch);
    }
  }
  return out;
}

/** Percent-encodes a string for use as an IRI fragment or path segment (also encodes `/`). */
export function encodeIriSegment(value: string): string {
  return encodeIriPath(value).replace(/\//g, '%2F');
}

function percentEncode(ch: string): string {
  // Lone surrogates cannot be UTF-8 encoded: they become U+FFFD first.
  const safe = ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff ? '\uFFFD' : ch;
  return Array.from(Buffer.from(safe, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

// RFC 3987 ucschar ranges (the private-use iprivate ranges are excluded on purpose).
function isIriUcschar(cp: number): boolean {
  return (
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xf900 && cp <= 0xfdcf) ||
    (cp >= 0xfdf0 && cp <= 0xffef) ||
    (cp >= 0x10000 && cp <= 0xefffd && (cp & 0xfffe) !== 0xfffe)
  );
}

/**
 * Makes an absolute IRI from a URL found in a record: trims it and
 * percent-encodes what may not stand in an IRI (spaces, `<>"{}|\^\``,
 * controls, a `%` not followed by two hex digits). Returns `undefined` when
 * the value is not an absolute URL (no scheme), so the caller keeps it as
 * text instead.
 */
export function toIri(url: string): string | undefined {
  const value = url.trim();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S/.test(value)) return undefined;
  let out = '';
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if (ch === '%') {
      out += /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? '')) ? '%' : '%25';
    } else if (cp < 0x80) {
      out += cp <= 0x20 || cp === 0x7f || '<>"{}|\\^`'.includes(ch) ? percentEncode(ch) : ch;
    } else {
      out += isIriUcschar(cp) ? ch : percentEncode(ch);
    }
  }
  return out;
}

// Characters no RDF format can carry everywhere: XML 1.0 forbids C0 controls other than TAB/LF/CR,
// U+FFFE/U+FFFF and lone surrogates, and RDF/XML is one of our formats.
const NOT_CARRIABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cleans text for a literal: removes the characters XML 1.0 cannot carry
 * (C0 controls but TAB/LF/CR, U+FFFE, U+FFFF) and replaces lone surrogates
 * by U+FFFD. Returns the text and how many characters were changed.
 */
export function cleanText(value: string): { text: string; changed: number } {
  let changed = 0;
  const text = value.replace(NOT_CARRIABLE, (ch) => {
    changed++;
    return ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff ? '\uFFFD' : '';
  });
  return { text, changed };
}

/** Whether a string is a well-formed BCP 47 language tag (the syntax RDF requires). */
export function isLanguageTag(tag: string): boolean {
  return /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(tag);
}
