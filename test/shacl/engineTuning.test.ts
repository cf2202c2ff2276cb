import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { createValidator, tunedPathList } from '../../src/shacl/engineTuning.js';
import { loadShapes } from '../../src/shacl/loadShapes.js';
import { RecordDataset } from '../../src/shacl/RecordDataset.js';
import { Validator, type EngineResult } from '../../src/shacl/shaclEngine.js';
import { SHAPE_CASES, caseQuads, fixtureQuads } from './shapeCases.js';

const { namedNode, literal } = DataFactory;
const factory = DataFactory as unknown as RDF.DataFactory;

function line(r: EngineResult): string {
  const path = r.path?.map((s) => `${s.start === 'object' ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`).join('/') ?? '-';
  return [r.focusNode.term?.value, r.shape.ptr.term.value, path, r.severity.value, r.constraintComponent.value, r.value?.term?.value ?? '-', r.message.map((m) => m.value).join(' ')].join(' ');
}

async function resultsOf(validator: Validator, quads: RDF.Quad[]): Promise<string[]> {
  const report = await validator.validate({ dataset: new RecordDataset(quads) });
  return report.results.map(line).sort();
}

type PathListCtor = new (args: object) => { term: unknown; dataset: unknown; ptrs: unknown[] };

/** grapoi's PathList class as the engine uses it (reached through a plain validator's pointer). */
function enginePathList(): PathListCtor {
  return (new Validator(new RecordDataset([]), { factory }).shapesPtr as unknown as { constructor: PathListCtor }).constructor;
}

describe('createValidator (tuned pointer lists)', () => {
  it('gives the very results of the untuned engine on every shape case and fixture', async () => {
    const shapes = await loadShapes();
    const dataset = () => new Store(shapes.dataset.getQuads(null, null, null, null));
    const fast = createValidator(dataset(), { factory });
    const slow = createValidator(dataset(), { factory }, false);
    const inputs = [fixtureQuads('full-records.ttl'), fixtureQuads('broken-records.ttl'), ...SHAPE_CASES.map(caseQuads)];
    const run = async (v: Validator) => {
      const out: string[][] = [];
      for (const quads of inputs) out.push(await resultsOf(v, quads).catch((e: Error) => [`error ${e.message}`]));
      return out;
    };
    const tunedResults = await run(fast);
    expect(tunedResults).toEqual(await run(slow));
    // The corpus does exercise the engine: broken records and cases give results.
    expect(tunedResults.filter((r) => r.length > 0).length).toBeGreaterThan(SHAPE_CASES.length / 2);
    // And the tuned validator does use the subclass, over the shapes and over the data.
    const Tuned = tunedPathList(enginePathList())!;
    expect(fast.shapesPtr).toBeInstanceOf(Tuned);
    expect(slow.shapesPtr).not.toBeInstanceOf(Tuned);
  });

  it('answers term and dataset as the original getters do, for zero, one and several pointers', () => {
    const a = new RecordDataset([DataFactory.quad(namedNode('urn:s'), namedNode('urn:p'), literal('x'))]);
    const b = new RecordDataset([]);
    const read = (Ctor: PathListCtor) => {
      const lists = {
        none: new Ctor({ factory, ptrs: [] }),
        one: new Ctor({ dataset: a, factory, terms: [namedNode('urn:s')] }),
        oneNull: new Ctor({ dataset: a, factory }),
        sameTwice: new Ctor({ dataset: a, factory, terms: [literal('x'), literal('x')] }),
        two: new Ctor({ dataset: a, factory, terms: [namedNode('urn:s'), namedNode('urn:t')] }),
        twoDatasets: new Ctor({
          factory,
          ptrs: [...new Ctor({ dataset: a, factory, terms: [namedNode('urn:s')] }).ptrs, ...new Ctor({ dataset: b, factory, terms: [namedNode('urn:s')] }).ptrs],
        }),
      };
      return Object.fromEntries(Object.entries(lists).map(([k, l]) => [k, { term: l.term, dataset: l.dataset }]));
    };
    const base = enginePathList();
    const fast = read(tunedPathList(base)! as unknown as PathListCtor);
    const slow = read(base);
    expect(fast).toEqual(slow);
    expect(fast.sameTwice!.term).toEqual(literal('x'));
    expect(fast.two!.term).toBeUndefined();
    expect(fast.twoDatasets!.dataset).toBeNull();
    expect(fast.none!.dataset).toBeNull();
  });

  it('patches nothing process-wide: grapoi\'s PathList and other validators keep the original getters', async () => {
    const base = enginePathList();
    // Every own property of the prototype, as the very getter, setter or value.
    const snapshot = () => Reflect.ownKeys(base.prototype).map((k) => {
      const d = Object.getOwnPropertyDescriptor(base.prototype, k)!;
      return [k, d.get, d.set, d.value] as const;
    });
    const before = snapshot();
    const tuned = createValidator(new RecordDataset([]), { factory });
    await tuned.validate({ dataset: new RecordDataset([DataFactory.quad(namedNode('urn:s'), namedNode('urn:p'), literal('x'))]) });
    const after = snapshot();
    expect(after.length).toBe(before.length);
    after.forEach((entry, i) => entry.forEach((part, j) => expect(part).toBe(before[i]![j])));
    const plain = new Validator(new RecordDataset([]), { factory });
    expect(Object.getPrototypeOf(plain.shapesPtr)).toBe(base.prototype);
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(plain.shapesPtr), 'term')!.get).toBe(before.find(([k]) => k === 'term')![1]);
  });

  it('leaves a pointer class whose getters are not of the expected form alone', () => {
    class Odd {
      term = 1;
      dataset = 2;
      constructor(_args: object) {}
    }
    expect(tunedPathList(Odd as unknown as Parameters<typeof tunedPathList>[0])).toBeUndefined();
  });
});
