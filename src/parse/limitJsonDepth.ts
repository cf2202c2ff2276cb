import { tooDeep } from './limits.js';

/**
 * Passes JSON text through, chunk by chunk, and fails with a {@link ParseError}
 * (the line and column of the bracket) as soon as objects and arrays nest
 * deeper than `maxDepth`: before the chunk that goes too deep reaches the
 * parser (jsonld-streaming-parser spends time in proportion to the depth on
 * every value: 20,000 levels took minutes and gigabytes). Strings are
 * followed, so brackets inside them do not count. Not a validator: anything
 * else is left to the parser.
 */
export async function* limitJsonDepth(
  chunks: AsyncIterable<string>,
  maxDepth: number,
  source: string,
): AsyncGenerator<string> {
  const guard = new DepthGuard(maxDepth, source);
  for await (const chunk of chunks) {
    guard.scan(chunk);
    yield chunk;
  }
}

/** The state of {@link limitJsonDepth} between chunks. */
class DepthGuard {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Lines before the current chunk, and the column of the current chunk's start. */
  private line = 1;
  private column = 1;

  constructor(
    private readonly maxDepth: number,
    private readonly source: string,
  ) {}

  scan(chunk: string): void {
    let { depth, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 123 || c === 91) {
        if (++depth > this.maxDepth) {
          const { line, column } = this.position(chunk, i);
          throw tooDeep('JSON-LD', this.maxDepth, this.source, line, column);
        }
      } else if ((c === 125 || c === 93) && depth > 0) depth--;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    const { line, column } = this.position(chunk, chunk.length);
    this.line = line;
    this.column = column;
  }

  /** The line and column of an offset of the current chunk. */
  private position(chunk: string, offset: number): { line: number; column: number } {
    let line = this.line;
    let lineStart = -this.column + 1;
    for (let nl = chunk.indexOf('\n'); nl >= 0 && nl < offset; nl = chunk.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    return { line, column: offset - lineStart + 1 };
  }
}
