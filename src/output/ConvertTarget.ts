import type * as RDF from '@rdfjs/types';
import type { RecordWriter } from '../serialize/QuadSerializer.js';

/** Where a conversion writes: one file (or a stream), or shards. */
export interface ConvertTarget {
  /** The writer the records go through. */
  readonly writer: RecordWriter;
  /** A record was written by `writer`: its statements and DOI. */
  written(quads: readonly RDF.Quad[], doi: string): void;
  /** Text the sink made (of the records written since, or its opening and closing), or its UTF-8 bytes. */
  add(text: string | Uint8Array): Promise<void>;
  /** The same as UTF-8 bytes in a binary string (one character a byte: `RecordSink`'s `binary`). */
  addBinary(text: string): Promise<void>;
  /** Statements of an RDF input, written as they are. */
  statements(quads: RDF.Quad[]): Promise<void>;
  /** Ends the output with `end` and puts it in place; the manifest's path for shards. */
  finish(end: string | Uint8Array): Promise<string | null>;
  /** Removes what was written (a run that failed). */
  discard(): Promise<void>;
}
