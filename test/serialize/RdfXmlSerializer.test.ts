import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { RdfXmlSerializer } from '../../src/serialize/RdfXmlSerializer.js';
import { expectIsomorphic, parseNTriples, parseRdfXml } from '../helpers/rdf.js';
import {
  blankNodeQuads,
  controlCharQuads,
  oddIriQuads,
  RDF_NS,
  recordQuads,
  SCHEMA,
  trickyQuads,
  writeAll,
  XSD,
} from './quads.js';

const { namedNode, literal, quad, blankNode } = DataFactory;
const hasRapper = spawnSync('rapper', ['--version'], { encoding: 'utf8' }).status === 0;

describe('RdfXmlSerializer', () => {
  it('names its format', () => {
    const s = new RdfXmlSerializer();
    expect([s.format, s.mediaType, s.extensions[0]]).toEqual(['rdfxml', 'application/rdf+xml', 'rdf']);
  });

  describe('document shape', () => {
    it('declares namespaces on rdf:RDF, types node elements, never uses rdf:parseType', () => {
      const text = writeAll('rdfxml', [recordQuads('10.1007/a', 2), blankNodeQuads()]);
      expect(
        text.startsWith(
          '<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF\n    xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"',
        ),
      ).toBe(true);
      expect(text).toContain('xmlns:schema="http://schema.org/"');
      expect(text).toContain(
        '<schema:ScholarlyArticle rdf:about="https://doi.org/10.1007/a">\n  <rdf:type rdf:resource="http://purl.org/ontology/bibo/AcademicArticle"/>',
      );
      expect(text).toContain(
        '<schema:datePublished rdf:datatype="http://www.w3.org/2001/XMLSchema#date">2020-03-15</schema:datePublished>',
      );
      expect(text).toContain('<schema:name xml:lang="en">Effects of "quoted" terms on x\\y: a study</schema:name>');
      expect(text).toContain('<schema:name>Journal of Tests &amp; &lt;Things&gt;</schema:name>');
      expect(text).toContain('<rdf:Description rdf:nodeID="bb0">');
      expect(text).not.toContain('parseType');
      expect(text.endsWith('</rdf:RDF>\n')).toBe(true);
    });

    it('declares namespaces it does not know on the node element that uses them', () => {
      const text = writeAll('rdfxml', [oddIriQuads()]);
      expect(text).toContain(
        ' xmlns:ns0="http://example.org/vocab/" xmlns:ns1="http://example.org/vocab/123" xmlns:ns2="http://example.org/vocab#">',
      );
      expect(text).toContain('<ns0:has.dot.>a</ns0:has.dot.>');
      expect(text).toContain('<ns1:start>b</ns1:start>');
      expect(text).toContain('<rdf:_1>first member</rdf:_1>');
    });
  });

  describe('round trip through rdfxml-streaming-parser', () => {
    it('records, tricky literals, odd IRIs and blank nodes', async () => {
      const groups = [recordQuads('10.1007/a'), trickyQuads(), oddIriQuads(), blankNodeQuads()];
      expectIsomorphic(await parseRdfXml(writeAll('rdfxml', groups)), groups.flat());
    });

    it('empty literals: plain, with a language, with a datatype', async () => {
      const s = namedNode('http://x.org/s');
      const p = namedNode(`${SCHEMA}name`);
      const input = [
        quad(s, p, literal('')),
        quad(s, p, literal('', 'en')),
        quad(s, p, literal('', namedNode(`${XSD}date`))),
      ];
      expectIsomorphic(await parseRdfXml(writeAll('rdfxml', [input])), input);
    });
  });

  it.skipIf(!hasRapper)('rapper (raptor, an independent RDF/XML parser) reads the same graph', () => {
    const groups = [recordQuads('10.1007/a'), trickyQuads(), oddIriQuads(), blankNodeQuads()];
    const r = spawnSync('rapper', ['-q', '-i', 'rdfxml', '-o', 'ntriples', '-', 'http://base.invalid/'], {
      input: writeAll('rdfxml', groups),
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expectIsomorphic(parseNTriples(r.stdout), groups.flat());
  });

  describe('refuses what RDF/XML cannot carry, naming the subject', () => {
    const s = namedNode('http://x.org/s');
    const cases: [string, ReturnType<typeof quad>[], RegExp][] = [
      [
        'C0 controls',
        controlCharQuads(),
        /XML 1\.0 cannot carry the character U\+0001.*subject <http:\/\/example.org\/ctrl>/,
      ],
      ['U+FFFE', [quad(s, namedNode(`${SCHEMA}name`), literal('a\uFFFEb'))], /U\+FFFE.*subject <http:\/\/x.org\/s>/],
      [
        'a predicate without an NCName local part',
        [quad(s, namedNode('http://x.org/p/123'), literal('x'))],
        /no XML local name/,
      ],
      ['rdf:li as a predicate', [quad(s, namedNode(`${RDF_NS}li`), literal('x'))], /cannot write the predicate rdf:li/],
      ['named graphs', [quad(s, namedNode(`${SCHEMA}name`), literal('x'), namedNode('http://x.org/g'))], /named graph/],
      ['relative IRIs', [quad(s, namedNode(`${SCHEMA}url`), namedNode('relative/path'))], /not absolute/],
    ];
    for (const [name, input, message] of cases) {
      it(name, () => {
        expect(() => writeAll('rdfxml', [input])).toThrow(message);
      });
    }
  });

  it('writes blank node subjects and objects with rdf:nodeID', async () => {
    const input = [quad(blankNode('x y'), namedNode(`${SCHEMA}knows`), blankNode('1'))];
    const text = writeAll('rdfxml', [input]);
    expect(text).toContain('rdf:nodeID="bx_20_y"');
    expect(text).toContain('rdf:nodeID="b1"');
    expectIsomorphic(await parseRdfXml(text), input);
  });

  it('checks every literal and IRI of one writer, whatever it wrote before (its tags and attributes are cached)', () => {
    const w = new RdfXmlSerializer().createWriter();
    const s = namedNode('http://x.org/s');
    const name = namedNode(`${SCHEMA}name`);
    const first = w.write([
      quad(s, name, literal('a', 'en')),
      quad(s, name, literal('1', namedNode(`${XSD}integer`))),
      quad(s, name, namedNode('http://x.org/o')),
    ]);
    const again = w.write([
      quad(s, name, literal('b', 'en')),
      quad(s, name, literal('2', namedNode(`${XSD}integer`))),
      quad(s, name, literal('c')),
    ]);
    expect(first + again).toBe(
      '<rdf:Description rdf:about="http://x.org/s">\n  <schema:name xml:lang="en">a</schema:name>\n' +
        '  <schema:name rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1</schema:name>\n  <schema:name rdf:resource="http://x.org/o"/>\n</rdf:Description>\n' +
        '<rdf:Description rdf:about="http://x.org/s">\n  <schema:name xml:lang="en">b</schema:name>\n' +
        '  <schema:name rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">2</schema:name>\n  <schema:name>c</schema:name>\n</rdf:Description>\n',
    );
    expect(() => w.write([quad(s, name, literal('d', 'not a tag'))])).toThrow(/invalid language tag "not a tag"/);
    expect(() => w.write([quad(s, name, literal('e', { language: 'en', direction: 'rtl' } as never))])).toThrow(
      /base direction \(rtl\)/,
    );
    expect(() => w.write([quad(s, name, namedNode('x/o'))])).toThrow(/not absolute/);
    expect(() => w.write([quad(s, name, namedNode('http://x.org/./o'))])).toThrow(/'\.' or '\.\.' segment/);
  });
});
