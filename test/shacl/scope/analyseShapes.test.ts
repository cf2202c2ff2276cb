import { Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { analyseShapes } from '../../../src/shacl/scope/analyseShapes.js';
import { targetedShapes } from '../../../src/shacl/scope/classTargets.js';
import { loadShapes } from '../../../src/shacl/loadShapes.js';
import { shapesScope } from '../../../src/shacl/prepareEngine.js';
import { CROSS_RECORD_CASES } from '../crossRecordCases.js';

const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
`;

function scopeOf(turtle: string) {
  const graph = new Store(new Parser({ format: 'text/turtle' }).parse(PREFIXES + turtle));
  return analyseShapes(graph, targetedShapes(graph).terms);
}

describe('analyseShapes', () => {
  it('finds nothing in the shipped shapes that reaches beyond a record: their inverse paths are single steps bounded from below', async () => {
    const scope = shapesScope(await loadShapes());
    expect(scope.reasons).toEqual([]);
    // The ownership shapes read ^schema:author, ^schema:isPartOf, ...: their predicates are path predicates (a record
    // naming another record's node through them is noticed) ...
    for (const p of [
      'http://schema.org/author',
      'http://schema.org/isPartOf',
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#rest',
    ])
      expect(scope.pathPredicates.has(p)).toBe(true);
    // ... and the values whose own triples are read (sh:class on authors, the journal, the list cells) are known.
    expect([...scope.inspected].sort()).toEqual(
      ['author', 'isPartOf', 'publisher', 'publisherImprint', 'encoding', 'about', 'item', 'position']
        .map((l) => `http://schema.org/${l}`)
        .concat(['https://schema.org/position', 'https://w3id.org/scholarly-rdf/vocab#authorship'])
        .concat([
          'http://purl.org/ontology/bibo/authorList',
          'http://www.w3.org/1999/02/22-rdf-syntax-ns#first',
          'http://www.w3.org/1999/02/22-rdf-syntax-ns#rest',
        ])
        .sort(),
    );
    // A journal's name is not counted (records spell it differently); its ISSNs are (sh:maxCount): copies must agree.
    const periodical = scope.focusReads.get('Nhttps://w3id.org/scholarly-rdf/shapes#PeriodicalShape')!;
    expect(periodical.predicates.has('http://schema.org/issn')).toBe(true);
    expect(periodical.predicates.has('http://schema.org/name')).toBe(false);
  });

  it.each([
    [
      'sh:targetObjectsOf',
      'ex:S sh:targetObjectsOf ex:p ; sh:property [ sh:path ex:q ; sh:minCount 1 ] .',
      /sh:targetObjectsOf/,
    ],
    ['sh:targetNode', 'ex:S sh:targetNode ex:n ; sh:property [ sh:path ex:q ; sh:minCount 1 ] .', /sh:targetNode/],
    [
      'an inverse path with sh:maxCount',
      'ex:S sh:targetClass ex:C ; sh:property [ sh:path [ sh:inversePath ex:p ] ; sh:maxCount 0 ] .',
      /inverse path/,
    ],
    [
      'an inverse path with sh:class',
      'ex:S sh:targetClass ex:C ; sh:property [ sh:path [ sh:inversePath ex:p ] ; sh:class ex:D ] .',
      /inverse path/,
    ],
    [
      'an inverse step in a sequence',
      'ex:S sh:targetClass ex:C ; sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:minCount 1 ] .',
      /inverse path/,
    ],
    [
      'an inverse path in an alternative',
      'ex:S sh:targetClass ex:C ; sh:property [ sh:path [ sh:alternativePath ( ex:p [ sh:inversePath ex:q ] ) ] ; sh:minCount 1 ] .',
      /inverse path/,
    ],
    [
      'an inverse sh:minCount under sh:not',
      'ex:S sh:targetClass ex:C ; sh:not [ sh:path [ sh:inversePath ex:p ] ; sh:minCount 1 ] .',
      /inverse path/,
    ],
    ['a SPARQL constraint', 'ex:S sh:targetClass ex:C ; sh:sparql [ sh:select "SELECT $this WHERE { }" ] .', /SPARQL/],
    [
      'a SPARQL target',
      'ex:S sh:target [ a sh:SPARQLTarget ; sh:select "SELECT ?this WHERE { }" ] .',
      /SPARQL-based target/,
    ],
  ])('gives a reason for %s', (_name, turtle, reason) => {
    expect(scopeOf(turtle).reasons.join('\n')).toMatch(reason);
  });

  it.each([
    ['sh:class on a value', 'ex:S sh:targetClass ex:C ; sh:property [ sh:path ex:p ; sh:class ex:D ] .'],
    [
      'an inverse path with sh:minCount, also inside sh:or',
      'ex:S sh:targetClass ex:C ; sh:or ( [ sh:path [ sh:inversePath ex:p ] ; sh:minCount 1 ] [ sh:path ex:q ; sh:minCount 1 ] ) .',
    ],
    [
      'sh:targetSubjectsOf and sequence paths',
      'ex:S sh:targetSubjectsOf ex:p ; sh:property [ sh:path ( ex:p ex:q ) ; sh:maxCount 1 ] .',
    ],
    [
      'sh:closed and sh:equals',
      'ex:S sh:targetClass ex:C ; sh:closed true ; sh:property [ sh:path ex:p ; sh:equals ex:q ] .',
    ],
  ])('gives none for %s', (_name, turtle) => {
    expect(scopeOf(turtle).reasons).toEqual([]);
  });

  it('counts what nested shapes and upper bounds read, of the focus node and of values', () => {
    const scope = scopeOf(`ex:S sh:targetClass ex:C ;
      sh:property [ sh:path ex:count ; sh:maxCount 1 ] , [ sh:path ex:any ; sh:datatype ex:D ] , [ sh:path ex:v ; sh:node ex:N ] .
      ex:N sh:property [ sh:path ex:inner ; sh:datatype ex:D ] ; sh:class ex:K .`);
    const focus = scope.focusReads.get('Nhttp://example.org/ns#S')!;
    expect([...focus.predicates]).toEqual(['http://example.org/ns#count']);
    expect([...scope.valueReads.predicates].sort()).toEqual([
      'http://example.org/ns#inner',
      'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
    ]);
    expect(scope.inspected.has('http://example.org/ns#v')).toBe(true);
    expect(scope.inspected.has('http://example.org/ns#any')).toBe(false);
  });

  it('agrees with the mode each cross-record case expects', () => {
    for (const c of CROSS_RECORD_CASES) {
      const graph = new Store(new Parser({ format: 'text/turtle' }).parse(c.shapes));
      const reasons = analyseShapes(graph, targetedShapes(graph).terms).reasons;
      // The shapes alone decide for the inverse path and sh:targetObjectsOf; the others are decided by the data.
      if (/inverse|targetObjectsOf/.test(c.name)) expect(reasons, c.name).not.toEqual([]);
      else expect(reasons, c.name).toEqual([]);
    }
  });
});
