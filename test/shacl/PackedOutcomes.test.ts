import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { packOutcomes, unpackOutcomes } from '../../src/shacl/PackedOutcomes.js';
import type { ValidationOutcome, ValidationResult } from '../../src/shacl/reports/ValidationResult.js';

const { namedNode, blankNode, literal } = DataFactory;

const result = (over: Partial<ValidationResult> = {}): ValidationResult => ({
  focusNode: namedNode('https://doi.org/10.1/x'),
  shape: namedNode('https://w3id.org/scholarly-rdf/shapes#Work-name'),
  path: 'schema:name',
  resultPath: [{ predicates: [namedNode('http://schema.org/name')], inverse: false, quantifier: 'one' }],
  severity: 'Violation',
  message: 'A work needs a title',
  value: literal('Ein Titel', 'de'),
  constraintComponent: namedNode('http://www.w3.org/ns/shacl#MinCountConstraintComponent'),
  sourceConstraint: undefined,
  ...over,
});

const outcomes: ValidationOutcome[] = [
  { conforms: true, violations: 0, warnings: 0, results: [] },
  {
    conforms: true,
    violations: 0,
    warnings: 0,
    scope: {
      shared: [
        [8812504006170279, 2248353749406916, 'https://w3id.org/scholarly-rdf/publisher/springer'],
        [1, 0, 'https://w3id.org/scholarly-rdf/journal/287'],
      ],
    },
    results: [],
  },
  {
    conforms: false,
    violations: 2,
    warnings: 1,
    infos: 1,
    others: 3,
    scope: {
      beyond: ['a record names another record', 'a second reason'],
      shared: [[5, 6, 'https://orcid.org/0000-0001-8888-8910']],
    },
    results: [
      result(),
      result({ severity: 'Warning', path: undefined, resultPath: undefined, value: undefined }),
      result({
        focusNode: blankNode('b0'),
        sourceConstraint: blankNode('c1'),
        severity: '<https://example.org/Minor>',
      }),
    ],
  },
  { conforms: true, violations: 0, warnings: 0, scope: {}, results: [] },
  { conforms: true, violations: 0, warnings: 0, scope: { shared: [] }, results: [] },
  { conforms: false, violations: 1, warnings: 0, scope: { beyond: ['only a reason'] }, results: [result()] },
];

describe('packOutcomes', () => {
  it('gives back the outcomes as they were: counts, scope, results', () => {
    const packed = packOutcomes(outcomes);
    expect(unpackOutcomes(packed)).toEqual(outcomes);
    // The keys in the order of a ValidationOutcome's fields (what prints an outcome prints the same text).
    const order = ['conforms', 'violations', 'warnings', 'infos', 'others', 'scope', 'results'];
    expect(unpackOutcomes(packed).map((o) => Object.keys(o))).toEqual(outcomes.map((o) => order.filter((k) => k in o)));
    // A scope's reasons before its shared nodes, as recordScopeOf gives them.
    expect(unpackOutcomes(packed).map((o) => Object.keys(o.scope ?? {}))).toEqual(
      outcomes.map((o) => ['beyond', 'shared'].filter((k) => k in (o.scope ?? {}))),
    );
  });

  it('packs the copies of shared nodes into numbers and strings, not objects', () => {
    const packed = packOutcomes(outcomes);
    expect(packed.strings).toEqual([
      'https://w3id.org/scholarly-rdf/publisher/springer',
      'https://w3id.org/scholarly-rdf/journal/287',
      'https://orcid.org/0000-0001-8888-8910',
      'a record names another record',
      'a second reason',
      'only a reason',
    ]);
    expect(packed.results).toHaveLength(4);
    expect(packed.numbers).toBeInstanceOf(Float64Array);
  });

  it('packs no outcome as nothing', () => {
    expect(unpackOutcomes(packOutcomes([]))).toEqual([]);
  });
});
