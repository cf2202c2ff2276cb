import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { createValidator } from '../../src/shacl/engineTuning.js';
import { loadShapes } from '../../src/shacl/loadShapes.js';
import { compileNativeSparql, compileStrictDatatype } from '../../src/shacl/nativeConstraints.js';
import { RecordDataset } from '../../src/shacl/RecordDataset.js';
import type { EngineResult, Validator, ValidatorOptions } from '../../src/shacl/shaclEngine.js';
import { TermIds, distinctKey, processedKey, type PtrList, type SyncShape } from '../../src/shacl/SyncContext.js';
import { TermInterner } from '../../src/shacl/TermInterner.js';
import { SHAPE_CASES, caseQuads, fixtureQuads } from './shapeCases.js';

const { namedNode, literal, quad } = DataFactory;
const factory = DataFactory as unknown as RDF.DataFactory;
const SH = 'http://www.w3.org/ns/shacl#';

/** A result with everything the toolkit reads of it, and its nested results (of sh:or, sh:node, ...). */
function line(r: EngineResult): string {
  const path = r.path?.map((s) => `${s.start === 'object' ? '^' : ''}${s.predicates.map((p) => p.value).join('|')}${s.quantifier}`).join('/') ?? '-';
  const nested = (r as unknown as { results: EngineResult[] }).results ?? [];
  return [r.focusNode.term?.value, r.shape.ptr.term.value, path, r.severity.value, r.constraintComponent.value, r.value?.term?.value ?? '-', r.message.map((m) => m.value).join(' '), `[${nested.length}]`].join(' ');
}

/** The toolkit's own validations (prepareEngine's, without the SPARQL engine). */
const options: ValidatorOptions = {
  factory,
  validations: [
    [namedNode(`${SH}datatype`), compileStrictDatatype],
    [namedNode(`${SH}sparql`), compileNativeSparql(undefined)],
  ],
};

async function resultsOf(validator: Validator, quads: RDF.Quad[]): Promise<{ conforms: boolean; lines: string[] }> {
  const report = await validator.validate({ dataset: new RecordDataset(quads) });
  return { conforms: report.conforms, lines: report.results.map(line) };
}

describe('the synchronous walk (createValidator with sync)', () => {
  it('gives the results of the engine\'s own walk, in the same order, on every shape case and fixture', async () => {
    const shapes = await loadShapes();
    const dataset = () => new Store(shapes.dataset.getQuads(null, null, null, null));
    const sync = createValidator(dataset(), options, true, true);
    const engine = createValidator(dataset(), options, false);
    const inputs = [fixtureQuads('full-records.ttl'), fixtureQuads('broken-records.ttl'), ...SHAPE_CASES.map(caseQuads)];
    let withResults = 0;
    for (const quads of inputs) {
      const got = await resultsOf(sync, quads);
      expect(got).toEqual(await resultsOf(engine, quads));
      if (got.lines.length) withResults++;
    }
    expect(withResults).toBeGreaterThan(SHAPE_CASES.length / 2);
  });

  it('runs sh:and, sh:xone, sh:not, sh:qualifiedValueShape (disjoint) and a shape reached twice as the engine does', async () => {
    const shapesText = `
      @prefix sh: <${SH}> . @prefix ex: <urn:ex:> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
      ex:S a sh:NodeShape ; sh:targetClass ex:C ;
        sh:and ( ex:Named [ sh:path ex:n ; sh:maxCount 1 ] ) ;
        sh:xone ( ex:Named [ sh:path ex:m ; sh:minCount 1 ] ) ;
        sh:not [ sh:path ex:bad ; sh:minCount 1 ] ;
        sh:property ex:Q1, ex:Q2, [ sh:path ex:k ; sh:node ex:Named ; sh:or ( [ sh:datatype xsd:string ] [ sh:nodeKind sh:IRI ] ) ] .
      ex:Named sh:path ex:n ; sh:minCount 1 ; sh:datatype xsd:string .
      ex:Q1 sh:path ex:k ; sh:qualifiedValueShape [ sh:path ex:n ; sh:minCount 1 ] ; sh:qualifiedValueShapesDisjoint true ; sh:qualifiedMinCount 2 .
      ex:Q2 sh:path ex:k ; sh:qualifiedValueShape [ sh:path ex:m ; sh:minCount 1 ] ; sh:qualifiedValueShapesDisjoint true ; sh:qualifiedMaxCount 0 .`;
    const data = `
      @prefix ex: <urn:ex:> .
      ex:a a ex:C ; ex:n "one", "two" ; ex:m 1 ; ex:bad 1 ; ex:k ex:b, ex:c, "lit" .
      ex:b ex:n "b" ; ex:m 2 . ex:c ex:n 3 .
      ex:d a ex:C ; ex:n "d" ; ex:k ex:d .`;
    const shapes = new Store(new Parser().parse(shapesText));
    const quads = new Parser().parse(data);
    const sync = await resultsOf(createValidator(shapes, options, true, true), quads);
    expect(sync).toEqual(await resultsOf(createValidator(shapes, options, false), quads));
    expect(sync.lines.length).toBeGreaterThan(5);
  });

  it('refuses a constraint that returns a promise instead of skipping it', async () => {
    const shapes = new Store(new Parser().parse(`@prefix sh: <${SH}> . <urn:S> a sh:NodeShape ; sh:targetNode <urn:a> ; sh:minLength 1 .`));
    const asyncMinLength = () => ({ generic: async () => undefined });
    const validator = createValidator(shapes, { factory, validations: [[namedNode(`${SH}minLength`), asyncMinLength]] }, true, true);
    await expect(validator.validate({ dataset: new RecordDataset([quad(namedNode('urn:a'), namedNode('urn:p'), literal('x'))]) })).rejects.toThrow(/asynchronous/);
  });
});

describe('the targets of the synchronous walk', () => {
  it('are the engine\'s, in its order, reached by class, node, subject and object, several ways at once', async () => {
    const text = `@prefix sh: <${SH}> . @prefix ex: <urn:ex:> .
      ex:S a sh:NodeShape ; sh:targetClass ex:A, ex:B ; sh:targetNode ex:n9, ex:n1 ; sh:targetSubjectsOf ex:s ; sh:targetObjectsOf ex:o ;
        sh:property [ sh:path ex:v ; sh:minCount 1 ] .`;
    const shapes = new Store(new Parser().parse(text));
    const ex = (local: string) => namedNode(`urn:ex:${local}`);
    const type = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
    const interner = new TermInterner();
    const quads = [
      quad(ex('n3'), type, ex('B')), quad(ex('n2'), type, ex('A')), quad(ex('n1'), type, ex('B')), quad(ex('n3'), type, ex('A')),
      quad(ex('n4'), ex('s'), ex('n5')), quad(ex('n2'), ex('s'), ex('n1')), quad(ex('n6'), ex('o'), ex('n7')), quad(ex('n7'), ex('o'), ex('n4')),
      quad(ex('n8'), ex('o'), literal('lit')), quad(ex('n5'), ex('v'), literal('x')),
    ].map((q) => interner.quad(q));
    const engine = await resultsOf(createValidator(shapes, options, false), quads);
    const sync = await resultsOf(createValidator(shapes, options, true, true), quads);
    expect(engine.lines.length).toBeGreaterThan(6);
    expect(sync).toEqual(engine);
  });
});

describe('distinctKey', () => {
  it('tells terms apart exactly as their N-Triples forms do, interned or not', () => {
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
    const lit = (value: string, language: string, datatype: string) => ({ termType: 'Literal', value, language, datatype: namedNode(datatype), equals: () => false }) as RDF.Literal;
    const terms: RDF.Term[] = [
      namedNode('urn:a'),
      DataFactory.blankNode('a'),
      literal('urn:a'),
      literal('a'),
      literal('a', 'en'),
      literal('a', 'de'),
      literal('a', namedNode(`${XSD}date`)),
      lit('a', 'en', `${RDF_NS}dirLangString`),
      lit('a', 'de', `${RDF_NS}dirLangString`),
      lit('a', 'en', `${XSD}integer`),
      lit('a', '', `${XSD}integer`),
      literal('"a"@en'),
    ];
    const interner = new TermInterner();
    const nt = (t: RDF.Term) =>
      t.termType === 'NamedNode' ? `<${t.value}>` : t.termType === 'BlankNode' ? `_:${t.value}` : (t as RDF.Literal).datatype.value === `${RDF_NS}langString` ? `"${t.value}"@${(t as RDF.Literal).language}` : `"${t.value}"^^<${(t as RDF.Literal).datatype.value}>`;
    for (const a of terms) {
      for (const b of terms) {
        const same = nt(a) === nt(b) || (nt(a) === `"${a.value}"^^<${XSD}string>` && nt(a) === nt(b));
        expect(distinctKey(a) === distinctKey(b), `${nt(a)} ${nt(b)}`).toBe(same);
        expect(distinctKey(interner.term(a))).toBe(distinctKey(a));
      }
    }
  });
});

describe('processedKey', () => {
  it('is equal exactly when the shape, the focus node and the quads of the value paths are', () => {
    const ids = new TermIds();
    const shape = (iri: string) => ({ ptr: { term: namedNode(iri) } }) as unknown as SyncShape;
    const node = (iri: string) => ({ term: namedNode(iri) }) as unknown as PtrList;
    const path = (...quads: RDF.Quad[]) => ({ quads: () => quads }) as unknown as PtrList;
    const a = quad(namedNode('urn:f'), namedNode('urn:p'), literal('1'));
    const b = quad(namedNode('urn:f'), namedNode('urn:p'), literal('2'));
    const keys = [
      processedKey(ids, shape('urn:S'), node('urn:f'), undefined),
      processedKey(ids, shape('urn:S'), node('urn:g'), undefined),
      processedKey(ids, shape('urn:T'), node('urn:f'), undefined),
      processedKey(ids, shape('urn:S'), node('urn:f'), [path(a)]),
      processedKey(ids, shape('urn:S'), node('urn:f'), [path(b)]),
      processedKey(ids, shape('urn:S'), node('urn:f'), [path(a, b)]),
      processedKey(ids, shape('urn:S'), node('urn:f'), [path(a), path(b)]),
      processedKey(ids, shape('urn:S'), node('urn:f'), [undefined]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // The same again (new term objects), and no value paths written either way, give the same keys.
    expect(processedKey(ids, shape('urn:S'), node('urn:f'), [])).toBe(keys[0]);
    expect(processedKey(ids, shape('urn:T'), node('urn:f'), undefined)).toBe(keys[2]);
    expect(processedKey(ids, shape('urn:S'), node('urn:f'), [path(quad(namedNode('urn:f'), namedNode('urn:p'), literal('2')))])).toBe(keys[4]);
    // Without value paths a number: no text is built.
    expect(typeof keys[0]).toBe('number');
  });
});
