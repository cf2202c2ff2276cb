import { formatFromMediaType, formatInfo, parseFormatName, type FormatName } from '../formats.js';

/** The four media types the vocabulary endpoint serves (spec §4.3), in the order `term --check` asks for them. */
export const TERM_MEDIA_TYPES = ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml'] as const;

/**
 * The default Accept header of a term request, as data: every RDF format we
 * read, JSON-LD first (the endpoint's canonical form), then HTML (schema.org
 * serves only HTML pages, with the JSON-LD embedded) and a low `*\/*` so that
 * an untidy server answers something rather than 406.
 */
export const DEFAULT_ACCEPT_WEIGHTS: readonly (readonly [string, number])[] = [
  ['application/ld+json', 1],
  ['text/turtle', 0.9],
  ['application/n-triples', 0.9],
  ['application/rdf+xml', 0.8],
  ['application/n-quads', 0.7],
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
    const covered = WILDCARD_ORDER.find(
      (f) => (major === '*' || formatInfo(f).mediaType.startsWith(`${major}/`)) && !refused.has(formatInfo(f).mediaType),
    );
    if (covered) return covered;
  }
  return undefined;
}

/** The formats a wildcard range stands for, in order of preference. */
const WILDCARD_ORDER: readonly FormatName[] = ['jsonld', 'turtle', 'ntriples', 'rdfxml'];
