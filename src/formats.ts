import { ToolkitError } from './errors.js';

/** The RDF formats of the toolkit (read and written). */
export type FormatName = 'turtle' | 'ntriples' | 'nquads' | 'jsonld' | 'rdfxml';

/** What the toolkit knows of each RDF format: media type, extensions (first is the default). */
export interface FormatInfo {
  format: FormatName;
  mediaType: string;
  /** Other media types servers use for this format. */
  aliases: readonly string[];
  extensions: readonly string[];
  label: string;
}

/** The five formats, in the order help texts list them. */
export const FORMATS: readonly FormatInfo[] = [
  { format: 'turtle', mediaType: 'text/turtle', aliases: ['application/x-turtle', 'application/turtle'], extensions: ['ttl'], label: 'Turtle' },
  { format: 'ntriples', mediaType: 'application/n-triples', aliases: ['text/plain'], extensions: ['nt'], label: 'N-Triples' },
  { format: 'nquads', mediaType: 'application/n-quads', aliases: ['text/x-nquads'], extensions: ['nq'], label: 'N-Quads' },
  { format: 'jsonld', mediaType: 'application/ld+json', aliases: ['application/json'], extensions: ['jsonld', 'json'], label: 'JSON-LD' },
  { format: 'rdfxml', mediaType: 'application/rdf+xml', aliases: ['application/xml', 'text/xml'], extensions: ['rdf', 'owl', 'xml'], label: 'RDF/XML' },
];

const ALIASES: Record<string, FormatName> = {
  turtle: 'turtle', ttl: 'turtle',
  ntriples: 'ntriples', 'n-triples': 'ntriples', nt: 'ntriples',
  nquads: 'nquads', 'n-quads': 'nquads', nq: 'nquads',
  jsonld: 'jsonld', 'json-ld': 'jsonld',
  rdfxml: 'rdfxml', 'rdf/xml': 'rdfxml', xml: 'rdfxml', rdf: 'rdfxml',
};

/** Information on one format. */
export function formatInfo(format: FormatName): FormatInfo {
  const info = FORMATS.find((f) => f.format === format);
  if (!info) throw new ToolkitError(`unknown format "${format}"`, 'unsupported-media-type');
  return info;
}

/** Parses a user's format name (`turtle`, `ttl`, `n-triples`, `jsonld`, `rdfxml`, ...). Throws a usage error naming the choices. */
export function parseFormatName(name: string): FormatName {
  const format = ALIASES[name.trim().toLowerCase()];
  if (!format) {
    throw new ToolkitError(
      `unknown format "${name}": choose one of ${FORMATS.map((f) => f.format).join(', ')}`,
      'usage',
    );
  }
  return format;
}

/** Whether a path names a gzip file (`.gz`). */
export function isGzipPath(path: string): boolean {
  return /\.gz$/i.test(path);
}

/** The format a file path's extension names (`.ttl`, `.nt.gz`, ...), or `undefined`. */
export function formatFromPath(path: string): FormatName | undefined {
  const name = path.replace(/\.gz$/i, '');
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return FORMATS.find((f) => f.extensions.includes(ext))?.format;
}

/** The format of a media type (parameters ignored; aliases such as `application/x-turtle` included), or `undefined`. */
export function formatFromMediaType(mediaType: string): FormatName | undefined {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return (
    FORMATS.find((f) => f.mediaType === type)?.format ??
    FORMATS.find((f) => f.aliases.includes(type))?.format
  );
}
