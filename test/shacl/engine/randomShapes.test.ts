// Property-based differential test: random shapes graphs (every SHACL Core component, every kind of path,
// targets of each kind, nested and logical shapes, severities, sh:deactivated, messages) and random records,
// validated by the engine of our own and by shacl-engine through its public API (`Validator`, the report graph):
// the same results, compared as graphs result by result (focus node, path, value, severity, source shape,
// component, message). 10,000 cases in `npm test`.
import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { DataFactory, Parser, Store } from 'n3';
import { Validator } from 'shacl-engine';
import { describe, expect, it } from 'vitest';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import type { PathStep, ValidationResult } from '../../../src/shacl/ValidationResult.js';
import { fuzzParams } from '../../fuzz/fuzzConfig.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PREFIXES =
  '@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://ex/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';

/** n3's data factory with the `dataset()` shacl-engine builds its report graph with. */
const FACTORY = { ...DataFactory, dataset: (quads?: RDF.Quad[]) => new Store(quads) } as unknown as RDF.DataFactory;

const predicate = fc.constantFrom('ex:p', 'ex:q', 'ex:r');
const cls = fc.constantFrom('ex:A', 'ex:B');
const node = fc.constantFrom('ex:n1', 'ex:n2', 'ex:n3', '_:b1', '_:b2');
// No literal of an unknown datatype: shacl-engine orders them by their lexical forms, SPARQL not at all (docs/validation.md).
const literal = fc.constantFrom(
  '1',
  '2',
  '5',
  '-3',
  '"1"^^xsd:integer',
  '2.5',
  '"x"',
  '"abc"',
  '"abcdef"',
  '"x"@en',
  '"y"@en',
  '"z"@de',
  '"Ab"@en-GB',
  '"true"^^xsd:boolean',
  '"2020-01-02"^^xsd:date',
  '"2021-05-06"^^xsd:date',
  '"nope"^^xsd:integer',
  '"2020-01-02T10:00:00Z"^^xsd:dateTime',
  '""',
);
const object = fc.oneof(node, literal, cls);

/** One step of a path: a predicate, maybe inverse, alternatives or repeated. */
const step: fc.Arbitrary<string> = fc.oneof(
  predicate,
  predicate,
  predicate.map((p) => `[ sh:inversePath ${p} ]`),
  fc.tuple(predicate, predicate).map(([a, b]) => `[ sh:alternativePath ( ${a} ${b} ) ]`),
  predicate.map((p) => `[ sh:zeroOrMorePath ${p} ]`),
  predicate.map((p) => `[ sh:oneOrMorePath ${p} ]`),
  predicate.map((p) => `[ sh:zeroOrOnePath ${p} ]`),
);

/**
 * A path in Turtle: a step or a sequence of steps (shacl-engine reads a path as such a sequence: a sequence
 * inside a sequence or an alternative is not compared here; the W3C suite has them). Not generated either: a repeated
 * inverse path or an inverse alternative path, which shacl-engine 1.1.2 follows forwards (docs/validation.md; engine.test.ts checks ours).
 */
const path: fc.Arbitrary<string> = fc.oneof(
  step,
  fc.array(step, { minLength: 2, maxLength: 3 }).map((xs) => `( ${xs.join(' ')} )`),
);

/** Constraints of a shape (`ref`: names of shapes it may refer to). */
function constraint(refs: readonly string[], property: boolean): fc.Arbitrary<string> {
  const shapeRef = refs.length ? fc.constantFrom(...refs) : fc.constant('[ sh:nodeKind sh:IRI ]');
  const list = (a: fc.Arbitrary<string>) =>
    fc.array(a, { minLength: 1, maxLength: 3 }).map((xs) => `( ${xs.join(' ')} )`);
  const options: fc.Arbitrary<string>[] = [
    cls.map((c) => `sh:class ${c}`),
    fc
      .constantFrom('xsd:integer', 'xsd:string', 'rdf:langString', 'xsd:date', 'xsd:boolean', 'ex:dt', 'xsd:decimal')
      .map((d) => `sh:datatype ${d}`),
    fc
      .constantFrom('IRI', 'BlankNode', 'Literal', 'BlankNodeOrIRI', 'BlankNodeOrLiteral', 'IRIOrLiteral')
      .map((k) => `sh:nodeKind sh:${k}`),
    // No string bound: shacl-engine orders a language-tagged string and a plain one by their text, SPARQL not at all (docs/validation.md).
    fc
      .constantFrom('minExclusive', 'minInclusive', 'maxExclusive', 'maxInclusive')
      .chain((k) => fc.constantFrom('1', '2', '"2020-06-01"^^xsd:date').map((v) => `sh:${k} ${v}`)),
    fc.tuple(fc.constantFrom('minLength', 'maxLength'), fc.integer({ min: 0, max: 4 })).map(([k, n]) => `sh:${k} ${n}`),
    fc
      .tuple(
        // No pattern matches a blank node's label: shacl-engine matches it where SHACL reports any blank node (docs/validation.md).
        fc.constantFrom('^a', 'c', '^[0-9]+$', 'X'),
        fc.boolean(),
      )
      .map(([p, i]) => `sh:pattern "${p}"${i ? ' ; sh:flags "i"' : ''}`),
    // No "*" nor "EN": SHACL matches ranges with SPARQL's langMatches ("*": any tag; case-insensitive), shacl-engine
    // compares the strings (docs/validation.md).
    list(fc.constantFrom('"en"', '"de"', '"en-gb"')).map((l) => `sh:languageIn ${l}`),
    list(object).map((l) => `sh:in ${l}`),
    object.map((o) => `sh:hasValue ${o}`),
    predicate.map((p) => `sh:disjoint ${p}`),
    shapeRef.map((s) => `sh:node ${s}`),
    shapeRef.map((s) => `sh:not ${s}`),
    // A shape once a list: shacl-engine, meeting a shape again on the same node, repeats only part of what it found (docs/validation.md).
    fc
      .constantFrom('and', 'or', 'xone')
      .chain((k) => fc.uniqueArray(shapeRef, { minLength: 1, maxLength: 3 }).map((l) => `sh:${k} ( ${l.join(' ')} )`)),
    fc
      .tuple(
        path,
        fc.array(
          fc.constantFrom(
            'sh:minCount 1',
            'sh:maxCount 1',
            'sh:datatype xsd:integer',
            'sh:nodeKind sh:Literal',
            'sh:class ex:A',
          ),
          { minLength: 1, maxLength: 2 },
        ),
      )
      .map(([p, cs]) => `sh:property [ sh:path ${p} ; ${cs.join(' ; ')} ]`),
    fc
      .tuple(fc.boolean(), fc.array(predicate, { maxLength: 2 }))
      .map(([ignore, ps]) => `sh:closed true${ignore ? ` ; sh:ignoredProperties ( rdf:type ${ps.join(' ')} )` : ''}`),
  ];
  if (property) {
    options.push(
      fc.tuple(fc.constantFrom('minCount', 'maxCount'), fc.integer({ min: 0, max: 3 })).map(([k, n]) => `sh:${k} ${n}`),
      fc.constant('sh:uniqueLang true'),
      // sh:equals on a node shape: shacl-engine does not report the focus node missing from the values (docs/validation.md).
      predicate.map((p) => `sh:equals ${p}`),
      fc.constantFrom('lessThan', 'lessThanOrEquals').chain((k) => predicate.map((p) => `sh:${k} ${p}`)),
      fc
        .tuple(
          shapeRef,
          fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
          fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
        )
        .map(
          ([s, min, max]) =>
            `sh:qualifiedValueShape ${s}${min !== undefined ? ` ; sh:qualifiedMinCount ${min}` : ''}${max !== undefined || min === undefined ? ` ; sh:qualifiedMaxCount ${max ?? 1}` : ''}`,
        ),
    );
  }
  return fc.oneof(...options);
}

/** A shapes graph: up to four shapes, each referring only to those after it (no recursion). */
const shapesGraph: fc.Arbitrary<string> = fc.integer({ min: 1, max: 4 }).chain((count) =>
  fc
    .tuple(
      ...Array.from({ length: count }, (_, i) => {
        const refs = Array.from({ length: count - i - 1 }, (_unused, j) => `ex:S${i + j + 1}`);
        return fc.record({
          path: fc.option(path, { nil: undefined, freq: 2 }),
          constraints: fc
            .boolean()
            .chain((property) =>
              fc.array(constraint(refs, property), { minLength: 1, maxLength: 3 }).map((cs) => ({ property, cs })),
            ),
          target: fc.option(
            fc.oneof(
              cls.map((c) => `sh:targetClass ${c}`),
              node.filter((n) => !n.startsWith('_')).map((n) => `sh:targetNode ${n}`),
              predicate.map((p) => `sh:targetSubjectsOf ${p}`),
              predicate.map((p) => `sh:targetObjectsOf ${p}`),
            ),
            { nil: undefined, freq: 3 },
          ),
          severity: fc.option(fc.constantFrom('sh:Warning', 'sh:Info'), { nil: undefined, freq: 4 }),
          deactivated: fc.boolean().map((d) => d && Math.random() < 0), // never: below, a separate flag
          off: fc.integer({ min: 0, max: 9 }),
          message: fc.option(fc.constantFrom('"custom"', '"custom {$minCount}"@en'), { nil: undefined, freq: 4 }),
        });
      }),
    )
    .map((shapes) =>
      shapes
        .map((s, i) => {
          // A parameter once a shape (SHACL allows most only once), and a node shape without the property-only ones.
          const firsts = new Set<string>();
          // A closed shape's property shapes have a predicate for a path: shacl-engine allows the first predicate of any
          // path, SHACL only a path that is a predicate (docs/validation.md).
          const closed = s.constraints.cs.some((c) => c.startsWith('sh:closed'));
          // sh:closed on a property shape: shacl-engine ignores it (docs/validation.md).
          const cs = (
            s.path
              ? s.constraints.cs.filter((c) => !c.startsWith('sh:closed'))
              : s.constraints.cs.filter((c) => !/^sh:(minCount|maxCount|uniqueLang|lessThan|qualified|equals)/.test(c))
          ).filter((c) => {
            const name = c.split(' ')[0]!;
            if (closed && /^sh:property \[ sh:path [[(]/.test(c)) return false;
            if (firsts.has(name)) return false;
            firsts.add(name);
            return true;
          });
          const parts = [
            s.path ? `sh:path ${s.path}` : 'a sh:NodeShape',
            // Targets on the first shape only: shacl-engine validates a shape once per focus node, and a shape checked
            // inside another (sh:node, sh:and...) before its own target is reached reports nothing there (docs/validation.md).
            ...(i === 0 ? [s.target ?? 'sh:targetSubjectsOf ex:p'] : []),
            ...(cs.length ? cs : ['sh:nodeKind sh:BlankNodeOrIRI']),
            ...(s.severity ? [`sh:severity ${s.severity}`] : []),
            ...(s.off === 0 ? ['sh:deactivated true'] : []),
            ...(s.message ? [`sh:message ${s.message}`] : []),
          ];
          return `ex:S${i} ${parts.join(' ;\n  ')} .`;
        })
        .join('\n'),
    ),
);

/** A record: a few triples among a few nodes. */
const record: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.tuple(node, predicate, object).map(([s, p, o]) => `${s} ${p} ${o} .`),
      fc.tuple(node, cls).map(([s, c]) => `${s} a ${c} .`),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((lines) => `${lines.join('\n')}\n${Math.random() < 0 ? '' : 'ex:B rdfs:subClassOf ex:A .'}`);

function parse(text: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(PREFIXES + text);
}

const key = (t: RDF.Term | undefined) =>
  !t
    ? '-'
    : t.termType === 'Literal'
      ? `${JSON.stringify(t.value)}@${t.language}^^${t.datatype.value}`
      : `${t.termType[0]}${t.value}`;

function stepText(s: PathStep): string {
  let base = s.predicates.length > 1 ? `[alt ${s.predicates.map(key).join(' ')}]` : key(s.predicates[0]);
  if (s.inverse) base = `[inv ${base}]`;
  return s.quantifier === 'one' ? base : `[${s.quantifier} ${base}]`;
}

function oursLine(r: ValidationResult): string {
  const path = r.resultPath
    ? r.resultPath.length === 1
      ? stepText(r.resultPath[0]!)
      : `(${r.resultPath.map(stepText).join(' ')})`
    : '-';
  const severity = r.severity.startsWith('<') ? r.severity.slice(1, -1) : SH + r.severity;
  return [
    key(r.focusNode),
    path,
    key(r.value),
    severity,
    key(r.shape),
    key(r.constraintComponent),
    JSON.stringify(r.message === 'does not conform' ? '' : r.message),
  ].join(' ');
}

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
  const list = (head: RDF.Term): RDF.Term[] => {
    const out: RDF.Term[] = [];
    for (
      let cell: RDF.Term | undefined = head;
      cell && cell.value !== `${RDF_NS}nil`;
      cell = one(cell, `${RDF_NS}rest`)
    )
      out.push(one(cell, `${RDF_NS}first`)!);
    return out;
  };
  const step = (t: RDF.Term): string => {
    if (t.termType === 'NamedNode') return key(t);
    const inv = one(t, `${SH}inversePath`);
    if (inv) return `[inv ${step(inv)}]`;
    const alt = one(t, `${SH}alternativePath`);
    if (alt) return `[alt ${list(alt).map(key).join(' ')}]`;
    for (const q of ['zeroOrMore', 'oneOrMore', 'zeroOrOne']) {
      const inner = one(t, `${SH}${q}Path`);
      if (inner) return `[${q} ${step(inner)}]`;
    }
    return '?';
  };
  const pathText = (t: RDF.Term | undefined) =>
    !t ? '-' : t.termType === 'BlankNode' && one(t, `${RDF_NS}first`) ? `(${list(t).map(step).join(' ')})` : step(t);
  return store.getObjects(null, DataFactory.namedNode(`${SH}result`), null).map((r) =>
    [
      key(one(r, `${SH}focusNode`)),
      pathText(one(r, `${SH}resultPath`)),
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
