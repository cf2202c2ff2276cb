import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { inRecordGraph, recordGraphIri, recordGraphPattern } from '../../src/mapping/recordGraph.js';

const { namedNode, literal, quad } = DataFactory;

describe('recordGraphIri', () => {
  it("is <base>record/<doi>, the default base the mapper's", () => {
    expect(recordGraphIri('10.1007/s11306-017-1242-7')).toBe(
      'https://w3id.org/scholarly-rdf/record/10.1007/s11306-017-1242-7',
    );
    expect(recordGraphIri('10.1/x', 'https://example.org/kg/')).toBe('https://example.org/kg/record/10.1/x');
  });

  it("percent-encodes the DOI as an IRI path, as the work's IRI does (the slash stays)", () => {
    expect(recordGraphIri('10.1002/(SICI)1097<4571>#x y')).toBe(
      'https://w3id.org/scholarly-rdf/record/10.1002/(SICI)1097%3C4571%3E%23x%20y',
    );
    expect(recordGraphIri('10.1/..')).toBe('https://w3id.org/scholarly-rdf/record/10.1/%2E%2E');
  });

  it('states its pattern with {doi}', () => {
    expect(recordGraphPattern()).toBe('https://w3id.org/scholarly-rdf/record/{doi}');
    expect(recordGraphPattern('https://example.org/kg/')).toBe('https://example.org/kg/record/{doi}');
  });
});

describe('inRecordGraph', () => {
  it('moves every quad into the record graph and leaves the given quads as they were', () => {
    const given = [
      quad(namedNode('https://doi.org/10.1/x'), namedNode('http://schema.org/name'), literal('T')),
      quad(
        namedNode('https://doi.org/10.1/x'),
        namedNode('http://schema.org/about'),
        namedNode('urn:a'),
        namedNode('urn:elsewhere'),
      ),
    ];
    const moved = inRecordGraph(given, '10.1/x');
    expect(moved.map((q) => q.graph.value)).toEqual([
      'https://w3id.org/scholarly-rdf/record/10.1/x',
      'https://w3id.org/scholarly-rdf/record/10.1/x',
    ]);
    expect(
      moved.every(
        (q, i) =>
          q.subject.equals(given[i]!.subject) &&
          q.predicate.equals(given[i]!.predicate) &&
          q.object.equals(given[i]!.object),
      ),
    ).toBe(true);
    expect(given[0]!.graph.termType).toBe('DefaultGraph');
    expect(inRecordGraph(given, '10.1/x', 'https://example.org/')[0]!.graph.value).toBe(
      'https://example.org/record/10.1/x',
    );
  });
});
