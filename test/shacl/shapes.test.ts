import { beforeAll, describe, expect, it } from 'vitest';
import { RecordValidator } from '../../src/shacl/RecordValidator.js';
import { SHAPES_NS } from '../../src/shacl/engine/nativeConstraints.js';
import { SHAPES_WITHOUT_OWN_CONSTRAINTS, SHAPE_CASES, caseQuads, fixtureQuads } from './shapeCases.js';

const SH = 'http://www.w3.org/ns/shacl#';
let validator: RecordValidator;

beforeAll(async () => {
  validator = await RecordValidator.create();
});

describe('shapes/', () => {
  it('the conforming fixtures give no result at all (not even a warning)', async () => {
    for (const name of ['full-records.ttl', 'dataset-description.ttl']) {
      const outcome = await validator.validateRecord(fixtureQuads(name));
      expect(
        outcome.results.map((r) => `${r.shape.value} ${r.path} ${r.message}`),
        name,
      ).toEqual([]);
      expect(outcome.conforms).toBe(true);
    }
  });

  it('every named shape has a name, a description or a message, and a violating case', () => {
    const ds = validator.shapes.dataset;
    const named = [
      ...ds.getSubjects(`http://www.w3.org/1999/02/22-rdf-syntax-ns#type`, `${SH}NodeShape`, null),
      ...ds.getSubjects(`http://www.w3.org/1999/02/22-rdf-syntax-ns#type`, `${SH}PropertyShape`, null),
    ]
      .filter((s) => s.termType === 'NamedNode' && s.value.startsWith(SHAPES_NS))
      .map((s) => s.value.slice(SHAPES_NS.length));
    expect(named.length).toBeGreaterThan(80);
    const covered = new Set([...SHAPE_CASES.map((c) => c.shape), ...SHAPES_WITHOUT_OWN_CONSTRAINTS]);
    expect(named.filter((n) => !covered.has(n))).toEqual([]);
    for (const n of named) {
      const iri = SHAPES_NS + n;
      const hasMessage = ds.getObjects(iri, `${SH}message`, null).length > 0;
      const hasSparqlMessage =
        ds.getObjects(iri, `${SH}sparql`, null).every((c) => ds.getObjects(c, `${SH}message`, null).length > 0) &&
        ds.getObjects(iri, `${SH}sparql`, null).length > 0;
      const isNodeShapeOfProperties = ds.getObjects(iri, `${SH}property`, null).length > 0;
      expect(hasMessage || hasSparqlMessage || isNodeShapeOfProperties, `${n} has no message`).toBe(true);
      if (
        ds
          .getObjects(iri, `http://www.w3.org/1999/02/22-rdf-syntax-ns#type`, null)
          .some((t) => t.value === `${SH}NodeShape`)
      ) {
        expect(ds.getObjects(iri, `${SH}name`, null).length, `${n} sh:name`).toBe(1);
        expect(ds.getObjects(iri, `${SH}description`, null).length, `${n} sh:description`).toBe(1);
      }
    }
  });

  describe.each(SHAPE_CASES.map((c) => [c.shape, c] as const))('%s', (_name, c) => {
    it(`reports a ${c.severity ?? 'Violation'} on the broken fixture`, async () => {
      const outcome = await validator.validateRecord(caseQuads(c));
      const mine = outcome.results.filter((r) => r.shape.value === SHAPES_NS + c.shape);
      expect(mine.length, outcome.results.map((r) => r.shape.value).join(', ')).toBeGreaterThan(0);
      expect(mine.every((r) => r.severity === (c.severity ?? 'Violation'))).toBe(true);
      expect(outcome.conforms).toBe(
        c.severity === 'Warning' ? !outcome.results.some((r) => r.severity === 'Violation') : false,
      );
      for (const r of mine) expect(r.message.length).toBeGreaterThan(20);
    });
  });
});
