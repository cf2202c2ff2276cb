// Property-based differential test: random shapes graphs (every SHACL Core component, every kind of path,
// targets of each kind, nested and logical shapes, severities, sh:deactivated, messages) and random records,
// validated by the engine of our own and by shacl-engine through its public API (`Validator`, the report graph):
// the same results, compared as graphs result by result (focus node, path, value, severity, source shape,
// component, message). 10,000 cases in `npm test`.
import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { DataFactory, Store } from 'n3';
import { Validator } from 'shacl-engine';
import { describe, expect, it } from 'vitest';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import { fuzzParams } from '../../fuzz/fuzzConfig.js';
import { SH, key, oursLine, parse, record, reportPath, shapesGraph } from './randomCases.js';

/** n3's data factory with the `dataset()` shacl-engine builds its report graph with. */
const FACTORY = { ...DataFactory, dataset: (quads?: RDF.Quad[]) => new Store(quads) } as unknown as RDF.DataFactory;

/** The components whose results have no sh:value. */
const WITHOUT_VALUE = new Set(
  ['MinCount', 'MaxCount', 'QualifiedMinCount', 'QualifiedMaxCount', 'UniqueLang', 'HasValue'].map(
    (c) => `${SH}${c}ConstraintComponent`,
  ),
);

/**
 * shacl-engine's report graph, result by result. Its result paths name the blank nodes of the shapes graph's
 * paths and copy only the top one's triples: the rest are read from the shapes graph.
 */
function theirLines(report: RDF.DatasetCore, shapes: RDF.Quad[]): string[] {
  const store = new Store([...report, ...shapes]);
  const one = (s: RDF.Term, p: string) => store.getObjects(s, DataFactory.namedNode(p), null)[0];
  return store.getObjects(null, DataFactory.namedNode(`${SH}result`), null).map((r) =>
    [
      key(one(r, `${SH}focusNode`)),
      reportPath(store, one(r, `${SH}resultPath`)),
      // A property shape inside a property shape: shacl-engine gives the results of its components that have no
      // value node (SHACL: no sh:value) the value of the outer shape (docs/validation.md).
      WITHOUT_VALUE.has(one(r, `${SH}sourceConstraintComponent`)!.value) ? '-' : key(one(r, `${SH}value`)),
      one(r, `${SH}resultSeverity`)!.value,
      key(one(r, `${SH}sourceShape`)),
      key(one(r, `${SH}sourceConstraintComponent`)),
      JSON.stringify(
        store
          .getObjects(r, DataFactory.namedNode(`${SH}resultMessage`), null)
          .map((m) => m.value)
          .join(' '),
      ),
    ].join(' '),
  );
}

describe('random shapes and records: the engine of our own and shacl-engine give the same report', () => {
  it('result by result', async () => {
    await fc.assert(
      fc.asyncProperty(shapesGraph, record, async (shapesText, dataText) => {
        // Each shape named once as a value: shacl-engine, meeting a shape again on the same node, repeats only part
        // of what it found the first time (docs/validation.md).
        fc.pre(
          Array.from(
            { length: 4 },
            (_, i) => shapesText.split(`ex:S${i + 1} `).length + shapesText.split(`ex:S${i + 1})`).length - 2,
          ).every((n) => n <= 2),
        );
        const shapes = parse(shapesText);
        const data = parse(dataText);
        const engine = CoreEngine.compile(shapes);
        const ours = engine.validateQuads(data).map(oursLine).sort();
        // shacl-engine reads rdfs:subClassOf in the shapes graph (SHACL: the data graph): it is given the data's too, as
        // validate's front door does (dataClassTriples).
        const classTriples = data.filter(
          (q) => q.predicate.value === 'http://www.w3.org/2000/01/rdf-schema#subClassOf',
        );
        const validator = new Validator(new Store([...shapes, ...classTriples]), { factory: FACTORY });
        const report = await validator.validate({ dataset: new Store(data) });
        const theirs = theirLines(report.dataset, shapes).sort();
        expect(ours, `${shapesText}\n---\n${dataText}`).toEqual(theirs);
      }),
      fuzzParams('random shapes and records', 10_000),
    );
  }, 600_000);
});
