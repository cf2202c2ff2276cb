import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { TurtleSerializer } from '../../src/serialize/TurtleSerializer.js';
import { DEFAULT_PREFIXES } from '../../src/rdf/prefixes.js';
import { hashedNamedNode } from '../../src/rdf/dataFactory.js';
import { expectIsomorphic, parseTurtle } from '../helpers/rdf.js';
import {
  blankNodeQuads,
  controlCharQuads,
  expectBinaryOfText,
  nonAsciiQuads,
  oddIriQuads,
  recordQuads,
  SCHEMA,
  trickyQuads,
  writeAll,
} from './quads.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';

const { namedNode, literal, quad } = DataFactory;

describe('TurtleSerializer', () => {
  it('names its format', () => {
    const s = new TurtleSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['turtle', 'text/turtle', 'ttl']);
  });

  describe('start', () => {
    it('declares the default prefixes, sorted', () => {
      const head = new TurtleSerializer().createWriter().start();
      for (const [p, ns] of Object.entries(DEFAULT_PREFIXES)) expect(head).toContain(`@prefix ${p}: <${ns}> .\n`);
      const names = [...head.matchAll(/@prefix (\w+):/g)].map((m) => m[1]);
      expect(names).toEqual([...names].sort());
    });

    it('declares the given prefixes instead, skipping invalid prefix names', () => {
      const head = new TurtleSerializer()
        .createWriter({ prefixes: { ex: 'http://x.org/', 'bad name': 'http://y.org/' } })
        .start();
      expect(head).toBe('@prefix ex: <http://x.org/> .\n\n');
    });
  });

  describe('write', () => {
    it('writes readable Turtle: a, prefixed names, ; and , groups, bare integers and booleans', () => {
      const text = writeAll('turtle', [recordQuads('10.1007/a', 2)]);
      expect(text).toContain(
        '<https://doi.org/10.1007/a> a schema:ScholarlyArticle, bibo:AcademicArticle ;\n    schema:name ',
      );
      expect(text).toContain('schema:keywords "Chemistry", "Catalysis" ;');
      expect(text).toContain('schema:datePublished "2020-03-15"^^xsd:date ;');
      expect(text).toContain('schema:isAccessibleForFree true ;');
      expect(text).toContain('bibo:numPages 8 ;');
      expect(text).toContain('"Effects of \\"quoted\\" terms on x\\\\y: a study"@en');
      expect(text).toContain('rdf:rest rdf:nil .');
      expect(text).not.toContain('rdf:type');
    });

    it('round-trips records, tricky literals, odd IRIs and controls through n3', () => {
      const groups = [recordQuads('10.1007/a'), trickyQuads(), oddIriQuads(), controlCharQuads()];
      expectIsomorphic(parseTurtle(writeAll('turtle', groups)), groups.flat());
    });

    it('falls back to full IRIs when the local name is not a valid PN_LOCAL', () => {
      const s = namedNode('http://x.org/s');
      const text = writeAll('turtle', [
        [
          quad(s, namedNode(`${SCHEMA}name`), namedNode(`${SCHEMA}Thing.`)),
          quad(s, namedNode(`${SCHEMA}name`), namedNode(`${SCHEMA}`)),
          quad(s, namedNode(`${SCHEMA}name`), namedNode(`${SCHEMA}a/b`)),
        ],
      ]);
      expect(text).toContain('schema:name <http://schema.org/Thing.>, <http://schema.org/>, <http://schema.org/a/b> .');
    });

    it('keeps non-canonical numbers as typed literals when they are not Turtle integers', () => {
      const xsd = (l: string) => namedNode(`http://www.w3.org/2001/XMLSchema#${l}`);
      const s = namedNode('http://x.org/s');
      const p = namedNode('http://x.org/p');
      const input = [
        quad(s, p, literal('+7', xsd('integer'))),
        quad(s, p, literal('seven', xsd('integer'))),
        quad(s, p, literal('TRUE', xsd('boolean'))),
      ];
      const text = writeAll('turtle', [input]);
      expect(text).toContain('+7, "seven"^^xsd:integer, "TRUE"^^xsd:boolean');
      expectIsomorphic(parseTurtle(text), input);
    });

    it('groups a subject whose quads are not consecutive', () => {
      const a = namedNode('http://x.org/a');
      const b = namedNode('http://x.org/b');
      const p = namedNode('http://x.org/p');
      const text = writeAll(
        'turtle',
        [[quad(a, p, literal('1')), quad(b, p, literal('2')), quad(a, p, literal('3'))]],
        { prefixes: {} },
      );
      expect(text).toBe('<http://x.org/a> <http://x.org/p> "1", "3" .\n\n<http://x.org/b> <http://x.org/p> "2" .\n\n');
    });

    it('writes vocabulary terms (found by their number) as other terms of the same IRIs', () => {
      const s = namedNode('http://x.org/s');
      const quadsOf = (term: (iri: string) => ReturnType<typeof namedNode>) => [
        quad(s, term(`${SCHEMA}name`), literal('a')),
        quad(s, term('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), term(`${SCHEMA}Person`)),
        quad(s, term(`${SCHEMA}position`), literal('x', term('http://www.w3.org/2001/XMLSchema#date'))),
        quad(s, term('http://x.org/p'), literal('b', 'en')),
      ];
      const terms = new Map<string, ReturnType<typeof namedNode>>();
      const once = (iri: string) => terms.get(iri) ?? terms.set(iri, hashedNamedNode(iri)).get(iri)!;
      const expected = writeAll('turtle', [quadsOf(namedNode)]);
      expect(writeAll('turtle', [quadsOf(once), quadsOf(once), quadsOf(hashedNamedNode)])).toBe(
        expected + expected.slice(expected.indexOf('\n\n') + 2).repeat(2),
      );
    });

    it('checks each language tag that differs from the last one found valid', () => {
      const s = namedNode('http://x.org/s');
      const p = namedNode('http://x.org/p');
      expect(() =>
        writeAll('turtle', [
          [quad(s, p, literal('a', 'en')), quad(s, p, literal('b', 'en')), quad(s, p, literal('c', 'e n'))],
        ]),
      ).toThrow(/invalid language tag "e n"/);
    });

    it('writes the UTF-8 bytes of its text as a binary string (writeBinary), with the same checks', () => {
      const s = namedNode('http://x.org/s');
      const p = namedNode('http://x.org/p');
      // prefixed names with local names past ASCII, a value twice in a row, records the mapper made (IRIs marked ASCII)
      const local = [
        quad(namedNode(`${SCHEMA}Pérez`), namedNode(`${SCHEMA}näme`), literal('Zoë', 'de')),
        quad(namedNode(`${SCHEMA}Pérez`), namedNode(`${SCHEMA}title`), literal('Zoë', 'de')),
        quad(namedNode(`${SCHEMA}Pérez`), p, literal('Zoë')),
      ];
      const mapped = [
        { doi: '10.1000/a', title: 'Straße', creators: [{ creator: 'Müller, Jürgen' }, { creator: '佐藤, 花子' }] },
        { doi: '10.1000/ä', title: 'T', creators: [{ creator: 'Smith, A.' }] },
      ].map((r) => mapRecord(normalizeRecord(r)).quads);
      const groups = [recordQuads('10.1007/é'), trickyQuads(), controlCharQuads(), oddIriQuads(), blankNodeQuads()];
      expectBinaryOfText(new TurtleSerializer().createWriter(), [...groups, nonAsciiQuads(), local, ...mapped]);
      const w = new TurtleSerializer().createWriter();
      expect(() => w.writeBinary!([quad(s, p, literal('lone \uD800'))])).toThrow(/lone surrogate/);
      expect(() => w.writeBinary!([quad(s, p, literal('x', 'not a tag'))])).toThrow(
        /invalid language tag.*subject <http:\/\/x.org\/s>/,
      );
    });

    it('refuses named graphs', () => {
      const q = quad(
        namedNode('http://x.org/s'),
        namedNode('http://x.org/p'),
        literal('o'),
        namedNode('http://x.org/g'),
      );
      expect(() => writeAll('turtle', [[q]])).toThrow(/Turtle cannot carry the named graph/);
    });
  });
});
