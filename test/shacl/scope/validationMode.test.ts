import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/CliContext.js';
import { run } from '../../../src/cli/main.js';
import { failsOn, runVerdict, severitiesFound } from '../../../src/shacl/scope/validationMode.js';
import { validateDump } from '../../../src/tasks/validateDump.js';
import { fixtureText } from '../shapeCases.js';
import { runCli } from '../../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'validation-mode-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (argv: string[]) => runCli(argv, { cwd: dir, stdin: '' });

const DATA = '<https://doi.org/10.5555/a> <http://purl.org/ontology/bibo/doi> "10.5555/a" .\n';
/** Shapes whose only result on DATA has the given severity (a missing schema:name). */
const shapesWith = (severity: string) => `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/ns#> .
ex:S a sh:NodeShape ; sh:targetSubjectsOf <http://purl.org/ontology/bibo/doi> ;
  sh:property [ sh:path <http://schema.org/name> ; sh:minCount 1 ; sh:severity ${severity} ] .
`;

describe('the meaning of results (SHACL): sh:conforms, severities, --fail-on', () => {
  it('a warnings-only dump does not conform (report sh:conforms false), exits 0 by default and 1 with --fail-on warning', async () => {
    writeFileSync(join(dir, 'w.nt'), DATA);
    writeFileSync(join(dir, 'w.ttl'), shapesWith('sh:Warning'));
    const lib = await validateDump({ files: ['w.nt'], shapesDir: 'w.ttl', cwd: dir, reportPath: 'w.report.ttl' });
    expect(lib).toMatchObject({ conforms: false, failed: false, severities: ['Warning'] });
    expect(readFileSync(join(dir, 'w.report.ttl'), 'utf8')).toContain('sh:conforms false');
    const byDefault = await cli(['validate', 'w.nt', '--shapes', 'w.ttl']);
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout).toContain('violations: 0, warnings: 1');
    expect((await cli(['validate', 'w.nt', '--shapes', 'w.ttl', '--fail-on', 'warning'])).code).toBe(1);
    expect((await cli(['validate', 'w.nt', '--shapes', 'w.ttl', '--fail-on', 'info'])).code).toBe(1);
  });

  it('infos fail only with --fail-on info', async () => {
    writeFileSync(join(dir, 'i.nt'), DATA);
    writeFileSync(join(dir, 'i.ttl'), shapesWith('sh:Info'));
    expect((await cli(['validate', 'i.nt', '--shapes', 'i.ttl', '--fail-on', 'warning'])).code).toBe(0);
    const info = await cli(['validate', 'i.nt', '--shapes', 'i.ttl', '--fail-on', 'info']);
    expect(info.code).toBe(1);
    expect(info.stdout).toContain('violations: 0, warnings: 0, infos: 1');
  });

  it("keeps a severity of the shapes' own as given (never sh:Violation), and fails on it whatever --fail-on says", async () => {
    writeFileSync(join(dir, 'c.nt'), DATA);
    writeFileSync(join(dir, 'c.ttl'), shapesWith('ex:Minor'));
    const r = await cli(['validate', 'c.nt', '--shapes', 'c.ttl', '--report', 'c.report.ttl']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('violations: 0, warnings: 0, results of other severities: 1');
    expect(r.stdout).toMatch(/<http:\/\/example\.org\/ns#Minor>\s+1 in\s+1 record\(s\)/);
    const report = readFileSync(join(dir, 'c.report.ttl'), 'utf8');
    expect(report).toContain('sh:resultSeverity <http://example.org/ns#Minor>');
    expect(report).not.toContain('sh:Violation');
    const lib = await validateDump({ files: ['c.nt'], shapesDir: 'c.ttl', cwd: dir });
    expect(lib).toMatchObject({ conforms: false, failed: true, severities: ['<http://example.org/ns#Minor>'] });
  });

  it('refuses a --fail-on or --mode it does not know', async () => {
    writeFileSync(join(dir, 'u.nt'), DATA);
    const failOn = await cli(['validate', 'u.nt', '--fail-on', 'error']);
    expect(failOn.code).toBe(2);
    expect(failOn.stderr).toContain('--fail-on must be violation, warning, info, not error');
    const mode = await cli(['validate', 'u.nt', '--mode', 'fast']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--mode must be auto, record or graph, not fast');
  });

  it('counts severities, most severe first, and fails a run as asked', () => {
    const counts = {
      violations: 0,
      warnings: 2,
      infos: 1,
      others: 1,
      otherSeverities: new Set(['<urn:x:Minor>' as const]),
    };
    expect(severitiesFound(counts)).toEqual(['<urn:x:Minor>', 'Warning', 'Info']);
    expect(failsOn('violation', { ...counts, others: 0, otherSeverities: new Set() })).toBe(false);
    expect(failsOn('violation', counts)).toBe(true);
    const clean = {
      violations: 0,
      warnings: 0,
      infos: 0,
      others: 0,
      otherSeverities: new Set<never>(),
      records: 3,
      otherGroups: 0,
      splitRecords: 0,
      notExact: [],
    };
    expect(runVerdict(clean, 'info')).toEqual({ conforms: true, failed: false, severities: [] });
    expect(runVerdict({ ...clean, records: 0 }, 'violation')).toMatchObject({ conforms: true, failed: false }); // an empty graph conforms (SHACL, Jena)
    expect(runVerdict({ ...clean, splitRecords: 1 }, 'violation')).toMatchObject({ conforms: false, failed: true });
    expect(runVerdict({ ...clean, notExact: ['x'] }, 'violation')).toMatchObject({ conforms: false, failed: true });
  });
});

describe('record by record or the whole graph (--mode)', () => {
  it('says which mode runs and why, on standard error (not with -q)', async () => {
    writeFileSync(join(dir, 'full.ttl'), fixtureText('full-records.ttl'));
    const r = await cli(['validate', 'full.ttl']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^validated record by record: the shapes read only what a record holds/m);
    const graph = await cli(['validate', 'full.ttl', '--mode', 'graph']);
    expect(graph.stderr).toContain('validated as one graph in memory: asked for (--mode graph)');
    expect(graph.stdout.split('\n').slice(0, 2)).toEqual(r.stdout.split('\n').slice(0, 2));
    expect((await cli(['validate', 'full.ttl', '--quiet'])).stderr).toBe('');
  });

  it('gives the same summary for the broken records as one graph as record by record', async () => {
    writeFileSync(join(dir, 'broken.ttl'), fixtureText('broken-records.ttl'));
    const records = await cli(['validate', 'broken.ttl', '--report', 'r1.ttl']);
    const graph = await cli(['validate', 'broken.ttl', '--mode', 'graph', '--report', 'r2.ttl']);
    expect(graph.code).toBe(records.code);
    expect(graph.stdout.split('\n').slice(0, 2)).toEqual(records.stdout.split('\n').slice(0, 2));
    const results = (f: string) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.includes('sh:sourceShape'))
        .sort();
    expect(results('r2.ttl')).toEqual(results('r1.ttl'));
  });

  it('validates stdin record by record, and fails when a record was not enough (stdin cannot be read twice)', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    stderr.on('data', () => undefined);
    const stdin = new PassThrough();
    // a names b's node through ex:cites, which the shapes read (sh:class).
    stdin.end(
      '<https://doi.org/10.5555/a> <http://example.org/ns#cites> <https://doi.org/10.5555/b> .\n<https://doi.org/10.5555/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/ScholarlyArticle> .\n',
    );
    writeFileSync(
      join(dir, 'cites.ttl'),
      '@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:x:S> sh:targetSubjectsOf <http://example.org/ns#cites> ; sh:property [ sh:path <http://example.org/ns#cites> ; sh:class <http://schema.org/ScholarlyArticle> ] .\n',
    );
    const code = await run(['validate', '-', '--input-format', 'nt', '--shapes', 'cites.ttl'], {
      stdin,
      stdout,
      stderr,
      env: {},
      cwd: dir,
      stderrIsTTY: false,
    } as CliIo);
    expect(code).toBe(1);
    expect(out).toMatch(
      /error: record by record, the results may differ from SHACL on the whole graph: record 10\.5555\/a: .*a node of record 10\.5555\/b; validate with --mode graph/,
    );
  });
});
