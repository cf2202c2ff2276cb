import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { NTriplesSerializer } from '../../src/serialize/NTriplesSerializer.js';
import { ToolkitError } from '../../src/errors.js';
import { expectIsomorphic, parseNTriples } from '../helpers/rdf.js';
import { NQuadsSerializer } from '../../src/serialize/NQuadsSerializer.js';
import {
  blankNodeQuads,
  controlCharQuads,
  expectBinaryOfText,
  nonAsciiQuads,
  oddIriQuads,
  recordQuads,
  trickyQuads,
  writeAll,
} from './quads.js';

const { namedNode, literal, quad, blankNode, variable } = DataFactory;

describe('NTriplesSerializer', () => {
  it('names its format', () => {
    const s = new NTriplesSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['ntriples', 'application/n-triples', 'nt']);
    expect(new NTriplesSerializer().mediaType).toBe('application/n-triples');
  });

  describe('write', () => {
    it('writes one canonical line per triple', () => {
      const text = writeAll('ntriples', [
        [
          quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), literal('a "b"\n', 'en-GB')),
          quad(
            namedNode('http://x.org/s'),
            namedNode('http://x.org/p'),
            literal('5', namedNode('http://www.w3.org/2001/XMLSchema#integer')),
          ),
          quad(blankNode('b1'), namedNode('http://x.org/p'), namedNode('http://x.org/o')),
        ],
      ]);
      expect(text).toBe(
        '<http://x.org/s> <http://x.org/p> "a \\"b\\"\\n"@en-gb .\n' +
          '<http://x.org/s> <http://x.org/p> "5"^^<http://www.w3.org/2001/XMLSchema#integer> .\n' +
          '_:b1 <http://x.org/p> <http://x.org/o> .\n',
      );
    });

    it('round-trips records, tricky literals and control characters through n3', () => {
      const groups = [recordQuads('10.1007/a'), trickyQuads(), controlCharQuads()];
      expectIsomorphic(parseNTriples(writeAll('ntriples', groups)), groups.flat());
    });

    it('writes control characters as \\u escapes (the output stays one line per triple)', () => {
      const text = writeAll('ntriples', [controlCharQuads()]);
      expect(text).toContain('\\u0001\\u0008\\u000B\\u001F');
      expect(text.trimEnd().split('\n')).toHaveLength(1);
    });

    it('checks every literal and line of one writer, whatever it wrote before (its texts are cached)', () => {
      const w = new NTriplesSerializer().createWriter();
      const s = namedNode('http://x.org/s');
      const p = namedNode('http://x.org/p');
      const type = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
      const date = namedNode('http://www.w3.org/2001/XMLSchema#date');
      const first = w.write([
        quad(s, p, literal('a', 'en')),
        quad(s, type, namedNode('http://x.org/C')),
        quad(s, p, literal('2020-01-02', date)),
      ]);
      const again = w.write([
        quad(s, p, literal('b', 'en')),
        quad(s, p, literal('c', { language: 'en', direction: 'rtl' } as never)),
        quad(s, type, namedNode('http://x.org/C')),
        quad(blankNode('b1'), p, literal('2021-01-02', date)),
      ]);
      expect(first + again).toBe(
        '<http://x.org/s> <http://x.org/p> "a"@en .\n<http://x.org/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x.org/C> .\n' +
          '<http://x.org/s> <http://x.org/p> "2020-01-02"^^<http://www.w3.org/2001/XMLSchema#date> .\n' +
          '<http://x.org/s> <http://x.org/p> "b"@en .\n<http://x.org/s> <http://x.org/p> "c"@en--rtl .\n' +
          '<http://x.org/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x.org/C> .\n' +
          '_:b1 <http://x.org/p> "2021-01-02"^^<http://www.w3.org/2001/XMLSchema#date> .\n',
      );
      expect(() => w.write([quad(s, p, literal('d', 'not a tag'))])).toThrow(/invalid language tag "not a tag"/);
      expect(() => w.write([quad(s, p, literal('e', { language: 'en', direction: 'up' } as never))])).toThrow(
        /invalid base direction "up"/,
      );
      expect(() => w.write([quad(s, p, literal('lone \uD800', 'en'))])).toThrow(/lone surrogate/);
      expect(() => w.write([quad(s, type, namedNode('http://x.org/with space'))])).toThrow(/U\+0020/);
    });

    it('writes the UTF-8 bytes of its text as a binary string (writeBinary), with the same checks', () => {
      const groups = [recordQuads('10.1007/é'), trickyQuads(), controlCharQuads(), oddIriQuads(), blankNodeQuads()];
      const unicode = nonAsciiQuads();
      expectBinaryOfText(new NTriplesSerializer().createWriter(), [...groups, unicode]);
      // N-Quads: a graph for default-graph quads (not ASCII), and named graphs kept.
      expectBinaryOfText(new NQuadsSerializer().createWriter({ graph: 'https://example.org/g/ü' }), [
        ...groups,
        unicode,
        unicode.map((q) => quad(q.subject, q.predicate, q.object, namedNode('http://x.org/gä'))),
      ]);
      const w = new NTriplesSerializer().createWriter();
      const s = namedNode('http://x.org/s');
      expect(() => w.writeBinary!([quad(s, namedNode('http://x.org/p'), literal('lone \uD800'))])).toThrow(
        /lone surrogate/,
      );
      expect(() => w.writeBinary!([quad(s, namedNode('http://x.org/p'), literal('x', 'not a tag'))])).toThrow(
        /invalid language tag.*subject <http:\/\/x.org\/s>/,
      );
    });

    it('refuses named graphs, naming the subject', () => {
      const w = new NTriplesSerializer().createWriter();
      expect(() =>
        w.write([
          quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), literal('o'), namedNode('http://x.org/g')),
        ]),
      ).toThrow(/N-Triples cannot carry the named graph <http:\/\/x.org\/g>.*subject <http:\/\/x.org\/s>/);
    });

    it('refuses what N-Triples cannot hold with a serialization error naming the subject', () => {
      const w = new NTriplesSerializer().createWriter();
      const cases = [
        quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), literal('lone \uD800')),
        quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), namedNode('http://x.org/with space')),
        quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), literal('x', 'not a tag')),
        quad(namedNode('http://x.org/s'), namedNode('http://x.org/p'), variable('v') as never),
      ];
      for (const q of cases) {
        try {
          w.write([q]);
          expect.fail('should throw');
        } catch (e) {
          expect(e).toBeInstanceOf(ToolkitError);
          expect((e as ToolkitError).code).toBe('serialization');
          expect((e as ToolkitError).message).toContain('subject <http://x.org/s>');
        }
      }
    });
  });
});
