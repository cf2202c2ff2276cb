// The W3C SHACL Core test suite (test/spec/shacl-core/, with its LICENSE.md) through the SHACL Core engine of our
// own (src/shacl/engine/), directly: each test's shapes graph compiled, its data graph validated as one record,
// and the results compared with the expected report as a multiset (focus node, path, value, severity, source
// shape, constraint component; not the messages), and sh:conforms. Every test of the suite runs; those known to
// fail are listed in KNOWN_FAILURES with the reason, and the test fails when one of them passes.
import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { CoreEngine } from '../../../src/shacl/engine/CoreEngine.js';
import { TermInterner } from '../../../src/shacl/engine/TermInterner.js';
import type { PathStep, ValidationResult } from '../../../src/shacl/reports/ValidationResult.js';

const SUITE = fileURLToPath(new URL('../../spec/shacl-core/', import.meta.url));
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';
const SH = 'http://www.w3.org/ns/shacl#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** Tests of the suite the engine fails, with the reason (see docs/validation.md). */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

function parse(file: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle', baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8'));
}

function reader(quads: RDF.Quad[]) {
  const out = (s: RDF.Term, p: string) =>
    quads.filter((q) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);
  const list = (head: RDF.Term): RDF.Term[] => {
    const items: RDF.Term[] = [];
    for (
      let cell: RDF.Term | undefined = head;
      cell && cell.value !== `${RDF_NS}nil`;
      cell = out(cell, `${RDF_NS}rest`)[0]
    )
      items.push(out(cell, `${RDF_NS}first`)[0]!);
    return items;
  };
  return { out, list };
}

interface SpecTest {
  name: string;
  data: string;
  shapes: string;
  conforms: boolean;
  results: string[];
}

const term = (t: RDF.Term | undefined) =>
  !t
    ? '-'
    : t.termType === 'BlankNode'
      ? '_'
      : t.termType === 'Literal'
        ? JSON.stringify([t.value, t.language, t.datatype.value])
        : `<${t.value}>`;

function testsOf(manifest: string): SpecTest[] {
  const quads = parse(manifest);
  const { out, list } = reader(quads);
  const path = (t: RDF.Term | undefined): string => {
    if (!t) return '-';
    if (t.termType !== 'BlankNode') return term(t);
    if (out(t, `${RDF_NS}first`).length) return `(${list(t).map(path).join(' / ')})`;
    for (const p of ['inversePath', 'alternativePath', 'zeroOrMorePath', 'oneOrMorePath', 'zeroOrOnePath']) {
      const inner = out(t, SH + p)[0];
      if (inner)
        return p === 'alternativePath' ? `[alt ${list(inner).map(path).join(' | ')}]` : `[${p} ${path(inner)}]`;
    }
    return '?';
  };
  const tests: SpecTest[] = [];
  for (const q of quads) {
    if (q.predicate.value === `${MF}include`) tests.push(...testsOf(fileURLToPath(q.object.value)));
    if (q.predicate.value !== `${MF}entries`) continue;
    for (const entry of list(q.object)) {
      if (!out(entry, `${RDF_NS}type`).some((t) => t.value === `${SHT}Validate`)) continue;
      const action = out(entry, `${MF}action`)[0]!;
      const report = out(entry, `${MF}result`)[0]!;
      const results = out(report, `${SH}result`).map((r) =>
        [
          out(r, `${SH}focusNode`)[0],
          undefined,
          out(r, `${SH}value`)[0],
          out(r, `${SH}resultSeverity`)[0],
          out(r, `${SH}sourceShape`)[0],
          out(r, `${SH}sourceConstraintComponent`)[0],
        ]
          .map((t, i) => (i === 1 ? path(out(r, `${SH}resultPath`)[0]) : term(t)))
          .join(' '),
      );
      tests.push({
        name: relative(SUITE, fileURLToPath(entry.value)),
        data: fileURLToPath(out(action, `${SHT}dataGraph`)[0]!.value),
        shapes: fileURLToPath(out(action, `${SHT}shapesGraph`)[0]!.value),
        conforms: out(report, `${SH}conforms`)[0]?.value === 'true',
        results: results.sort(),
      });
    }
  }
  return tests;
}

function stepText(s: PathStep): string {
  let base = s.predicates.length > 1 ? `[alt ${s.predicates.map((p) => term(p)).join(' | ')}]` : term(s.predicates[0]);
  if (s.inverse) base = `[inversePath ${base}]`;
  return s.quantifier === 'one' ? base : `[${s.quantifier}Path ${base}]`;
}

function resultText(r: ValidationResult): string {
  const path = r.resultPath
    ? r.resultPath.length === 1
      ? stepText(r.resultPath[0]!)
      : `(${r.resultPath.map(stepText).join(' / ')})`
    : '-';
  const severity = r.severity.startsWith('<') ? r.severity : `<${SH}${r.severity}>`;
  return [term(r.focusNode), path, term(r.value), severity, term(r.shape), term(r.constraintComponent)].join(' ');
}

/** The engine's results for a test (its data graph as one record). */
function validate(test: SpecTest): { conforms: boolean; results: string[] } {
  const engine = CoreEngine.compile(parse(test.shapes));
  const interner = new TermInterner(engine.interner);
  const seen = new Set<RDF.Quad>();
  const triples: RDF.Quad[] = [];
  for (const q of parse(test.data)) {
    const t = interner.quad(q, true);
    const key = `${(t.subject as unknown as { key: string }).key} ${(t.predicate as unknown as { key: string }).key} ${(t.object as unknown as { key: string }).key}`;
    if (seen.has(key as unknown as RDF.Quad)) continue;
    seen.add(key as unknown as RDF.Quad);
    triples.push(t);
  }
  const results = engine.validateTriples(triples);
  return { conforms: results.length === 0, results: results.map(resultText).sort() };
}

const tests = testsOf(`${SUITE}manifest.ttl`);

describe('W3C SHACL Core test suite through the engine of our own', () => {
  it('has the 98 tests of the suite', () => {
    expect(tests.length).toBe(98);
  });
  for (const test of tests) {
    it(test.name, () => {
      const got = validate(test);
      const passed = got.conforms === test.conforms && JSON.stringify(got.results) === JSON.stringify(test.results);
      if (KNOWN_FAILURES[test.name])
        expect(passed, `${test.name} passes now: remove it from KNOWN_FAILURES`).toBe(false);
      else expect(got).toEqual({ conforms: test.conforms, results: test.results });
    });
  }
});
