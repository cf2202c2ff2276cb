import type { TransformCallback } from 'node:stream';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

/** The part of the SAX parser inside {@link RdfXmlParser} that we use. */
interface SaxParser {
  on(name: 'error', handler: (err: Error) => void): void;
  close(): unknown;
  line: number;
  column: number;
}

/**
 * rdfxml-streaming-parser's `RdfXmlParser`, plus the end-of-document checks it
 * skips: its SAX parser is never closed, so a truncated document (unclosed
 * `rdf:RDF`, missing root) parses without error. This subclass closes it when
 * the input ends and fails the stream with the SAX parser's error.
 */
export class ClosingRdfXmlParser extends RdfXmlParser {
  /** The position the SAX parser has reached (1-based line, 0-based column). */
  get position(): { line: number; column: number } {
    const sax = (this as unknown as { saxParser: SaxParser }).saxParser;
    return { line: sax.line, column: sax.column };
  }

  override _flush(callback: TransformCallback): void {
    const sax = (this as unknown as { saxParser: SaxParser }).saxParser;
    let failure: Error | undefined;
    sax.on('error', (err) => {
      failure ??= err;
    });
    try {
      sax.close();
    } catch (err) {
      failure ??= err as Error;
    }
    callback(failure);
  }
}
