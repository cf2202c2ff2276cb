import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { limitLineLength } from '../../src/parse/limitLineLength.js';
import { parseRdf } from '../../src/parse/parseRdf.js';

async function pass(chunks: string[], maxChars: number): Promise<string> {
  let out = '';
  for await (const chunk of limitLineLength(
    (async function* () {
      yield* chunks;
    })(),
    maxChars,
    'in.nt',
  ))
    out += chunk;
  return out;
}

describe('limitLineLength', () => {
  it('passes lines up to the limit through unchanged, however the chunks cut them', async () => {
    expect(await pass(['abc\nde', 'f\n', 'ghi'], 3)).toBe('abc\ndef\nghi');
  });

  it('fails on the first line longer than the limit, naming it, before passing the chunk on', async () => {
    await expect(pass(['ab\nabcd\n'], 3)).rejects.toThrow(
      new ParseError(
        'line 2 is larger than 3 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
        'in.nt',
        2,
      ),
    );
    await expect(pass(['ab\nab', 'cd'], 3)).rejects.toThrow(/^in\.nt:2: line 2 is larger than 3 characters/);
  });

  it('bounds what parseRdf holds of a line of Turtle, N-Triples or N-Quads (maxDocumentChars)', async () => {
    const nt = `<http://a/s> <http://a/p> "short" .\n<http://a/s> <http://a/p> "${'x'.repeat(5000)}" .\n`;
    for (const format of ['ntriples', 'turtle', 'nquads'] as const) {
      const quads = parseRdf(
        (async function* () {
          yield nt;
        })(),
        { format, source: 'big.nt', maxDocumentChars: 1000 },
      );
      await expect(
        (async () => {
          for await (const _ of quads) void _;
        })(),
      ).rejects.toThrow(/^big\.nt:2: line 2 is larger than 1000 characters/);
    }
  });
});
