import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { afterEach, describe, expect, it } from 'vitest';
import { tuneEngine, untuneEngine } from '../../src/shacl/engineTuning.js';
import { loadShapes } from '../../src/shacl/loadShapes.js';
import { RecordDataset } from '../../src/shacl/RecordDataset.js';
import { Validator, type EngineResult } from '../../src/shacl/shaclEngine.js';
import { SHAPE_CASES, caseQuads, fixtureQuads } from './shapeCases.js';

const { namedNode, literal } = DataFactory;
const factory = DataFactory as unknown as RDF.DataFactory;

/** A grapoi PathList as shacl-engine makes them (the validator's pointer over its shapes). */
function pathListOf(validator: Validator): { ptrs: unknown[]; term: unknown; dataset: unknown; node(terms: RDF.Term[]): { term: unknown; dataset: unknown } } {
  return validator.shapesPtr as never;
}

function line(r: EngineResult): string {
  const path = r.path?.map((s) => `${s.start === 'object' ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`).join('/') ?? '-';
  return [r.focusNode.term?.value, r.shape.ptr.term.value, path, r.severity.value, r.constraintComponent.value, r.value?.term?.value ?? '-', r.message.map((m) => m.value).join(' ')].join(' ');
}

async function resultsOf(validator: Validator, quads: RDF.Quad[]): Promise<string[]> {
  const report = await validator.validate({ dataset: new RecordDataset(quads) });
  return report.results.map(line).sort();
}

let tuned: Validator | undefined;
afterEach(() => {
  if (tuned) tuneEngine(tuned.shapesPtr);
});

describe('tuneEngine', () => {
  it('gives the very results of the untuned engine on every shape case and fixture', async () => {
    const shapes = await loadShapes();
    const validator = new Validator(new Store(shapes.dataset.getQuads(null, null, null, null)), { factory });
    tuned = validator;
    const inputs = [fixtureQuads('full-records.ttl'), fixtureQuads('broken-records.ttl'), ...SHAPE_CASES.map(caseQuads)];
    expect(tuneEngine(validator.shapesPtr)).toBe(true);
    const fast: string[][] = [];
    for (const quads of inputs) fast.push(await resultsOf(validator, quads).catch((e: Error) => [`error ${e.message}`]));
    untuneEngine(validator.shapesPtr);
    const slow: string[][] = [];
    for (const quads of inputs) slow.push(await resultsOf(validator, quads).catch((e: Error) => [`error ${e.message}`]));
    expect(fast).toEqual(slow);
    // The corpus does exercise the engine: broken records and cases give results.
    expect(fast.filter((r) => r.length > 0).length).toBeGreaterThan(SHAPE_CASES.length / 2);
  });

  it('answers term and dataset as the original getters do, for zero, one and several pointers', () => {
    const a = new RecordDataset([DataFactory.quad(namedNode('urn:s'), namedNode('urn:p'), literal('x'))]);
    const b = new RecordDataset([]);
    const validator = new Validator(new RecordDataset([]), { factory });
    tuned = validator;
    const base = pathListOf(validator);
    const Ctor = (base as unknown as { constructor: new (args: object) => { term: unknown; dataset: unknown } }).constructor;
    const lists = () => ({
      none: new Ctor({ factory, ptrs: [] }),
      one: new Ctor({ dataset: a, factory, terms: [namedNode('urn:s')] }),
      oneNull: new Ctor({ dataset: a, factory }),
      sameTwice: new Ctor({ dataset: a, factory, terms: [literal('x'), literal('x')] }),
      two: new Ctor({ dataset: a, factory, terms: [namedNode('urn:s'), namedNode('urn:t')] }),
      twoDatasets: new Ctor({
        factory,
        ptrs: [
          ...(new Ctor({ dataset: a, factory, terms: [namedNode('urn:s')] }) as unknown as { ptrs: unknown[] }).ptrs,
          ...(new Ctor({ dataset: b, factory, terms: [namedNode('urn:s')] }) as unknown as { ptrs: unknown[] }).ptrs,
        ],
      }),
    });
    const read = () => Object.fromEntries(Object.entries(lists()).map(([k, l]) => [k, { term: l.term, dataset: l.dataset }]));
    expect(tuneEngine(validator.shapesPtr)).toBe(true);
    const fast = read();
    untuneEngine(validator.shapesPtr);
    const slow = read();
    expect(fast).toEqual(slow);
    expect(fast.sameTwice!.term).toEqual(literal('x'));
    expect(fast.two!.term).toBeUndefined();
    expect(fast.twoDatasets!.dataset).toBeNull();
    expect(fast.none!.dataset).toBeNull();
  });

  it('leaves anything that is no pointer list alone', () => {
    expect(tuneEngine({})).toBe(false);
    expect(tuneEngine(null)).toBe(false);
    expect(tuneEngine({ ptrs: [] })).toBe(false); // a plain object has no getters to replace
  });
});
