import type * as RDF from '@rdfjs/types';
import type { FormatName } from '../formats.js';

/** Options shared by the serialisers. */
export interface SerializerOptions {
  /**
   * Prefixes to declare: the full set for Turtle `@prefix` and RDF/XML `xmlns:`; for JSON-LD, prefixes added to
   * the shipped context (one that redefines a context prefix re-bases the terms written with it). Defaults to
   * `DEFAULT_PREFIXES` (JSON-LD: the shipped context alone).
   */
  prefixes?: Readonly<Record<string, string>>;
  /**
   * The formats that put any quad in any graph (N-Quads, TriG: `anyGraph` in `formats.ts`) only: the graph IRI
   * written on every quad whose graph is the default graph; named graphs are kept. Defaults to none (triples).
   */
  graph?: string;
  /**
   * JSON-LD only: `'inline'` embeds the shipped context (`vocab/context.jsonld`); a URL such as `CONTEXT_URL`
   * references it instead (the URL must serve that same context). Defaults to `'inline'`.
   */
  jsonldContext?: 'inline' | string;
}

/**
 * A pure, synchronous writer: it turns groups of quads (one group per record,
 * the record's subject first) into text chunks. It holds no more than one
 * group in memory, so output can be streamed record by record.
 */
export interface RecordWriter {
  /** Text that opens the document (prefixes, `{"@context":..., "@graph":[`, `<rdf:RDF ...>`). */
  start(): string;
  /** The text of one group of quads. */
  write(quads: readonly RDF.Quad[]): string;
  /**
   * The same text as the UTF-8 bytes it is written as, in a binary string
   * (one character a byte: write it with the `'latin1'` encoding): cheaper to
   * write out than the text when it holds characters past U+00FF (N-Triples,
   * N-Quads). Writers without it are written with {@link write}.
   */
  writeBinary?(quads: readonly RDF.Quad[]): string;
  /** Text that closes the document. */
  end(): string;
  /**
   * Prepares the writer to continue a document whose opening and first
   * `records` groups are already written (a resumed export): no `start()` text
   * is needed, and separators between records (JSON-LD) are written as if the
   * earlier groups had gone through this writer.
   */
  continueAfter(records: number): void;
}

/** A serialisation format: its names and a factory of writers. */
export interface QuadSerializer {
  readonly format: FormatName;
  readonly mediaType: string;
  /** File extensions without the dot, first is the default (`ttl`). */
  readonly extensions: readonly string[];
  createWriter(options?: SerializerOptions): RecordWriter;
}
