import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { decodeQuads, decodeTerm, encodeQuads, encodeTerm } from '../../../src/shacl/reports/termCodec.js';

const { namedNode, blankNode, literal, quad } = DataFactory;

describe('termCodec', () => {
  it('round-trips every kind of term, including awkward literals', () => {
    const terms = [
      namedNode('https://doi.org/10.1007/a(b)c'),
      blankNode('b0'),
      literal('plain'),
      literal(''),
      literal('with\u0000nul and "quotes"\n'),
      literal('titre', 'fr'),
      literal('x', 'en-gb'),
      literal('2015-02-30', namedNode('http://www.w3.org/2001/XMLSchema#date')),
      literal('16', namedNode('http://www.w3.org/2001/XMLSchema#integer')),
    ];
    for (const t of terms) expect(decodeTerm(encodeTerm(t)).equals(t), JSON.stringify(t)).toBe(true);
  });

  it('round-trips quads (graphs dropped)', () => {
    const quads = [
      quad(namedNode('urn:s'), namedNode('urn:p'), literal('o', 'de')),
      quad(blankNode('x'), namedNode('urn:p'), namedNode('urn:o'), namedNode('urn:g')),
    ];
    const back = decodeQuads(encodeQuads(quads));
    expect(back).toHaveLength(2);
    expect(back[0]!.equals(quads[0]!)).toBe(true);
    expect(back[1]!.object.equals(quads[1]!.object)).toBe(true);
    expect(back[1]!.graph.termType).toBe('DefaultGraph');
  });
});
