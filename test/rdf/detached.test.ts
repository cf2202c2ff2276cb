import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { detachedString, detachedTerm } from '../../src/rdf/detached.js';

describe('detached copies', () => {
  it('are equal to the original, lone surrogates included', () => {
    const chunk = `xx<https://doi.org/10.5555/a>\uD800 yy`;
    expect(detachedString(chunk.slice(2, 30))).toBe(chunk.slice(2, 30));
    expect(detachedString(chunk)).toBe(chunk);
    for (const t of [
      DataFactory.namedNode('https://doi.org/10.5555/a'),
      DataFactory.blankNode('b1'),
      DataFactory.literal('Titel', 'de'),
      DataFactory.literal('2020-01-02', DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#date')),
      DataFactory.literal('plain'),
    ]) {
      expect(detachedTerm(t).equals(t)).toBe(true);
    }
  });
});
