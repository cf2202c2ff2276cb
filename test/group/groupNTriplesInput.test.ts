import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupNTriplesInput } from '../../src/group/groupNTriplesInput.js';
import { groupNTriplesRecords, type GroupNTriplesRecordsOptions } from '../../src/group/groupNTriplesRecords.js';
import { decodeUtf8 } from '../../src/parse/decodeUtf8.js';
import { fuzzParams } from '../fuzz/fuzzConfig.js';

/** The bytes cut into chunks of the given sizes (cycled). */
function* cut(bytes: Uint8Array, sizes: readonly number[]): Generator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length]!);
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

/** The groups (or the error) of a grouping, as plain data. */
async function outcome(groups: AsyncIterable<{ key: string | undefined; text: string; lines: number[] }>) {
  const out: unknown[] = [];
  try {
    for await (const g of groups) out.push([g.key, g.text, g.lines]);
  } catch (err) {
    out.push(`error: ${(err as Error).message}`);
  }
  return out;
}

/**
 * groupNTriplesInput gives groupNTriplesRecords' groups of the decoded text, whatever the chunks; each chunk is given
 * back once, and overwritten at once (as a file's reads are read into again), the groups stay the same.
 */
async function same(bytes: Uint8Array, sizes: readonly number[], options: GroupNTriplesRecordsOptions = {}) {
  const expected = await outcome(groupNTriplesRecords(decodeUtf8(cut(bytes, sizes)), options));
  const chunks = [...cut(bytes, sizes)].map((c) => c.slice());
  const given: Uint8Array[] = [];
  const release = (chunk: Uint8Array) => {
    given.push(chunk);
    chunk.fill(0x21);
  };
  const actual = await outcome(groupNTriplesInput(chunks, { ...options, release }));
  expect(actual).toEqual(expected);
  expect(new Set(given).size).toBe(given.length);
  // (A grouping that fails stops reading: the chunks after are not read, nor given back.)
  if (!String(actual[actual.length - 1]).startsWith('error:')) expect(given.length).toBe(chunks.length);
}

const DOI = (n: number) => `<https://doi.org/10.1/${n}>`;
const LINES = [
  `${DOI(1)} <http://schema.org/name> "Caf\u00e9 \u0141ukasz \u{1F600}"@en .`,
  `${DOI(1)} <http://schema.org/author> <https://w3id.org/scholarly-rdf/doi/10.1/1#author-a> .`,
  `<https://w3id.org/scholarly-rdf/doi/10.1/1#author-a> <http://schema.org/name> "A" .`,
  `<http://example.org/journal> <http://schema.org/name> "J" .`,
  `${DOI(2)} <http://schema.org/name> "plain" .`,
  `_:b1 <http://schema.org/name> "blank" .`,
  `${DOI(2)} <http://schema.org/about> _:b1 .`,
  '# a comment',
  '',
  `${DOI(3)} <http://schema.org/name> "${'x'.repeat(3000)}" .`,
];

describe('groupNTriplesInput', () => {
  it('groups bytes as the text decoded whole is grouped: BOM, characters cut by chunks, CRLF, long lines', async () => {
    const text = `\uFEFF${LINES.join('\n')}\n${LINES.slice(0, 5).join('\r\n')}\r\n${LINES[0]}`;
    const bytes = new TextEncoder().encode(text);
    for (const sizes of [[1], [2], [3], [7, 1], [64], [1000], [1 << 20]]) {
      await same(bytes, sizes);
      await same(bytes, sizes, { maxDocumentChars: 1000 });
    }
    // A string input, and text chunks.
    expect(await outcome(groupNTriplesInput(text))).toEqual(await outcome(groupNTriplesRecords(decodeUtf8(text))));
  });

  it('groups any lines of these, cut anywhere, as the decoded text is grouped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...LINES, '\uFEFF', '\r', '\u00e9'), { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(undefined, 100, 2000),
        async (lines, eol, sizes, max) => {
          const bytes = new TextEncoder().encode(lines.join(eol));
          await same(bytes, sizes, max === undefined ? {} : { maxDocumentChars: max });
        },
      ),
      fuzzParams('groupNTriplesInput', 200),
    );
  });
});
