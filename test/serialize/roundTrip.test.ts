import { describe, expect, it } from 'vitest';
import { expectIsomorphic } from '../helpers/rdf.js';
import { ALL_FORMATS, blankNodeQuads, oddIriQuads, parseFormat, recordQuads, trickyQuads, writeAll } from './quads.js';

// Every format, read back by a parser other than ours, gives the quads that were written;
// and the formats of one input give the same graph as each other.
const inputs = {
  'two records (author lists of named nodes)': [recordQuads('10.1007/s10551-020-04567-8'), recordQuads('10.1186/1471-2105-5-1', 1)],
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
    for (let i = 1; i < graphs.length; i++) expectIsomorphic(graphs[i]!, graphs[0]!, `${ALL_FORMATS[i]} vs ${ALL_FORMATS[0]}`);
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
