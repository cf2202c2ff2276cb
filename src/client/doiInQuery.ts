/**
 * A DOI as the value of `doi:` in a query: the characters the query language
 * reads as its own (white space ends a value, `"` opens a phrase, a trailing
 * `*` asks for a prefix) and the characters no URL carries as they are
 * (controls) percent-encoded, as DOIs are written in URLs; a
 * `%` that would read as an escape is encoded too. A DOI of printable
 * characters without those is sent as it is.
 */
export function doiInQuery(doi: string): string {
  return doi.replace(/%(?=[0-9A-Fa-f]{2})|[\s"\u0000-\u001f\u007f]|\*$/gu, (c) =>
    encodeURIComponent(c).replace('*', '%2A'),
  );
}
