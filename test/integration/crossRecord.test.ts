// Shapes that reach across records (issue 19), checked against Apache Jena's SHACL (scripts/jena.sh shacl
// validate, Jena 4.5) on the whole graph: for each case of test/shacl/crossRecordCases.ts, `scholarly-rdf
// validate --report` (the CLI, in process, and its worker threads from dist/) and validateDump (the library)
// give Jena's conformance, result count and results (focus node, shape, path, severity, value). Also the
// severities: a warnings-only dump is sh:conforms false for both, and exits 0 unless --fail-on warning.
import type * as RDF from '@rdfjs/types';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateDump } from '../../src/tasks/validateDump.js';
import { CROSS_RECORD_CASES } from '../shacl/crossRecordCases.js';
import { jenaShacl, needTools, runCli } from './helpers.js';

const SH = 'http://www.w3.org/ns/shacl#';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cross-record-int-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** sh:conforms and the results of a report as comparable strings (blank nodes as `_`, paths by their predicates). */
function readReport(text: string): { conforms: boolean; results: string[] } {
  const quads = new Parser({ format: 'text/turtle' }).parse(text);
  const one = (s: RDF.Term, p: string) => quads.find((q) => q.subject.equals(s) && q.predicate.value === p)?.object;
  const term = (t: RDF.Term | undefined): string => {
    if (!t) return '-';
    if (t.termType !== 'BlankNode') return t.termType === 'Literal' ? JSON.stringify(t.value) : `<${t.value}>`;
    // A path node: its predicates (an inverse path as ^p).
    const inverse = one(t, `${SH}inversePath`);
    return inverse ? `^${term(inverse)}` : '_';
  };
  const report = quads.find((q) => q.object.value === `${SH}ValidationReport`)!.subject;
  const results = quads
    .filter((q) => q.subject.equals(report) && q.predicate.value === `${SH}result`)
    .map((q) =>
      [`${SH}focusNode`, `${SH}sourceShape`, `${SH}resultPath`, `${SH}resultSeverity`, `${SH}value`]
        .map((p) => term(one(q.object, p)))
        .join(' '),
    );
  return { conforms: one(report, `${SH}conforms`)!.value === 'true', results: results.sort() };
}

describe.runIf(needTools('jena'))('shapes that reach across records: ours and Jena on the whole graph agree', () => {
  CROSS_RECORD_CASES.forEach((c, i) => {
    it(`${c.name} (${c.mode} mode)`, async () => {
      const data = join(dir, `case-${i}.nt`);
      const shapes = join(dir, `case-${i}.shapes.ttl`);
      writeFileSync(data, c.data);
      writeFileSync(shapes, c.shapes);
      const jena = readReport((await jenaShacl(shapes, data)).report);
      expect({ conforms: jena.conforms, results: jena.results.length }).toEqual(c.expected);
      for (const jobs of ['1', '2']) {
        const report = join(dir, `case-${i}.j${jobs}.report.ttl`);
        const r = await runCli(['validate', data, '--shapes', shapes, '--report', report, '--jobs', jobs]);
        expect(r.exitCode, r.stderr).toBe(c.expected.conforms ? 0 : 1);
        expect(r.stderr).toContain(
          c.mode === 'record' ? 'validated record by record' : 'validated as one graph in memory',
        );
        const ours = readReport(readFileSync(report, 'utf8'));
        // Blank-node shapes are compared as `_` in both.
        expect(ours).toEqual(jena);
      }
      const lib = await validateDump({ files: [data], shapesDir: shapes });
      expect({ conforms: lib.conforms, results: lib.summary.violations, mode: lib.mode.mode }).toEqual({
        ...c.expected,
        mode: c.mode,
      });
    });
  });

  it('a warnings-only dump: sh:conforms false in both reports; exit 0 by default, 1 with --fail-on warning', async () => {
    const data = join(dir, 'warn.nt');
    const shapes = join(dir, 'warn.shapes.ttl');
    writeFileSync(data, '<https://doi.org/10.5555/a> <http://purl.org/ontology/bibo/doi> "10.5555/a" .\n');
    writeFileSync(
      shapes,
      '@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:x:S> sh:targetSubjectsOf <http://purl.org/ontology/bibo/doi> ; sh:property [ sh:path <http://schema.org/name> ; sh:minCount 1 ; sh:severity sh:Warning ] .\n',
    );
    const jena = readReport((await jenaShacl(shapes, data)).report);
    const report = join(dir, 'warn.report.ttl');
    const r = await runCli(['validate', data, '--shapes', shapes, '--report', report]);
    expect(r.exitCode).toBe(0);
    expect(readReport(readFileSync(report, 'utf8'))).toEqual(jena);
    expect(jena.conforms).toBe(false);
    expect((await runCli(['validate', data, '--shapes', shapes, '--fail-on', 'warning'])).exitCode).toBe(1);
  });
});
