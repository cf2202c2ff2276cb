import type { TransformCallback } from 'node:stream';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { tooDeep } from './limits.js';

/** The part of the SAX parser inside {@link RdfXmlParser} that we use. */
interface SaxParser {
  on(name: 'error', handler: (err: Error) => void): void;
  close(): unknown;
  line: number;
  column: number;
}

/** Options of {@link ClosingRdfXmlParser}: rdfxml-streaming-parser's, and the limit on nesting. */
export type ClosingRdfXmlParserArgs = ConstructorParameters<typeof RdfXmlParser>[0] & {
  /** Levels of elements nested at most (`rdf:RDF` is the first); deeper is a parse error. Defaults to no limit. */
  maxDepth?: number;
  /** The name of the input in the error of `maxDepth`. Defaults to `<input>`. */
  source?: string;
};

/**
 * rdfxml-streaming-parser's `RdfXmlParser`, plus the end-of-document checks it
 * skips: its SAX parser is never closed, so a truncated document (unclosed
 * `rdf:RDF`, missing root) parses without error. This subclass closes it when
 * the input ends and fails the stream with the SAX parser's error. It also
 * fails, with a `ParseError`, at the first element nested deeper than
 * `maxDepth` (the SAX parser's work on every element grows with the depth:
 * 100,000 levels took minutes).
 */
export class ClosingRdfXmlParser extends RdfXmlParser {
  private readonly limit: { maxDepth: number; source: string };
  private depth = 0;

  constructor(args: ClosingRdfXmlParserArgs = {}) {
    const { maxDepth, source, ...rest } = args;
    super(rest);
    this.limit = { maxDepth: maxDepth ?? Infinity, source: source ?? '<input>' };
  }

  /** The position the SAX parser has reached (1-based line, 0-based column). */
  get position(): { line: number; column: number } {
    const sax = (this as unknown as { saxParser: SaxParser }).saxParser;
    return { line: sax.line, column: sax.column };
  }

  protected override onTag(tag: Parameters<RdfXmlParser['onTag']>[0]): void {
    if (++this.depth > this.limit.maxDepth) {
      const { line, column } = this.position;
      throw tooDeep('RDF/XML', this.limit.maxDepth, this.limit.source, line, column);
    }
    super.onTag(tag);
  }

  protected override onCloseTag(): void {
    this.depth--;
    super.onCloseTag();
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
