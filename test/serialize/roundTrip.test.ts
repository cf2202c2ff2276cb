import fc from 'fast-check';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { expectIsomorphic } from '../helpers/rdf.js';
import { ALL_FORMATS, blankNodeQuads, oddIriQuads, parseFormat, recordQuads, trickyQuads, writeAll } from './quads.js';

// Every format, read back by a parser other than ours, gives the quads that were written;
// and the formats of one input give the same graph as each other.
const inputs = {
  'two records (author lists of named nodes)': [
    recordQuads('10.1007/s10551-020-04567-8'),
    recordQuads('10.1186/1471-2105-5-1', 1),
  ],
  'a record without authors': [recordQuads('10.1000/none', 0)],
  'tricky literals': [trickyQuads()],
  'odd IRIs and predicates': [oddIriQuads()],
  'blank nodes (generic input)': [blankNodeQuads()],
};

describe('round trip through an independent parser', () => {
  for (const format of ALL_FORMATS) {
    describe(format, () => {
      for (const [name, groups] of Object.entries(inputs)) {
        it(name, async () => {
          const text = writeAll(format, groups);
          expectIsomorphic(await parseFormat(format, text), groups.flat(), `${format}: ${name}`);
        });
      }
    });
  }
});

describe('formats of one input', () => {
  it('are isomorphic to each other', async () => {
    const groups = Object.values(inputs).flat();
    const graphs = await Promise.all(ALL_FORMATS.map(async (f) => parseFormat(f, writeAll(f, groups))));
    for (let i = 1; i < graphs.length; i++)
      expectIsomorphic(graphs[i]!, graphs[0]!, `${ALL_FORMATS[i]} vs ${ALL_FORMATS[0]}`);
  });

  it('are written deterministically (same bytes for the same input)', () => {
    for (const f of ALL_FORMATS) {
      const groups = [recordQuads('10.1/a'), trickyQuads()];
      expect(writeAll(f, groups)).toBe(writeAll(f, groups));
    }
  });

  it('give a valid empty document for no groups', async () => {
    for (const f of ALL_FORMATS) expect(await parseFormat(f, writeAll(f, []))).toEqual([]);
  });
});

describe('any string survives every format (property)', () => {
  // Any code point (controls and astral characters included, never a lone surrogate), weighted towards
  // the characters and sequences that need escaping somewhere.
  const special = fc.constantFrom(
    '"',
    '\\',
    '\n',
    '\r',
    '\t',
    '<',
    '>',
    '&',
    ']]>',
    '--',
    '\u0000',
    '\u0001',
    '\u007f',
    '\u2028',
    '\uFEFF',
    '🧪',
    'é',
    "'",
    '@en',
    '^^',
    '"""',
    '{"@value":',
    '\\u0041',
  );
  const oneChar = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
  const anyText = fc.string({
    unit: fc.oneof({ arbitrary: special, weight: 1 }, { arbitrary: oneChar, weight: 2 }),
    maxLength: 30,
  });
  const xmlChars = /^[\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
  const language = fc.constantFrom('', 'en', 'de-CH', 'zh-Hant-TW');
  for (const format of ALL_FORMATS) {
    it(format, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(anyText, language), { minLength: 1, maxLength: 8 }), async (values) => {
          const usable = format === 'rdfxml' ? values.filter(([v]) => xmlChars.test(v)) : values;
          const subject = DataFactory.namedNode('https://doi.org/10.1/p');
          const quads = usable.map(([v, lang], i) =>
            DataFactory.quad(
              subject,
              DataFactory.namedNode(`http://schema.org/p${i}`),
              DataFactory.literal(v, lang || undefined),
            ),
          );
          expectIsomorphic(await parseFormat(format, writeAll(format, [quads])), quads, format);
        }),
        { numRuns: 60 },
      );
    });
  }
});
