import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { NQuadsSerializer } from '../../src/serialize/NQuadsSerializer.js';
import { expectIsomorphic, parseNQuads } from '../helpers/rdf.js';
import { recordQuads, writeAll } from './quads.js';

const { namedNode, literal, quad, blankNode } = DataFactory;

describe('NQuadsSerializer', () => {
  it('names its format', () => {
    const s = new NQuadsSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['nquads', 'application/n-quads', 'nq']);
  });

  describe('write', () => {
    it('writes default-graph quads as triples when no graph is given', () => {
      const groups = [recordQuads('10.1/a')];
      const text = writeAll('nquads', groups);
      expectIsomorphic(parseNQuads(text), groups.flat());
      expect(text.split('\n')[0]).toMatch(/^<[^>]+> <[^>]+> <[^>]+> \.$/);
    });

    it('puts default-graph quads into the `graph` option and keeps named graphs', () => {
      const g = 'https://w3id.org/scholarly-rdf/graph/2024';
      const s = namedNode('http://x.org/s');
      const p = namedNode('http://x.org/p');
      const input = [
        quad(s, p, literal('default')),
        quad(s, p, literal('named'), namedNode('http://x.org/other')),
        quad(s, p, literal('blank graph'), blankNode('g1')),
      ];
      const parsed = parseNQuads(writeAll('nquads', [input], { graph: g }));
      expectIsomorphic(parsed, [
        quad(s, p, literal('default'), namedNode(g)),
        quad(s, p, literal('named'), namedNode('http://x.org/other')),
        quad(s, p, literal('blank graph'), blankNode('g1')),
      ]);
    });

    it('refuses a graph option that is not a valid IRI', () => {
      expect(() => new NQuadsSerializer().createWriter({ graph: 'http://x.org/a b' })).toThrow(/percent-encode/);
    });
  });
});
