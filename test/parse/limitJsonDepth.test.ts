import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { limitJsonDepth } from '../../src/parse/limitJsonDepth.js';

async function pass(chunks: string[], maxDepth: number): Promise<string> {
  let out = '';
  for await (const chunk of limitJsonDepth(
    (async function* () {
      yield* chunks;
    })(),
    maxDepth,
    'in.jsonld',
  ))
    out += chunk;
  return out;
}

describe('limitJsonDepth', () => {
  it('passes JSON within the limit through unchanged; brackets in strings (escaped quotes too) do not count', async () => {
    const text = '{"a": [{"b": "[[[{{{\\"[["}]}';
    expect(await pass([text], 3)).toBe(text);
    expect(await pass(text.split(''), 3)).toBe(text);
  });

  it('fails at the bracket that opens one level too many, with its line and column, before passing that chunk on', async () => {
    const seen: string[] = [];
    const chunks = ['{"a":\n', '  [[', '[1]]]}'];
    const err = await (async () => {
      for await (const chunk of limitJsonDepth(
        (async function* () {
          yield* chunks;
        })(),
        3,
        'in.jsonld',
      ))
        seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).message).toBe(
      'in.jsonld:2:5: JSON-LD nested deeper than 3 levels: not read (`maxDepth` raises the limit)',
    );
    expect(seen).toEqual(['{"a":\n', '  [[']);
  });

  it('is not fooled by a string that spans chunks, nor by an escape at a chunk end', async () => {
    await expect(pass(['["[[[[', '[[\\', '"[[[[', '"]'], 2)).resolves.toBe('["[[[[[[\\"[[[["]');
    await expect(pass(['["a"', ',[[["b"]]]]'], 3)).rejects.toThrow(/deeper than 3 levels/);
  });
});
