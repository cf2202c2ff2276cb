import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import {
  decodeQuads,
  decodeRecords,
  decodeTerm,
  encodeQuads,
  encodeRecords,
  encodeTerm,
} from '../../../src/shacl/reports/termCodec.js';
import { TermInterner } from '../../../src/shacl/engine/TermInterner.js';
import type * as RDF from '@rdfjs/types';

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

  it('round-trips records of quads as one text and term numbers: each record its own quads, in order, terms of the factory', () => {
    const p = namedNode('urn:p');
    const work = namedNode('https://doi.org/10.1000/a');
    const records: RDF.Quad[][] = [
      [
        quad(work, p, literal('with\u0000nul', 'en')),
        quad(work, namedNode('urn:p'), literal('7', namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
        quad(work, p, blankNode('b0'), namedNode('urn:g')),
        quad(blankNode('b0'), p, literal('')),
      ],
      [],
      [quad(namedNode('urn:s'), p, work), quad(namedNode('urn:s'), p, literal('7'))],
    ];
    const encoded = encodeRecords(records);
    // The node objects met again are sent once; every literal as met.
    expect(encoded.kinds).toHaveLength(11);
    expect(encoded.ends).toHaveLength(13);
    const interner = new TermInterner();
    const back = decodeRecords(structuredClone(encoded), interner.factory());
    expect(back.map((r) => r.length)).toEqual([4, 0, 2]);
    back.forEach((record, i) =>
      record.forEach((q, j) => {
        const original = records[i]![j]!;
        expect(q.subject.equals(original.subject) && q.predicate.equals(original.predicate)).toBe(true);
        expect(q.object.equals(original.object), JSON.stringify(original.object)).toBe(true);
        expect(q.graph.termType).toBe('DefaultGraph');
      }),
    );
    // The interner's terms: equal terms are one object, across records too.
    expect(back[0]![0]!.subject).toBe(back[2]![0]!.object);
    expect(back[0]![1]!.predicate).toBe(back[0]![0]!.predicate);
    expect(back[0]![2]!.object).toBe(back[0]![3]!.subject);
    expect(encodeRecords([])).toMatchObject({ text: '', ends: new Uint32Array(0), kinds: new Uint8Array(0) });
  });
});
