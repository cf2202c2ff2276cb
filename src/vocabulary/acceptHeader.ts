import { formatFromMediaType, formatInfo, parseFormatName, type FormatName } from '../formats.js';

/** The four formats the vocabulary endpoint serves (spec §4.3) and `vocab/` ships, in the order `term --check` asks for them. */
export const TERM_FORMATS: readonly FormatName[] = ['jsonld', 'ntriples', 'turtle', 'rdfxml'];

/** The media types of {@link TERM_FORMATS}, in that order. */
export const TERM_MEDIA_TYPES: readonly string[] = TERM_FORMATS.map((f) => formatInfo(f).mediaType);

/** The formats of terms in order of preference: a wildcard Accept range stands for the first it covers; the extension fallback tries them in turn. */
export const PREFERRED_TERM_FORMATS: readonly FormatName[] = ['jsonld', 'turtle', 'ntriples', 'rdfxml'];

/** The q of each RDF format in the default Accept header: JSON-LD first (the endpoint's canonical form). */
const FORMAT_WEIGHTS: readonly (readonly [FormatName, number])[] = [
  ['jsonld', 1],
  ['turtle', 0.9],
  ['ntriples', 0.9],
  ['rdfxml', 0.8],
  ['nquads', 0.7],
];

/**
 * The default Accept header of a term request, as data: every RDF format we
 * read, JSON-LD first (the endpoint's canonical form), then HTML (schema.org
 * serves only HTML pages, with the JSON-LD embedded) and a low `*\/*` so that
 * an untidy server answers something rather than 406.
 */
export const DEFAULT_ACCEPT_WEIGHTS: readonly (readonly [string, number])[] = [
  ...FORMAT_WEIGHTS.map(([format, q]) => [formatInfo(format).mediaType, q] as const),
  ['application/json', 0.5],
  ['text/html', 0.3],
  ['*/*', 0.1],
];

/** Formats a list of `[mediaType, q]` as an Accept header (`q` omitted when 1). */
export function formatAccept(weights: readonly (readonly [string, number])[]): string {
  return weights.map(([type, q]) => (q === 1 ? type : `${type};q=${q}`)).join(', ');
}

/**
 * The Accept header for what a user asked: nothing → the q-weighted default;
 * a format name (`turtle`, `nt`, `jsonld`, `rdfxml`) → its media type; a media
 * type or a whole Accept header → sent as given.
 */
export function toAcceptHeader(asked?: string): string {
  if (asked === undefined || asked.trim() === '') return formatAccept(DEFAULT_ACCEPT_WEIGHTS);
  if (asked.includes('/')) return asked.trim();
  return formatInfo(parseFormatName(asked)).mediaType;
}

/**
 * The RDF format an Accept header prefers (for the extension fallback and the
 * shipped copy): the known RDF media type of highest `q` (earliest on a tie);
 * a wildcard (`*\/*`, `application/*`, `text/*`) stands for the first of
 * JSON-LD, Turtle, N-Triples, RDF/XML it covers and the header does not refuse
 * with `q=0`. Undefined when the header asks for no RDF format.
 */
export function preferredFormat(accept: string): FormatName | undefined {
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      const qParam = params.find((p) => /^q=/i.test(p));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { type: type.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.type !== '');
  const refused = new Set(ranges.filter((r) => r.q <= 0).map((r) => r.type));
  const ordered = ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ordered) {
    const exact = formatFromMediaType(range.type);
    if (exact && !range.type.includes('*')) return exact;
    const [major, minor] = range.type.split('/');
    if (minor !== '*') continue;
    const covered = PREFERRED_TERM_FORMATS.find(
      (f) =>
        (major === '*' || formatInfo(f).mediaType.startsWith(`${major}/`)) && !refused.has(formatInfo(f).mediaType),
    );
    if (covered) return covered;
  }
  return undefined;
}
