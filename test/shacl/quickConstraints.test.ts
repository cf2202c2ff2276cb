import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { createValidator } from '../../src/shacl/engineTuning.js';
import { addQuickChecks, type Compile, type QuickValidations } from '../../src/shacl/quickConstraints.js';
import { RecordDataset } from '../../src/shacl/RecordDataset.js';
import type { EngineResult, Validator } from '../../src/shacl/shaclEngine.js';
import { TermInterner } from '../../src/shacl/TermInterner.js';

const { namedNode, literal, quad } = DataFactory;
const factory = DataFactory as unknown as RDF.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** A shacl-engine registry of a few compile functions. */
function registry(entries: [string, Compile][]): QuickValidations & Map<string, Compile> {
  const map = new Map(entries.map(([local, compile]) => [`${SH}${local}`, compile]));
  return Object.assign(map, {
    get: (term: RDF.Term) => Map.prototype.get.call(map, typeof term === 'string' ? term : term.value) as Compile | undefined,
    set: (term: RDF.Term, compile: Compile) => Map.prototype.set.call(map, term.value, compile),
  }) as unknown as QuickValidations & Map<string, Compile>;
}

/** A shape whose `sh:<local>` is `value`, as the checks read it. */
function shapeWith(local: string, value: RDF.Term): Parameters<Compile>[0] {
  const terms = [value];
  return { ptr: { out: () => ({ terms }) } } as unknown as Parameters<Compile>[0];
}

/** A context whose `values` hold `count` values. */
function contextWith(count: number, debug = false) {
  return { options: { debug }, values: { ptrs: Array.from({ length: count }, () => ({ term: null })) } } as unknown as Parameters<NonNullable<ReturnType<Compile>>['property'] & object>[0];
}

describe('addQuickChecks', () => {
  it("runs the engine's own constraint only when its cheap check does not pass, or in debug runs", () => {
    const calls: number[] = [];
    const own: Compile = () => ({ property: (context) => void calls.push((context as unknown as { values: { ptrs: unknown[] } }).values.ptrs.length) });
    const validations = registry([['maxCount', own]]);
    addQuickChecks(validations, registry([['maxCount', own]]));
    const compiled = validations.get(namedNode(`${SH}maxCount`))!(shapeWith('maxCount', literal('1')))!;
    compiled.property!(contextWith(0));
    compiled.property!(contextWith(1));
    expect(calls).toEqual([]);
    compiled.property!(contextWith(2));
    compiled.property!(contextWith(1, true));
    expect(calls).toEqual([2, 1]);
  });

  it("leaves constraints that are not the engine's own as they are (a caller's, the toolkit's)", () => {
    const theirs: Compile = () => ({ property: () => undefined });
    const own: Compile = () => ({ property: () => undefined });
    const validations = registry([['maxCount', theirs]]);
    addQuickChecks(validations, registry([['maxCount', own]]));
    expect(validations.get(namedNode(`${SH}maxCount`))).toBe(theirs);
  });

  it('wraps a compile function once however many constraints name it, and passes on what it does not compile', () => {
    const own: Compile = () => null;
    const validations = registry([['minLength', own], ['maxLength', own]]);
    addQuickChecks(validations, registry([['minLength', own], ['maxLength', own]]));
    const wrapped = validations.get(namedNode(`${SH}minLength`));
    expect(wrapped).not.toBe(own);
    expect(validations.get(namedNode(`${SH}maxLength`))).toBe(wrapped);
    expect(wrapped!(shapeWith('minLength', literal('1')))).toBeNull();
  });
});

/** Everything the toolkit reads of a result. */
function line(r: EngineResult): string {
  const path = r.path?.map((s) => `${s.start === 'object' ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`).join('/') ?? '-';
  return [r.focusNode.term?.value, r.shape.ptr.term.value, path, r.severity.value, r.constraintComponent.value, r.value?.term?.value ?? '-', r.message.map((m) => m.value).join(' ')].join(' ');
}

async function lines(validator: Validator, quads: RDF.Quad[]): Promise<string[]> {
  return (await validator.validate({ dataset: new RecordDataset(quads) })).results.map(line);
}

describe('the quick checks in the synchronous walk', () => {
  // Every checked constraint, with values that pass and values that do not.
  const shapesText = `
    @prefix sh: <${SH}> . @prefix ex: <urn:ex:> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
    ex:Sub rdfs:subClassOf ex:Class .
    ex:S a sh:NodeShape ; sh:targetClass ex:T ;
      sh:property [ sh:path ex:p ; sh:minCount 1 ; sh:maxCount 2 ; sh:nodeKind sh:Literal ; sh:pattern "^a" ; sh:flags "i" ; sh:minLength 2 ; sh:maxLength 3 ] ;
      sh:property [ sh:path ex:q ; sh:in ( "x" "y" ) ; sh:equals ex:r ] ;
      sh:property [ sh:path ex:c ; sh:class ex:Class ] .`;
  const shapes = new Store(new Parser().parse(shapesText));
  const t = (n: number) => namedNode(`urn:ex:n${n}`);
  const ex = (local: string) => namedNode(`urn:ex:${local}`);
  const data = [
    // passes everything
    quad(t(1), namedNode(RDF_TYPE), ex('T')), quad(t(1), ex('p'), literal('Ab')), quad(t(1), ex('q'), literal('x')), quad(t(1), ex('r'), literal('x')),
    quad(t(1), ex('c'), t(9)), quad(t(9), namedNode(RDF_TYPE), ex('Sub')),
    // fails each in turn
    quad(t(2), namedNode(RDF_TYPE), ex('T')), quad(t(2), ex('p'), literal('b')), quad(t(2), ex('p'), t(3)), quad(t(2), ex('p'), literal('abcd')),
    quad(t(2), ex('q'), literal('z')), quad(t(2), ex('r'), literal('y')), quad(t(2), ex('c'), t(3)), quad(t(3), namedNode(RDF_TYPE), ex('Other')),
    quad(t(4), namedNode(RDF_TYPE), ex('T')), quad(t(4), ex('q'), literal('x', 'en')), quad(t(4), ex('r'), literal('x')), quad(t(4), ex('c'), literal('lit')),
  ];

  it("gives the engine's results, in its order, for values that pass and values that fail", async () => {
    const interner = new TermInterner();
    const quads = data.map((q) => interner.quad(q));
    const engine = createValidator(shapes, { factory }, false);
    const quick = createValidator(shapes, { factory }, true, true);
    const expected = await lines(engine, quads);
    expect(expected.length).toBeGreaterThan(8);
    expect(await lines(quick, quads)).toEqual(expected);
  });
});
