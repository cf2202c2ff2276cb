import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { TriGSerializer } from '../../src/serialize/TriGSerializer.js';
import { QuadStreamSerializer } from '../../src/serialize/QuadStreamSerializer.js';
import { expectIsomorphic, parseNQuads, parseTriG } from '../helpers/rdf.js';
import { blankNodeQuads, recordQuads, trickyQuads, writeAll } from './quads.js';

const { namedNode, literal, quad, blankNode } = DataFactory;
const inGraph = (quads: readonly RDF.Quad[], graph: RDF.Quad_Graph) =>
  quads.map((q) => quad(q.subject, q.predicate, q.object, graph));

describe('TriGSerializer', () => {
  it('names its format from the table', () => {
    const s = new TriGSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['trig', 'application/trig', 'trig']);
  });

  it('writes default-graph quads as the Turtle writer does (prefixes, subject blocks)', () => {
    const groups = [recordQuads('10.1/a'), recordQuads('10.1/b')];
    expect(writeAll('trig', groups)).toBe(writeAll('turtle', groups));
  });

  it('writes each record graph in a block of its own, the same graph as N-Quads', () => {
    const groups = ['10.1/a', '10.1/b', '10.1/c'].map((doi) =>
      inGraph(recordQuads(doi), namedNode(`https://w3id.org/scholarly-rdf/record/${doi}`)),
    );
    const text = writeAll('trig', groups);
    expect(text.match(/^<https:\/\/w3id\.org\/scholarly-rdf\/record\/10\.1\/[abc]> \{$/gm)).toHaveLength(3);
    expectIsomorphic(parseTriG(text), parseNQuads(writeAll('nquads', groups)));
  });

  it('keeps the graphs of a group that mixes them, in order, and blank-node graphs', () => {
    const s = namedNode('http://x.org/s');
    const p = namedNode('http://x.org/p');
    const input = [
      quad(s, p, literal('default')),
      quad(s, p, literal('named'), namedNode('http://x.org/g1')),
      quad(s, p, literal('blank graph'), blankNode('g 2')),
      quad(s, p, literal('default again')),
    ];
    const text = writeAll('trig', [input]);
    expectIsomorphic(parseTriG(text), input);
    expect(text.indexOf('"default"')).toBeLessThan(text.indexOf('<http://x.org/g1> {'));
  });

  it('puts the default graph into the `graph` option, as N-Quads does, and keeps named graphs', () => {
    const g = 'https://w3id.org/scholarly-rdf/graph/2024';
    const groups = [
      [
        ...recordQuads('10.1/a'),
        quad(
          namedNode('http://x.org/s'),
          namedNode('http://x.org/p'),
          literal('named'),
          namedNode('http://x.org/other'),
        ),
      ],
    ];
    expectIsomorphic(
      parseTriG(writeAll('trig', groups, { graph: g })),
      parseNQuads(writeAll('nquads', groups, { graph: g })),
    );
  });

  it('indents a graph block without touching literals (line breaks in literals are escaped)', () => {
    const graph = namedNode('http://x.org/g');
    const input = inGraph([...trickyQuads(), ...blankNodeQuads()], graph);
    const text = writeAll('trig', [input]);
    expectIsomorphic(parseTriG(text), input);
    const block = text.slice(text.indexOf('<http://x.org/g> {'));
    expect(
      block
        .split('\n')
        .slice(1, -3)
        .every((line) => line === '' || line.startsWith('    ')),
    ).toBe(true);
    expect(block.endsWith('\n}\n\n')).toBe(true);
  });

  it('names TriG in its errors', () => {
    const bad = [
      quad(
        namedNode('http://x.org/s'),
        namedNode('http://x.org/p'),
        literal('x', 'not a tag'),
        namedNode('http://x.org/g'),
      ),
    ];
    expect(() => writeAll('trig', [bad])).toThrow(/^TriG: invalid language tag/);
  });

  it('streams a quad stream of many graphs (QuadStreamSerializer)', async () => {
    const quads = ['10.1/a', '10.1/b'].flatMap((doi, i) =>
      inGraph(recordQuads(doi), i === 0 ? namedNode('http://x.org/g') : DataFactory.defaultGraph()),
    );
    const { Readable } = await import('node:stream');
    const out = new QuadStreamSerializer(new TriGSerializer(), { chunkSize: 64 }).import(Readable.from(quads) as never);
    let text = '';
    for await (const chunk of out) text += String(chunk);
    expectIsomorphic(parseTriG(text), quads);
  });
});
