// The engine of our own where it and shacl-engine 1.1.2 disagree (docs/validation.md): SHACL's answer, each case
// small enough to check against the specification by hand.
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import { UnsupportedShapes } from '../../../src/shacl/engine/compileContext.js';

const PREFIXES =
  '@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://ex/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';
const parse = (text: string) => new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(PREFIXES + text);

/** Each result as `focus component value`, local names. */
function results(shapes: string, data: string): string[] {
  const local = (v: string | undefined) => (v === undefined ? '-' : v.replace(/^.*[#/]/, ''));
  return CoreEngine.compile(parse(shapes))
    .validateQuads(parse(data))
    .map(
      (r) =>
        `${local(r.focusNode.value)} ${local(r.constraintComponent.value).replace('ConstraintComponent', '')} ${local(r.value?.value)}`,
    );
}

describe('CoreEngine, where SHACL and shacl-engine 1.1.2 part', () => {
  it('sh:equals on a node shape reports the focus node missing from the values, and each value not the focus node', () => {
    expect(results('ex:S sh:targetNode ex:n1 ; sh:equals ex:p .', 'ex:n1 ex:p ex:n3 .')).toEqual([
      'n1 Equals n1',
      'n1 Equals n3',
    ]);
  });

  it('repeats an inverse path, and an inverse alternative path, backwards', () => {
    expect(
      results(
        'ex:S sh:targetNode ex:n3 ; sh:property [ sh:path [ sh:oneOrMorePath [ sh:inversePath ex:p ] ] ; sh:maxCount 1 ] .',
        'ex:n1 ex:p ex:n2 . ex:n2 ex:p ex:n3 .',
      ),
    ).toEqual(['n3 MaxCount -']);
    expect(
      results(
        'ex:S sh:targetNode ex:n3 ; sh:property [ sh:path [ sh:inversePath [ sh:alternativePath ( ex:p ex:q ) ] ] ; sh:minCount 2 ] .',
        'ex:n1 ex:p ex:n3 . ex:n2 ex:q ex:n3 .',
      ),
    ).toEqual([]);
  });

  it('sh:pattern reports every blank node, whatever its label', () => {
    expect(results('ex:S sh:targetSubjectsOf ex:p ; sh:pattern "b" .', '_:b1 ex:p 1 .')).toEqual(['b1 Pattern b1']);
  });

  it('sh:closed holds on a property shape, and allows only the paths that are predicates', () => {
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:property [ sh:path ex:p ; sh:closed true ] .',
        'ex:n1 ex:p ex:n2 . ex:n2 ex:q 1 .',
      ),
    ).toEqual(['n1 Closed 1']);
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:closed true ; sh:property [ sh:path ( ex:p ex:q ) ] .',
        'ex:n1 ex:p ex:n2 .',
      ),
    ).toEqual(['n1 Closed n2']);
  });

  it('sh:languageIn matches ranges as SPARQL langMatches does: "*" any tag, case-insensitively', () => {
    expect(
      results(
        'ex:S sh:targetSubjectsOf ex:p ; sh:property [ sh:path ex:p ; sh:languageIn ( "*" ) ] .',
        'ex:n1 ex:p "a"@en, "b" .',
      ),
    ).toEqual(['n1 LanguageIn b']);
    expect(
      results(
        'ex:S sh:targetSubjectsOf ex:p ; sh:property [ sh:path ex:p ; sh:languageIn ( "EN" ) ] .',
        'ex:n1 ex:p "a"@en-gb .',
      ),
    ).toEqual([]);
  });

  it('orders only comparable literals: a language-tagged string, or a literal of an unknown datatype, is out of range', () => {
    expect(
      results(
        'ex:S sh:targetSubjectsOf ex:p ; sh:property [ sh:path ex:p ; sh:maxInclusive "b" ] .',
        'ex:n1 ex:p "a"@en, "a"^^ex:dt, "a" .',
      ),
    ).toEqual(['n1 MaxInclusive a', 'n1 MaxInclusive a']);
  });

  it('gives no sh:value to results of a property shape inside a property shape that have no value node', () => {
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:property [ sh:path ex:p ; sh:property [ sh:path ex:q ; sh:minCount 1 ] ] .',
        'ex:n1 ex:p ex:n2 .',
      ),
    ).toEqual(['n2 MinCount -']);
  });

  it('reads rdfs:subClassOf in the data graph, for targets and sh:class', () => {
    expect(results('ex:S sh:targetClass ex:A ; sh:class ex:C .', 'ex:n1 a ex:B . ex:B rdfs:subClassOf ex:A .')).toEqual(
      ['n1 Class n1'],
    );
  });

  it('finds a shape met twice on one node the same both times, and one checked inside another before its own target', () => {
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:xone ( ex:T ex:T ) . ex:T sh:disjoint ex:p ; sh:and ( ex:U ) . ex:U sh:minLength 0 .',
        'ex:n1 ex:p ex:n1 .',
      ),
    ).toEqual(['n1 Xone n1']);
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:and ( ex:T ) . ex:T sh:targetNode ex:n1 ; sh:in ( ex:n2 ) .',
        'ex:n1 ex:p 1 .',
      ),
    ).toEqual(['n1 And n1', 'n1 In n1']);
  });

  it('follows a sequence inside a sequence or an alternative', () => {
    const engine = CoreEngine.compile(
      parse(
        'ex:S sh:targetNode ex:n1 ; sh:property [ sh:path [ sh:alternativePath ( ( ex:p ex:q ) ex:r ) ] ; sh:maxCount 1 ] .',
      ),
    );
    expect(engine.inexact.length).toBe(1);
    expect(
      engine
        .validateQuads(parse('ex:n1 ex:p ex:n2 . ex:n2 ex:q 1 . ex:n1 ex:r 2 .'))
        .map((r) => r.constraintComponent.value),
    ).toEqual(['http://www.w3.org/ns/shacl#MaxCountConstraintComponent']);
  });

  it('refuses SHACL-SPARQL it has no native implementation of, and SPARQL targets', () => {
    expect(() =>
      CoreEngine.compile(parse('ex:S sh:targetNode ex:n1 ; sh:sparql [ sh:select "SELECT $this WHERE {}" ] .')),
    ).toThrow(UnsupportedShapes);
    expect(() =>
      CoreEngine.compile(parse('ex:S sh:target [ sh:select "SELECT ?this WHERE {}" ] ; sh:minLength 1 .')),
    ).toThrow(UnsupportedShapes);
  });

  it('takes a shape met again on the same node inside itself as conforming (recursion)', () => {
    expect(
      results(
        'ex:S sh:targetNode ex:n1 ; sh:property [ sh:path ex:p ; sh:node ex:S ] ; sh:nodeKind sh:IRI .',
        'ex:n1 ex:p ex:n1 .',
      ),
    ).toEqual([]);
  });
});
