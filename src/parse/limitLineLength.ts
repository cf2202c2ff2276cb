import { tooLarge } from './limits.js';

/**
 * Passes text through, chunk by chunk, and fails with a `parse` error as soon
 * as one line is longer than `maxChars`: the line-based parsers (n3's, for
 * Turtle, N-Triples and N-Quads) hold the line, or the token, they are in,
 * and a 600 MB line took 1.4 GB to end in V8's "Invalid string length".
 *
 * A chunk that ends no line is held back, not passed on, until the line ends
 * (then the held chunks go on, in order) or is longer than `maxChars` (then
 * the error): the parser never sees a line longer than the limit, so what it
 * builds of one (n3 appends each chunk to the text it has not read yet, a new
 * copy each time) is bounded by the limit too. At most `maxChars` characters
 * are held, plus the chunk being read.
 */
export async function* limitLineLength(
  chunks: AsyncIterable<string>,
  maxChars: number,
  source: string,
): AsyncGenerator<string> {
  /** Lines before the current one, and the length of the current one so far. */
  let line = 1;
  let length = 0;
  /** Chunks of the current line that end no line, held back. */
  let held: string[] = [];
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
    if (from === 0) {
      held.push(chunk);
      continue;
    }
    if (held.length) {
      yield* held;
      held = [];
    }
    yield chunk;
  }
  yield* held;
}
