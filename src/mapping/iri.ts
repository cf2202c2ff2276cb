/**
 * IRI minting: the one place where record strings become IRIs, so that every
 * serialiser receives only IRIs all five formats can carry. (Literal text is
 * cleaned by the normaliser: see `src/record/cleanText.ts`.)
 */

// Characters that may stand unescaped in the path of an IRI (RFC 3987 ipchar plus '/'), ASCII part.
const PATH_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;
const PATH_SAFE_ALL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

/**
 * Percent-encodes a string for use in an IRI path: keeps unreserved ASCII,
 * sub-delimiters, `:`, `@` and `/`, keeps non-ASCII letters, marks, digits,
 * punctuation and symbols of the Basic Multilingual Plane (IRIs allow them),
 * and encodes everything else as UTF-8 percent-escapes: space, `<>"{}|\^\``,
 * `#`, `?`, `%`, `[`, `]`, controls, non-characters, private use, Unicode
 * spaces and line separators, bidi and other format characters (RFC 3987
 * §4.1 forbids bidi marks), unassigned code points and characters beyond
 * U+FFFF (Jena 4 reads those as two lone surrogates and warns). A path
 * segment `.` or `..` is written `%2E` / `%2E%2E`: a resolver would
 * otherwise remove it (RFC 3986 §5.2.4) and change the IRI.
 */
export function encodeIriPath(value: string): string {
  // Most values (DOIs, ids, slugs) are ASCII that may stand as it is: only dot segments may need work.
  if (PATH_SAFE_ALL.test(value)) return encodeDotSegments(value);
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += PATH_SAFE.test(ch) ? ch : percentEncode(ch);
    else out += isSafeUcschar(ch, cp) ? ch : percentEncode(ch);
  }
  return encodeDotSegments(nfcOrEncoded(out));
}

/**
 * The IRI text itself when it is in Unicode Normalization Form C (RFC 3987
 * §5.3.2.2; Jena warns otherwise), else with every non-ASCII character
 * percent-encoded: normalising would change the identifier, encoding does not.
 */
function nfcOrEncoded(iri: string): string {
  if (!/[^\u0000-\u007F]/.test(iri) || iri.normalize('NFC') === iri) return iri;
  return iri.replace(/[^\u0000-\u007F]/gu, (ch) => percentEncode(ch));
}

/** Percent-encodes a string for use as an IRI fragment or path segment (also encodes `/`). */
export function encodeIriSegment(value: string): string {
  return encodeDotSegments(encodeIriPath(value).replace(/\//g, '%2F'));
}

function encodeDotSegments(path: string): string {
  if (!DOT_SEGMENT.test(path)) return path;
  return path
    .split('/')
    .map((segment) => (segment === '.' ? '%2E' : segment === '..' ? '%2E%2E' : segment))
    .join('/');
}

// A '.' or '..' segment of a path.
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

function percentEncode(ch: string): string {
  // Lone surrogates cannot be UTF-8 encoded: they become U+FFFD first.
  const safe = ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff ? '\uFFFD' : ch;
  return Array.from(Buffer.from(safe, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

// Non-ASCII characters kept as they are in IRIs: visible ones (letters, marks, numbers, punctuation, symbols).
const VISIBLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * Whether a non-ASCII character may stand unencoded in the IRIs we write: an
 * RFC 3987 ucschar of the BMP (private use excluded) that is visible (not a
 * space, separator, control, format character such as a bidi mark, or
 * unassigned).
 */
function isSafeUcschar(ch: string, cp: number): boolean {
  const ucschar = (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef);
  return ucschar && VISIBLE.test(ch);
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };
// A DNS label (letters and digits of any script, '-' inside), an IPv4 address, or an IPv6 literal.
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;

/**
 * Makes an absolute IRI from a URL found in a record, or returns `undefined`
 * when the value is not an `http` or `https` URL with a well-formed
 * host, so the caller keeps it as text. Every IRI we write is one that strict
 * checkers (Jena's IRI rules, RDF/XML resolvers) accept as it is:
 * - the scheme is lower-cased; an empty or default port (`:80` for http) is dropped;
 * - a URL with user information (`user:password@host`) is not made an IRI (it is text);
 * - `.` and `..` path segments are resolved away (RFC 3986 §5.2.4, as a resolver would);
 * - an IRI that is not in Unicode Normalization Form C has its non-ASCII characters percent-encoded;
 * - what may not stand in an IRI is percent-encoded: spaces, `<>"{}|\^\``,
 *   `[` `]` outside the host, a second `#`, controls, a `%` not followed by two
 *   hex digits, and the non-ASCII characters {@link encodeIriPath} encodes.
 */
export function toIri(url: string): string | undefined {
  const trimmed = url.trim();
  // A plain URL (lower-case scheme, a host of ASCII labels, no port, user, '%', '#' or dot segment, only
  // characters that stand in an IRI as they are) is its own IRI: what the general path would return.
  const plain = PLAIN_URL.exec(trimmed);
  if (plain && !DASH_AT_LABEL_END.test(plain[1]!) && !trimmed.includes('/.')) return trimmed;
  return generalIri(trimmed);
}

// http(s)://host[/path][?query], of the characters the general path keeps as they are (see URL_SAFE).
const PLAIN_URL =
  /^https?:\/\/([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?$/;
const DASH_AT_LABEL_END = /(?:^|\.)-|-(?:$|\.)/;

/**
 * {@link toIri} without its shortcut for plain URLs: the general rules, for
 * any text (exported so tests can hold the shortcut to them).
 */
export function generalIri(url: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#\\]*)(.*)$/s.exec(url.trim());
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  if (!(scheme in DEFAULT_PORTS)) return undefined;
  const authority = m[2]!;
  if (authority.includes('@')) return undefined;
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
  if (!hp) return undefined;
  const host = hp[1]!;
  if (!(IPV6.test(host) || (host !== '' && host.split('.').every((label) => LABEL.test(label))))) return undefined;
  if (!(
    host.startsWith('[') || [...host].every((ch) => ch.codePointAt(0)! < 0x80 || isSafeUcschar(ch, ch.codePointAt(0)!))
  ))
    return undefined;
  const port = hp[2];
  if (port !== undefined && port !== '' && Number(port) > 65535) return undefined;
  const keepPort = port !== undefined && port !== '' && String(Number(port)) !== DEFAULT_PORTS[scheme];
  let rest = '';
  let part: 'path' | 'query' | 'fragment' = 'path';
  let path = '';
  const chars = Array.from(m[3]!);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    let piece: string;
    if (ch === '?' && part === 'path') {
      part = 'query';
      piece = ch;
    } else if (ch === '#' && part !== 'fragment') {
      part = 'fragment';
      piece = ch;
    } else if (ch === '%') {
      piece = /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? '')) ? '%' : '%25';
    } else if (cp < 0x80) {
      piece = URL_SAFE.test(ch) || (part !== 'path' && (ch === '?' || ch === '/')) ? ch : percentEncode(ch);
    } else {
      piece = isSafeUcschar(ch, cp) ? ch : percentEncode(ch);
    }
    if (part === 'path') path += piece;
    else rest += piece;
  }
  // Dot segments in the query or fragment are not resolved by RFC 3986, but some readers (the RDF/XML parser of
  // rdfjs) remove them anyway: their dots are percent-encoded (an equivalent IRI under RFC 3986 §6.2.2.2).
  const safeRest = rest.replace(/\/(\.\.?)(?=[/?#]|$)/g, (_, dots: string) => `/${dots.replace(/\./g, '%2E')}`);
  const iri = `${scheme}://${host}${keepPort ? `:${port}` : ''}${nfcOrEncoded(removeDotSegments(path) + safeRest)}`;
  return iri.normalize('NFC') === iri ? iri : undefined;
}

// ASCII that may stand in an IRI path as it is (RFC 3986 pchar without '%', plus '/').
const URL_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** RFC 3986 §5.2.4: removes `.` and `..` segments from a path. */
function removeDotSegments(path: string): string {
  if (!/(^|\/)\.\.?(\/|$)/.test(path)) return path;
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else {
      out.push(s);
    }
  }
  const result = out.join('/');
  return path.startsWith('/') && !result.startsWith('/') ? `/${result}` : result;
}
