import { describe, expect, it } from 'vitest';
import { countQuery, parseCountResult } from '../../src/store/countGraph.js';
import { graphOfDataset, graphOfFileName, findDatasetIri, assertGraphIri } from '../../src/store/defaultGraph.js';
import { DataFactory } from 'n3';

const { namedNode, quad, literal } = DataFactory;

describe('parseCountResult', () => {
  it('reads a JSON count typed "literal" (Fuseki) or "typed-literal" (Virtuoso)', () => {
    const json = (type: string) =>
      JSON.stringify({
        head: { vars: ['n'] },
        results: { bindings: [{ n: { type, datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: '1234' } }] },
      });
    expect(parseCountResult(json('literal'))).toBe(1234);
    expect(parseCountResult(json('typed-literal'))).toBe(1234);
  });

  it('reads an XML count', () => {
    const xml =
      '<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="n"/></head><results><result><binding name="n"><literal datatype="http://www.w3.org/2001/XMLSchema#integer">42</literal></binding></result></results></sparql>';
    expect(parseCountResult(xml)).toBe(42);
  });

  it('fails with bad-response when there is no count', () => {
    expect(() => parseCountResult('<html>error</html>')).toThrow(expect.objectContaining({ code: 'bad-response' }));
    expect(() => parseCountResult('{"results":{"bindings":[]}}')).toThrow(
      expect.objectContaining({ code: 'bad-response' }),
    );
  });
});

describe('countQuery', () => {
  it("counts the graph made the default graph with FROM <g> (a store's system triples stay out; GRAPH <g> could hang Virtuoso)", () => {
    expect(countQuery('http://ex.org/g')).toBe('SELECT (COUNT(*) AS ?n) FROM <http://ex.org/g> WHERE { ?s ?p ?o }');
  });
});

describe('default graph', () => {
  it('uses the dataset IRI of a void:Dataset or dcat:Dataset + /graph', () => {
    const type = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
    const quads = [
      quad(namedNode('https://doi.org/10.1/a'), namedNode('http://schema.org/name'), literal('x')),
      quad(
        namedNode('https://w3id.org/scholarly-rdf/dataset/springer-2015'),
        type,
        namedNode('http://www.w3.org/ns/dcat#Dataset'),
      ),
    ];
    expect(graphOfDataset(findDatasetIri(quads)!)).toBe('https://w3id.org/scholarly-rdf/dataset/springer-2015/graph');
    expect(findDatasetIri([quads[0]!])).toBeUndefined();
  });

  it('else derives it from the file name', () => {
    expect(graphOfFileName('/dumps/Springer 2015.nt.gz')).toBe('https://w3id.org/scholarly-rdf/graph/springer-2015');
    expect(graphOfFileName('export.jsonld')).toBe('https://w3id.org/scholarly-rdf/graph/export');
    expect(graphOfFileName('-')).toBe('https://w3id.org/scholarly-rdf/graph/stdin');
  });

  it('refuses a graph that cannot be written in SPARQL', () => {
    expect(() => assertGraphIri('http://ex.org/a b')).toThrow(expect.objectContaining({ code: 'usage' }));
    expect(() => assertGraphIri('http://ex.org/a>')).toThrow();
    expect(() => assertGraphIri('relative/graph')).toThrow();
    expect(() => assertGraphIri('urn:x:y')).not.toThrow();
  });
});
