import type * as RDF from '@rdfjs/types';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory, Parser, Store } from 'n3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Validator } from '../../src/shacl/shaclEngine/shaclEngine.js';
import { validateGraph } from '../../src/shacl/validateGraph.js';
import { validateDump } from '../../src/tasks/validateDump.js';
import { CROSS_RECORD_CASES, type CrossRecordCase } from './crossRecordCases.js';

// validateGraph as it is, its calls counted (the whole graph read again, or not).
vi.mock('../../src/shacl/validateGraph.js', async (original) => {
  const actual = await original<typeof import('../../src/shacl/validateGraph.js')>();
  return { ...actual, validateGraph: vi.fn(actual.validateGraph) };
});

const factory = DataFactory as unknown as RDF.DataFactory;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cross-record-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The case's files. */
function files(c: CrossRecordCase, i: number): { data: string; shapes: string } {
  const data = join(dir, `case-${i}.nt`);
  const shapes = join(dir, `case-${i}.shapes.ttl`);
  writeFileSync(data, c.data);
  writeFileSync(shapes, c.shapes);
  return { data, shapes };
}

/** shacl-engine as it comes, on the whole graph (the data's triples also in the shapes graph: it reads rdfs:subClassOf there). */
async function plainEngine(c: CrossRecordCase): Promise<{ conforms: boolean; results: number }> {
  const data = new Parser({ format: 'N-Triples' }).parse(c.data);
  const shapes = new Parser({ format: 'text/turtle' }).parse(c.shapes);
  const report = await new Validator(new Store([...shapes, ...data]), { factory }).validate({
    dataset: new Store(data),
  });
  return { conforms: report.conforms, results: report.results.length };
}

describe('shapes that reach across records: validate gives what SHACL gives on the whole graph', () => {
  CROSS_RECORD_CASES.forEach((c, i) => {
    it(`${c.name}: ${c.mode} mode, ${c.expected.results} result(s), as shacl-engine on the whole graph`, async () => {
      expect(await plainEngine(c)).toEqual(c.expected);
      const { data, shapes } = files(c, i);
      const reportPath = join(dir, `case-${i}.report.ttl`);
      const result = await validateDump({ files: [data], shapesDir: shapes, reportPath });
      expect(result.mode.mode).toBe(c.mode);
      expect({ conforms: result.conforms, results: result.reportResults }).toEqual(c.expected);
      expect(readFileSync(reportPath, 'utf8')).toContain(`sh:conforms ${c.expected.conforms}`);
      expect(result.failed).toBe(!c.expected.conforms);
      // In worker threads too (the built worker of dist/): the same answer.
      const parallel = await validateDump({ files: [data], shapesDir: shapes, jobs: 2 });
      expect({ conforms: parallel.conforms, mode: parallel.mode.mode, results: parallel.summary.violations }).toEqual({
        conforms: c.expected.conforms,
        mode: c.mode,
        results: c.expected.results,
      });
    });
  });

  it('says why it validates the whole graph: the shapes, or what a record named', async () => {
    const byShapes = CROSS_RECORD_CASES.findIndex((c) => c.name.startsWith('inverse path'));
    const shapesWhy = await validateDump({
      files: [files(CROSS_RECORD_CASES[byShapes]!, 100).data],
      shapesDir: files(CROSS_RECORD_CASES[byShapes]!, 100).shapes,
    });
    expect(shapesWhy.mode.why).toMatch(/^the shapes reach beyond a record: .*inverse path/);
    const byData = CROSS_RECORD_CASES.findIndex((c) => c.name.startsWith('sh:class on a node'));
    const dataWhy = await validateDump({
      files: [files(CROSS_RECORD_CASES[byData]!, 101).data],
      shapesDir: files(CROSS_RECORD_CASES[byData]!, 101).shapes,
    });
    expect(dataWhy.mode.why).toMatch(
      /record by record was not enough: record 10\.5555\/a: .*a node of record 10\.5555\/b/,
    );
  });

  it('validates record by record when asked, and says the results may differ', async () => {
    const c = CROSS_RECORD_CASES.find((x) => x.name.startsWith('sh:targetObjectsOf'))!;
    const { data, shapes } = files(c, 102);
    const result = await validateDump({ files: [data], shapesDir: shapes, mode: 'record' });
    expect(result.mode).toEqual({ mode: 'record', why: expect.stringMatching(/asked for .*results may differ/) });
    // Record by record, b's DOI is not in a's record: the false violation the whole graph does not have.
    expect(result.conforms).toBe(false);
  });

  it('keeps the record by record results, failing, when a record was not enough and the whole graph does not fit', async () => {
    const c = CROSS_RECORD_CASES.find((x) => x.name.startsWith('sh:class on a node'))!;
    const { data, shapes } = files(c, 104);
    const reportPath = join(dir, 'case-104.report.ttl');
    const result = await validateDump({ files: [data], shapesDir: shapes, reportPath, maxGraphTriples: 3 });
    expect(result).toMatchObject({ conforms: false, failed: true, mode: { mode: 'record' } });
    expect(result.summary.notExact).toEqual([
      expect.stringMatching(/^record 10\.5555\/a: .*a node of record 10\.5555\/b/),
      expect.stringMatching(/^record 10\.5555\/b: .*a node of record 10\.5555\/c/),
      'the whole graph holds more than 3 triples, too many to validate it in memory instead',
    ]);
    expect(result.summary.toLines().join('\n')).toMatch(
      /error: record by record, the results may differ from SHACL on the whole graph: .*; validate with `mode` graph/,
    );
    // The record by record report is there (the whole graph's, started aside, is gone).
    expect(readFileSync(reportPath, 'utf8')).toContain('sh:conforms false');
    expect(readdirSync(dir).filter((f) => f.includes('.graph-'))).toEqual([]);
  });

  it('reads the whole graph again only when the statements the record by record run counted fit in `maxGraphTriples`', async () => {
    const c = CROSS_RECORD_CASES.find((x) => x.name.startsWith('sh:class on a node'))!;
    const { data, shapes } = files(c, 105);
    const statements = new Parser({ format: 'N-Triples' }).parse(c.data).length;
    for (const jobs of [1, 2]) {
      const fits = await validateDump({ files: [data], shapesDir: shapes, maxGraphTriples: statements, jobs });
      expect(fits.mode.mode).toBe('graph');
      const calls = vi.mocked(validateGraph).mock.calls.length;
      const over = await validateDump({ files: [data], shapesDir: shapes, maxGraphTriples: statements - 1, jobs });
      expect(over.mode.mode).toBe('record');
      expect(vi.mocked(validateGraph).mock.calls.length).toBe(calls);
      expect(over.summary.notExact).toContain(
        `the whole graph holds more than ${statements - 1} triples, too many to validate it in memory instead`,
      );
    }
  });

  it('refuses a graph larger than `maxGraphTriples` when the whole graph is needed', async () => {
    const c = CROSS_RECORD_CASES.find((x) => x.name.startsWith('inverse path'))!;
    const { data, shapes } = files(c, 103);
    await expect(validateDump({ files: [data], shapesDir: shapes, maxGraphTriples: 3 })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/more than 3 triples.*`mode` record/),
    });
  });
});
