import { tooLarge } from './limits.js';

/**
 * Passes text through, chunk by chunk, and fails with a `parse` error as soon
 * as one line is longer than `maxChars`: the line-based parsers (n3's, for
 * Turtle, N-Triples and N-Quads) hold the line, or the token, they are in,
 * and a 600 MB line took 1.4 GB to end in V8's "Invalid string length".
 */
export async function* limitLineLength(
  chunks: AsyncIterable<string>,
  maxChars: number,
  source: string,
): AsyncGenerator<string> {
  /** Lines before the current one, and the length of the current one so far. */
  let line = 1;
  let length = 0;
  for await (const chunk of chunks) {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      if (length + (nl - from) > maxChars) throw tooLarge(`line ${line} is`, maxChars, source, line);
      line++;
      length = 0;
      from = nl + 1;
    }
    length += chunk.length - from;
    if (length > maxChars) throw tooLarge(`line ${line} is`, maxChars, source, line);
    yield chunk;
  }
}
