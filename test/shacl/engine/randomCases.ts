// Random SHACL Core shapes graphs and records, in Turtle, for the differential tests of the engine of our own
// (randomShapes.test.ts: against shacl-engine; test/integration/shaclJena.test.ts: against Apache Jena), and our
// results as comparable lines.
import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { DataFactory, Parser, Store } from 'n3';
import type { PathStep, ValidationResult } from '../../../src/shacl/reports/ValidationResult.js';

export const SH = 'http://www.w3.org/ns/shacl#';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const PREFIXES =
  '@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://ex/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';

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
export const shapesGraph: fc.Arbitrary<string> = fc.integer({ min: 1, max: 4 }).chain((count) =>
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
export const record: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.tuple(node, predicate, object).map(([s, p, o]) => `${s} ${p} ${o} .`),
      fc.tuple(node, cls).map(([s, c]) => `${s} a ${c} .`),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((lines) => `${lines.join('\n')}\n${Math.random() < 0 ? '' : 'ex:B rdfs:subClassOf ex:A .'}`);

export function parse(text: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(PREFIXES + text);
}

export const key = (t: RDF.Term | undefined) =>
  !t
    ? '-'
    : t.termType === 'Literal'
      ? `${JSON.stringify(t.value)}@${t.language}^^${t.datatype.value}`
      : `${t.termType[0]}${t.value}`;

export function stepText(s: PathStep): string {
  let base = s.predicates.length > 1 ? `[alt ${s.predicates.map(key).join(' ')}]` : key(s.predicates[0]);
  if (s.inverse) base = `[inv ${base}]`;
  return s.quantifier === 'one' ? base : `[${s.quantifier} ${base}]`;
}

/** A result's fields as the differential tests compare them: focus node, result path, value, severity, source shape, component, message (terms written by `term`). */
export function resultFields(r: ValidationResult, term: (t: RDF.Term | undefined) => string = key): string[] {
  const path = r.resultPath
    ? r.resultPath.length === 1
      ? stepText(r.resultPath[0]!)
      : `(${r.resultPath.map(stepText).join(' ')})`
    : '-';
  const severity = r.severity.startsWith('<') ? r.severity.slice(1, -1) : SH + r.severity;
  return [
    term(r.focusNode),
    path,
    term(r.value),
    severity,
    term(r.shape),
    key(r.constraintComponent),
    JSON.stringify(r.message === 'does not conform' ? '' : r.message),
  ];
}

export function oursLine(r: ValidationResult): string {
  return resultFields(r).join(' ');
}

/** The members of an RDF list in a store. */
export function storeList(store: Store, head: RDF.Term): RDF.Term[] {
  const out: RDF.Term[] = [];
  const one = (s: RDF.Term, p: string) => store.getObjects(s, DataFactory.namedNode(p), null)[0];
  for (let cell: RDF.Term | undefined = head; cell && cell.value !== `${RDF_NS}nil`; cell = one(cell, `${RDF_NS}rest`))
    out.push(one(cell, `${RDF_NS}first`)!);
  return out;
}

/** A report's result path (in `store`) as {@link resultFields} writes ours; nested sequences flattened (Jena writes `((a b) c)` for `a b c`). */
export function reportPath(store: Store, t: RDF.Term | undefined): string {
  if (!t) return '-';
  const one = (s: RDF.Term, p: string) => store.getObjects(s, DataFactory.namedNode(p), null)[0];
  const step = (t: RDF.Term): string => {
    if (t.termType === 'NamedNode') return key(t);
    const inv = one(t, `${SH}inversePath`);
    if (inv) return `[inv ${step(inv)}]`;
    const alt = one(t, `${SH}alternativePath`);
    if (alt) return `[alt ${storeList(store, alt).map(key).join(' ')}]`;
    for (const q of ['zeroOrMore', 'oneOrMore', 'zeroOrOne']) {
      const inner = one(t, `${SH}${q}Path`);
      if (inner) return `[${q} ${step(inner)}]`;
    }
    return '?';
  };
  const steps = (t: RDF.Term): string[] =>
    t.termType === 'BlankNode' && one(t, `${RDF_NS}first`) ? storeList(store, t).flatMap(steps) : [step(t)];
  const all = steps(t);
  return all.length === 1 ? all[0]! : `(${all.join(' ')})`;
}
