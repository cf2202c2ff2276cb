// The W3C SHACL core test suite (test/spec/shacl-core/, copied by scripts/fetchSpecSuites.sh; see its
// LICENSE.md) through `validate`'s library path: each test's data graph and shapes graph are files given
// to validateDump (the shapes loaded, analysed, the dump grouped, validated record by record or as one
// graph, the SHACL report written), and the report it writes is compared with the expected one: sh:conforms
// and the results (focus node, path, value, severity, source shape, constraint component; not the
// messages), as a multiset. Prints an EARL-like table of outcomes. Run with `npm run spec`.
import type * as RDF from '@rdfjs/types';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { validateDump } from '../../src/tasks/validateDump.js';

const SUITE = fileURLToPath(new URL('./shacl-core/', import.meta.url));
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';
const SH = 'http://www.w3.org/ns/shacl#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

interface SpecTest {
  /** The test's IRI, relative to the suite. */
  name: string;
  data: string;
  shapes: string;
  /** The expected report, from the manifest's graph. */
  expected: Report;
}

interface Report {
  conforms: boolean;
  results: string[];
}

/** A Turtle file's triples, with a helper to read objects. */
function graphOf(file: string): { quads: RDF.Quad[]; out: (s: RDF.Term, p: string) => RDF.Term[] } {
  const quads = new Parser({ format: 'text/turtle', baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8'));
  const out = (s: RDF.Term, p: string) => quads.filter((q) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);
  return { quads, out };
}

function list(out: (s: RDF.Term, p: string) => RDF.Term[], head: RDF.Term): RDF.Term[] {
  const items: RDF.Term[] = [];
  for (let cell: RDF.Term | undefined = head; cell && cell.value !== `${RDF_NS}nil`; cell = out(cell, `${RDF_NS}rest`)[0]) items.push(out(cell, `${RDF_NS}first`)[0]!);
  return items;
}

/** Every test of a manifest and the manifests it includes. */
function testsOf(manifest: string): SpecTest[] {
  const { quads, out } = graphOf(manifest);
  const tests: SpecTest[] = [];
  for (const q of quads) {
    if (q.predicate.value === `${MF}include`) tests.push(...testsOf(fileURLToPath(q.object.value)));
    if (q.predicate.value !== `${MF}entries`) continue;
    for (const entry of list(out, q.object)) {
      if (!out(entry, `${RDF_NS}type`).some((t) => t.value === `${SHT}Validate`)) continue;
      const action = out(entry, `${MF}action`)[0]!;
      const data = fileURLToPath(out(action, `${SHT}dataGraph`)[0]!.value);
      const shapes = fileURLToPath(out(action, `${SHT}shapesGraph`)[0]!.value);
      tests.push({ name: relative(SUITE, fileURLToPath(entry.value)), data, shapes, expected: reportOf(quads, out(entry, `${MF}result`)[0]!) });
    }
  }
  return tests;
}

/** A report node's sh:conforms and results as comparable strings (blank nodes as `_`). */
function reportOf(quads: RDF.Quad[], report: RDF.Term): Report {
  const out = (s: RDF.Term, p: string) => quads.filter((q) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);
  const term = (t: RDF.Term | undefined) => (!t ? '-' : t.termType === 'BlankNode' ? '_' : t.termType === 'Literal' ? JSON.stringify([t.value, t.language, t.datatype.value]) : `<${t.value}>`);
  const path = (t: RDF.Term | undefined): string => {
    if (!t) return '-';
    if (t.termType !== 'BlankNode') return term(t);
    if (out(t, `${RDF_NS}first`).length) return `(${list(out, t).map(path).join(' / ')})`;
    for (const p of ['inversePath', 'alternativePath', 'zeroOrMorePath', 'oneOrMorePath', 'zeroOrOnePath']) {
      const inner = out(t, SH + p)[0];
      if (inner) return p === 'alternativePath' ? `[alt ${list(out, inner).map(path).join(' | ')}]` : `[${p} ${path(inner)}]`;
    }
    return '?';
  };
  const conforms = out(report, `${SH}conforms`)[0]?.value === 'true';
  const results = out(report, `${SH}result`).map((r) =>
    [
      term(out(r, `${SH}focusNode`)[0]),
      path(out(r, `${SH}resultPath`)[0]),
      term(out(r, `${SH}value`)[0]),
      term(out(r, `${SH}resultSeverity`)[0]),
      term(out(r, `${SH}sourceShape`)[0]),
      term(out(r, `${SH}sourceConstraintComponent`)[0]),
    ].join(' '),
  );
  return { conforms, results: results.sort() };
}

/** The report that validateDump writes for a test (undefined and the error when it stops). */
async function ours(test: SpecTest, dir: string): Promise<Report & { mode: string }> {
  const reportPath = join(dir, `${test.name.replace(/[^A-Za-z0-9]/g, '_')}.report.ttl`);
  const result = await validateDump({ files: [test.data], shapesDir: test.shapes, reportPath, jobs: 1 });
  const { quads } = graphOf(reportPath);
  const report = quads.find((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${SH}ValidationReport`)!.subject;
  return { ...reportOf(quads, report), mode: result.mode.mode };
}

const tests = testsOf(join(SUITE, 'manifest.ttl'));
const outcomes: { name: string; passed: boolean; mode: string; why?: string }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'shacl-core-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  const passed = outcomes.filter((o) => o.passed).length;
  const width = Math.max(...outcomes.map((o) => o.name.length));
  const lines = [
    '',
    `EARL-like report: W3C SHACL core test suite through validateDump (${dirname(relative(process.cwd(), SUITE))}/shacl-core)`,
    `${'test'.padEnd(width)}  outcome      mode`,
    ...outcomes.map((o) => `${o.name.padEnd(width)}  ${o.passed ? 'earl:passed' : 'earl:failed'}  ${o.mode}${o.why ? `  ${o.why}` : ''}`),
    `SHACL core: ${passed}/${outcomes.length} passed`,
  ];
  console.log(lines.join('\n'));
});

describe('W3C SHACL core test suite through validateDump', () => {
  it('has the 98 tests of the suite, most of them expecting results', () => {
    expect(tests.length).toBe(98);
    expect(tests.filter((t) => t.expected.results.length > 0).length).toBeGreaterThan(80);
  });

  for (const test of tests) {
    it(test.name, async () => {
      let got: Awaited<ReturnType<typeof ours>>;
      try {
        got = await ours(test, dir);
      } catch (err) {
        outcomes.push({ name: test.name, passed: false, mode: '-', why: (err as Error).message.slice(0, 120) });
        throw err;
      }
      const passed = got.conforms === test.expected.conforms && JSON.stringify(got.results) === JSON.stringify(test.expected.results);
      outcomes.push({ name: test.name, passed, mode: got.mode });
      expect({ conforms: got.conforms, results: got.results }).toEqual(test.expected);
    });
  }
});
