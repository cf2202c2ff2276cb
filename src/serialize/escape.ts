/**
 * The escaping of the XML and JSON serialisers and the names of Turtle and
 * XML: XML text and attributes, JSON strings, IRIs a reader resolves, NCNames,
 * prefixed names. The escaping every format shares (N-Triples strings, IRIs,
 * blank node labels, lone surrogates) is in `rdf/escape.ts`. Fast paths test a
 * regular expression first and only rebuild strings that need it.
 */
import { assertWellFormed, escapeIri, hex4, serializationError } from '../rdf/escape.js';

// A '.' or '..' segment of the path (after the scheme and authority, before the query and fragment), which
// resolution removes (RFC 3986 §5.2.4). In the query or fragment they are data: every reader keeps them
// (Jena, rapper, rdfxml-streaming-parser 3).
const SCHEME_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/[^/?#]*)?/;
const QUERY_FRAGMENT = /[?#][^]*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * {@link escapeIri} for an IRI a reader resolves (RDF/XML `rdf:about`,
 * `rdf:resource`, `rdf:datatype`): also refuses `.` and `..` segments, which
 * resolution removes, so the IRI would not be read back as written.
 */
export function escapeResolvedIri(iri: string): string {
  // A dot segment starts the path (after `scheme:`) or follows a '/': an IRI without ':.' and '/.' has none.
  if (
    (iri.includes('/.') || iri.includes(':.')) &&
    DOT_SEGMENT.test(iri.replace(SCHEME_AUTHORITY, '').replace(QUERY_FRAGMENT, ''))
  ) {
    throw serializationError(
      `the IRI <${iri.replace(/[\u0000-\u001F]/g, '?')}> holds a '.' or '..' segment, which a reader would resolve away (percent-encode it as %2E)`,
    );
  }
  return escapeIri(iri);
}

// Characters XML 1.0 cannot carry at all (not even as character references).
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const XML_TEXT_NEEDS = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const XML_ATTR_NEEDS = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const XML_TEXT_ALL = /[&<>\r]/g;
const XML_ATTR_ALL = /[&<>"\t\n\r]/g;

function xmlEntity(c: string): string {
  switch (c) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '"':
      return '&quot;';
    case '\t':
      return '&#9;';
    case '\n':
      return '&#10;';
    default:
      return '&#13;';
  }
}

function assertXmlChars(value: string): void {
  const m = XML_FORBIDDEN.exec(value);
  if (m) {
    throw serializationError(`XML 1.0 cannot carry the character U+${hex4(m[0].charCodeAt(0))} (offset ${m.index})`);
  }
  assertWellFormed(value);
}

/**
 * Escapes XML element text: `& < >` (so `]]>` is safe) and `\r` as `&#13;`
 * (which XML line-end handling would otherwise drop). Throws `serialization`
 * for characters XML 1.0 cannot carry (C0 controls other than tab, LF and CR,
 * U+FFFE, U+FFFF, lone surrogates).
 */
export function escapeXmlText(value: string): string {
  if (!XML_TEXT_NEEDS.test(value)) return value;
  assertXmlChars(value);
  return value.replace(XML_TEXT_ALL, xmlEntity);
}

/**
 * Escapes an XML attribute value in double quotes: `& < > "` and tab, LF, CR
 * as character references (attribute-value normalisation would turn them into
 * spaces). Throws `serialization` like {@link escapeXmlText}.
 */
export function escapeXmlAttr(value: string): string {
  if (!XML_ATTR_NEEDS.test(value)) return value;
  assertXmlChars(value);
  return value.replace(XML_ATTR_ALL, xmlEntity);
}

const JSON_NEEDS = /["\\\u0000-\u001F\uD800-\uDFFF]/;

/**
 * A string as a JSON string literal (with its quotes). Throws `serialization`
 * on a lone surrogate (JSON could escape it, but it is not a Unicode string
 * that RDF can hold).
 */
export function jsonString(value: string): string {
  if (!JSON_NEEDS.test(value)) return `"${value}"`;
  assertWellFormed(value);
  return JSON.stringify(value);
}

// XML 1.0 (5th edition) NameStartChar / NameChar, without ':' (NCName).
const NC_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NC_CHAR = `${NC_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const NCNAME = new RegExp(`^[${NC_START}][${NC_CHAR}]*$`, 'u');
const NCNAME_SUFFIX = new RegExp(`[${NC_START}][${NC_CHAR}]*$`, 'u');

/** Whether a string is an XML NCName (a name without a colon). */
export function isNcName(value: string): boolean {
  return NCNAME.test(value);
}

/**
 * Splits an IRI into namespace and NCName local name for XML: at the last
 * `#` or `/` when what follows is an NCName, else at the longest NCName
 * suffix. Returns `undefined` when there is none.
 */
export function splitIriForXml(iri: string): [namespace: string, local: string] | undefined {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1;
  if (cut > 0 && cut < iri.length && NCNAME.test(iri.slice(cut))) return [iri.slice(0, cut), iri.slice(cut)];
  const m = NCNAME_SUFFIX.exec(iri.slice(cut));
  if (!m) return undefined;
  const at = cut + m.index;
  // The namespace must not end inside the scheme ("urn" of "urn:x" would be a namespace of "urn:").
  if (at === 0) return undefined;
  return [iri.slice(0, at), iri.slice(at)];
}

// Turtle PN_LOCAL, kept to ASCII: first [A-Za-z0-9_], then [A-Za-z0-9_.-], not ending in '.'; %HH allowed anywhere.
const PN_LOCAL =
  /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:(?:[A-Za-z0-9_.-]|%[0-9A-Fa-f]{2})*(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}))?$/;
const PN_PREFIX = /^(?:[A-Za-z](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?$/;

/** Whether a local name can follow a prefix in a Turtle prefixed name as it is (ASCII subset of PN_LOCAL). */
export function isTurtleLocalName(local: string): boolean {
  return PN_LOCAL.test(local);
}

/** Whether a prefix is a valid Turtle PN_PREFIX (ASCII subset; the empty prefix included). */
export function isTurtlePrefix(prefix: string): boolean {
  return PN_PREFIX.test(prefix);
}
