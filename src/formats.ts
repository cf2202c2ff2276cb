import { ToolkitError } from './errors.js';

/**
 * The table of RDF formats: everything the toolkit knows of a format is written here, once, and every other
 * room asks the table (`test/formatFacts.test.ts` fails on a media type, an extension or a list of the
 * formats with a capability written elsewhere in `src/`). A format's writer is `serializerFor(format)`
 * (`serialize/serializers.ts`, whose map the compiler holds complete for {@link FormatName}); its parser is
 * the family named by {@link FormatInfo.parser}, loaded by `parse/parseRdf.ts` on first use.
 */

/** The RDF formats of the toolkit (read and written). */
export type FormatName = 'turtle' | 'ntriples' | 'nquads' | 'jsonld' | 'rdfxml' | 'trig';

/** The parsers of `parse/parseRdf.ts`: n3's streaming parser (given the format's media type), rdfxml-streaming-parser, jsonld-streaming-parser. */
export type ParserFamily = 'n3' | 'rdfxml' | 'jsonld';

/** What the toolkit knows of each RDF format. */
export interface FormatInfo {
  format: FormatName;
  /** Its media type (the one written and sent). */
  mediaType: string;
  /** Other media types servers use for this format. */
  aliases: readonly string[];
  /** File extensions without the dot, first is the default; any of them may be followed by `.gz`. */
  extensions: readonly string[];
  /** Its name in messages (`N-Quads`). */
  label: string;
  /** Other names a user may give for it (`ttl`, `n-triples`), lower case. */
  names: readonly string[];
  /** It carries named graphs: a graph per record (`graphPerRecord`), deltas for `load --upsert`. */
  namedGraphs: boolean;
  /**
   * Its writer puts every quad in a graph of its own choosing: the default graph's quads in the `graph`
   * option's graph, an export's dataset description in the dataset's graph after the records.
   */
  anyGraph: boolean;
  /** One statement a line, no prefixes or nesting: dumps are cut, counted and loaded by lines, without a parser. */
  lines: boolean;
  /** The parser that reads it. */
  parser: ParserFamily;
}

/** The six formats, in the order help texts list them. */
export const FORMATS: readonly FormatInfo[] = [
  {
    format: 'turtle',
    mediaType: 'text/turtle',
    aliases: ['application/x-turtle', 'application/turtle'],
    extensions: ['ttl'],
    label: 'Turtle',
    names: ['ttl'],
    namedGraphs: false,
    anyGraph: false,
    lines: false,
    parser: 'n3',
  },
  {
    format: 'ntriples',
    mediaType: 'application/n-triples',
    aliases: ['text/plain'],
    extensions: ['nt'],
    label: 'N-Triples',
    names: ['nt', 'n-triples'],
    namedGraphs: false,
    anyGraph: false,
    lines: true,
    parser: 'n3',
  },
  {
    format: 'nquads',
    mediaType: 'application/n-quads',
    aliases: ['text/x-nquads'],
    extensions: ['nq'],
    label: 'N-Quads',
    names: ['nq', 'n-quads'],
    namedGraphs: true,
    anyGraph: true,
    lines: true,
    parser: 'n3',
  },
  {
    format: 'jsonld',
    mediaType: 'application/ld+json',
    aliases: ['application/json'],
    extensions: ['jsonld', 'json'],
    label: 'JSON-LD',
    names: ['json-ld'],
    namedGraphs: true,
    anyGraph: false,
    lines: false,
    parser: 'jsonld',
  },
  {
    format: 'rdfxml',
    mediaType: 'application/rdf+xml',
    aliases: ['application/xml', 'text/xml'],
    extensions: ['rdf', 'owl', 'xml'],
    label: 'RDF/XML',
    names: ['rdf', 'rdf/xml', 'xml'],
    namedGraphs: false,
    anyGraph: false,
    lines: false,
    parser: 'rdfxml',
  },
  {
    format: 'trig',
    mediaType: 'application/trig',
    aliases: ['application/x-trig'],
    extensions: ['trig'],
    label: 'TriG',
    names: [],
    namedGraphs: true,
    anyGraph: true,
    lines: false,
    parser: 'n3',
  },
];

/** Every name a user may give for a format: the formats' own names, then the other names, in table order. */
export const FORMAT_NAMES: readonly string[] = [...FORMATS.map((f) => f.format), ...FORMATS.flatMap((f) => f.names)];

/** The formats whose {@link FormatInfo.lines} is true: the line readers of `group/` and `store/` read these two grammars. */
export type LineFormat = 'ntriples' | 'nquads';

/** Name (or other name) -> format. */
const BY_NAME: ReadonlyMap<string, FormatName> = new Map(
  FORMATS.flatMap((f) => [f.format, ...f.names].map((n) => [n, f.format] as const)),
);

/** Information on one format. */
export function formatInfo(format: FormatName): FormatInfo {
  const info = FORMATS.find((f) => f.format === format);
  if (!info) throw new ToolkitError(`unknown format "${format}"`, 'unsupported-media-type');
  return info;
}

/** The formats with a capability (`namedGraphs`, `anyGraph`, `lines`), in table order. */
export function formatsWith(capability: 'namedGraphs' | 'anyGraph' | 'lines'): FormatInfo[] {
  return FORMATS.filter((f) => f[capability]);
}

/** Whether a format is read and written one statement a line ({@link FormatInfo.lines}). */
export function isLineFormat(format: FormatName | undefined): format is LineFormat {
  return format !== undefined && formatInfo(format).lines;
}

/** The labels of formats for a message: `N-Quads, TriG or JSON-LD`. */
export function labelList(formats: readonly FormatInfo[]): string {
  const labels = formats.map((f) => f.label);
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}

/** The formats' names for a help text: `turtle, ntriples, ... or trig`. */
export function formatNameList(): string {
  const names = FORMATS.map((f) => f.format);
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The default extension of each format, with its dot, for a help text: `.ttl .nt .nq ...`. */
export function extensionList(formats: readonly (FormatInfo | FormatName)[] = FORMATS, separator = ' '): string {
  return formats.map((f) => `.${(typeof f === 'string' ? formatInfo(f) : f).extensions[0]!}`).join(separator);
}

/** Parses a user's format name (`turtle`, `ttl`, `n-triples`, `jsonld`, `rdfxml`, ...). Throws a usage error naming the choices. */
export function parseFormatName(name: string): FormatName {
  const format = BY_NAME.get(name.trim().toLowerCase());
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

/** The extension of a path before any `.gz`, lower case, without the dot (`a.NT.gz` → `nt`); '' when it has none. */
export function extensionOf(path: string): string {
  const name = path.replace(/\.gz$/i, '');
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** A path without its `.gz` and its RDF extension (`dumps/a.nt.gz` → `dumps/a`); without only the `.gz` when it has no RDF extension. */
export function withoutFormatExtension(path: string): string {
  const name = path.replace(/\.gz$/i, '');
  return formatFromPath(name) === undefined ? name : name.slice(0, name.lastIndexOf('.'));
}

/** The format a file path's extension names (`.ttl`, `.nt.gz`, ...), or `undefined`. */
export function formatFromPath(path: string): FormatName | undefined {
  const ext = extensionOf(path);
  return ext === '' ? undefined : FORMATS.find((f) => f.extensions.includes(ext))?.format;
}

/** The format of a media type (parameters ignored; aliases such as `application/x-turtle` included), or `undefined`. */
export function formatFromMediaType(mediaType: string): FormatName | undefined {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return FORMATS.find((f) => f.mediaType === type)?.format ?? FORMATS.find((f) => f.aliases.includes(type))?.format;
}
