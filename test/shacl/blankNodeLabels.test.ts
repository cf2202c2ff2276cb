import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShapes } from '../../src/shacl/loadShapes.js';
import { runCli } from '../helpers/cli.js';

// Shapes written as blank nodes, and data with blank nodes: their labels in a report are a function of the inputs,
// the same with one job or two, in record mode and in the whole graph (issue 37). Before, they were the labels n3
// happened to give in the thread that parsed them (`_:bn3_7` with one job, `_:bn3_1` with two).

const A = '<https://doi.org/10.5555/a>';
const B = '<https://doi.org/10.5555/b>';
const C = '<https://doi.org/10.5555/c>';
const TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const ARTICLE = '<http://schema.org/ScholarlyArticle>';
const ORG = '<http://schema.org/Organization>';
const S = (p: string) => `<http://schema.org/${p}>`;

/** Three records, each with a funder written as a blank node; a cites b (a node of another record) when `cites`. */
function data(cites: boolean): string {
  return [
    `${A} ${TYPE} ${ARTICLE} .`,
    `${A} ${S('funder')} _:fa .`,
    `_:fa ${TYPE} ${ORG} .`,
    ...(cites ? [`${A} ${S('citation')} ${B} .`] : []),
    `${B} ${TYPE} ${ARTICLE} .`,
    `${B} ${S('funder')} _:fb .`,
    `_:fb ${TYPE} ${ORG} .`,
    `_:fb ${S('name')} "Funder B" .`,
    `${C} ${TYPE} ${ARTICLE} .`,
    `${C} ${S('funder')} _:fc .`,
    `_:fc ${TYPE} ${ORG} .`,
    '',
  ].join('\n');
}

const PREFIXES = '@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix schema: <http://schema.org/> .\n';
/** Shapes that read only a record: anonymous ones, and a labelled property shape. */
const RECORD_SHAPES = `${PREFIXES}
[ a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ;
  sh:property [ sh:path schema:sponsor ; sh:minCount 1 ] ;
  sh:property [ sh:path schema:citation ; sh:class schema:Book ] ] .
[ a sh:NodeShape ; sh:targetClass schema:Organization ; sh:property _:named ] .
_:named sh:path schema:name ; sh:minCount 1 .
`;
/** The same, and an inverse path with sh:maxCount: the whole graph from the start in auto mode. */
const GRAPH_SHAPES = `${RECORD_SHAPES}
[ a sh:NodeShape ; sh:targetClass schema:ScholarlyArticle ;
  sh:property [ sh:path [ sh:inversePath schema:citation ] ; sh:maxCount 0 ] ] .
`;
/** Only the funders' names: every result's focus node a blank node of the data. */
const FUNDER_SHAPES = `${PREFIXES}
[ a sh:NodeShape ; sh:targetClass schema:Organization ; sh:property [ sh:path schema:name ; sh:minCount 1 ] ] .
`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'blank-labels-'));
  writeFileSync(join(dir, 'plain.nt'), data(false));
  writeFileSync(join(dir, 'cites.nt'), data(true));
  // In Turtle, parsed in this thread (not in the workers): the last funder written without a label.
  writeFileSync(
    join(dir, 'plain.ttl'),
    data(false).replace(
      `${C} ${S('funder')} _:fc .\n_:fc ${TYPE} ${ORG} .`,
      `${C} ${S('funder')} [ ${TYPE} ${ORG} ] .`,
    ),
  );
  writeFileSync(join(dir, 'record.shapes.ttl'), RECORD_SHAPES);
  writeFileSync(join(dir, 'graph.shapes.ttl'), GRAPH_SHAPES);
  writeFileSync(join(dir, 'funder.shapes.ttl'), FUNDER_SHAPES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (argv: string[]) => runCli(argv, { cwd: dir, stdin: '' });

/** `validate` with `jobs`: its report's text, its summary (the report's name and the workers' line aside) and its JSON (timing and jobs aside). */
async function validate(
  input: string,
  shapes: string,
  mode: string,
  jobs: number,
): Promise<{ report: string; summary: string; json: Record<string, unknown> }> {
  const report = join(dir, `report-${jobs}.ttl`);
  const args = ['validate', input, '--shapes', shapes, '--mode', mode, '--jobs', String(jobs)];
  const text = await cli([...args, '--report', report]);
  const json = await cli([...args, '--json']);
  expect(text.code, text.stderr).toBe(1);
  const { elapsedMs, jobs: _jobs, ...rest } = JSON.parse(json.stdout) as Record<string, unknown>;
  expect(typeof elapsedMs).toBe('number');
  return {
    report: readFileSync(report, 'utf8'),
    summary: text.stdout.replace(/^report: .*$/m, '').replace(/^validating in \d+ worker threads\n/m, ''),
    json: rest,
  };
}

/** The report's triples, blank nodes with the labels written (a graph: the order of its results aside). */
function triples(report: string): string[] {
  return new Parser({ blankNodePrefix: '' })
    .parse(report)
    .map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}`)
    .sort();
}

/** The objects of one predicate in a report, each once, sorted. */
function objectsOf(report: string, localName: string): string[] {
  return [
    ...new Set(
      new Parser({ blankNodePrefix: '' })
        .parse(report)
        .filter((q) => q.predicate.value === `http://www.w3.org/ns/shacl#${localName}`)
        .map((q) => `${q.object.termType}:${q.object.value}`),
    ),
  ].sort();
}

const CASES = [
  {
    name: 'whole graph in auto mode: the shapes reach beyond a record',
    input: 'plain.nt',
    shapes: 'graph',
    mode: 'auto',
  },
  {
    name: 'whole graph in auto mode: a record names a node of another',
    input: 'cites.nt',
    shapes: 'record',
    mode: 'auto',
  },
  { name: 'record by record in auto mode', input: 'plain.nt', shapes: 'record', mode: 'auto' },
  { name: 'record by record asked for', input: 'cites.nt', shapes: 'graph', mode: 'record' },
  { name: 'whole graph asked for', input: 'cites.nt', shapes: 'record', mode: 'graph' },
  { name: 'Turtle, whole graph in auto mode', input: 'plain.ttl', shapes: 'graph', mode: 'auto' },
  { name: 'Turtle, record by record in auto mode', input: 'plain.ttl', shapes: 'record', mode: 'auto' },
] as const;

describe('blank nodes in reports: labelled by the inputs, the same with one job or two', () => {
  it.each(CASES)('$name: the same report, summary and JSON with --jobs 1 and 2', async (c) => {
    const shapes = `${c.shapes}.shapes.ttl`;
    const one = await validate(c.input, shapes, c.mode, 1);
    const two = await validate(c.input, shapes, c.mode, 2);
    expect(two.report).toBe(one.report);
    expect(triples(two.report)).toEqual(triples(one.report));
    expect(two.summary).toBe(one.summary);
    expect(two.json).toEqual(one.json);
    // The shapes' blank nodes are labelled by the file and what it writes: `_:named` is `s1:named`, written `_:bs1_named`.
    const shapesLabels = objectsOf(one.report, 'sourceShape');
    expect(shapesLabels).toContain('BlankNode:bs1_named');
    for (const label of shapesLabels) expect(label).toMatch(/^BlankNode:bs1(a)?_\w+$/);
    // The data's too: the funders without a name are focus nodes, by their labels in the dump (N-Triples record by
    // record: as written; else in the input's scope, `g1:fa`, the first written without a label `g1a:1`).
    const focusNodes = objectsOf(one.report, 'focusNode').filter((t) => t.startsWith('BlankNode:'));
    const asWritten = c.input.endsWith('.nt') && (one.json['mode'] as { mode: string }).mode === 'record';
    expect(focusNodes).toEqual(
      asWritten
        ? ['BlankNode:bfa', 'BlankNode:bfc']
        : ['BlankNode:bg1_fa', c.input.endsWith('.nt') ? 'BlankNode:bg1_fc' : 'BlankNode:bg1a_1'],
    );
    // Again in the same process (n3's counters have moved on): the same report.
    expect((await validate(c.input, shapes, c.mode, 1)).report).toBe(one.report);
  });

  it('loads the same shapes with the same labels however often they are read, each file in a scope of its own', async () => {
    const shapesDir = mkdtempSync(join(dir, 'shapes-'));
    writeFileSync(join(shapesDir, 'a.ttl'), RECORD_SHAPES);
    writeFileSync(join(shapesDir, 'b.ttl'), RECORD_SHAPES);
    const labels = async () =>
      (await loadShapes(shapesDir)).dataset
        .getQuads(null, null, null, null)
        .flatMap((q) => [q.subject, q.object])
        .filter((t) => t.termType === 'BlankNode')
        .map((t) => t.value);
    const first = new Set(await labels());
    expect(new Set(await labels())).toEqual(first);
    // Both files' `_:named`, apart; their anonymous nodes apart too (four each: two node shapes, two property shapes).
    expect([...first].filter((l) => l.endsWith(':named')).sort()).toEqual(['s1:named', 's2:named']);
    expect([...first].filter((l) => l.startsWith('s1a:')).length).toBe(4);
    expect([...first].filter((l) => l.startsWith('s2a:')).length).toBe(4);
  });

  it.each([
    ['plain.nt', 'record'],
    ['plain.nt', 'graph'],
    ['plain.ttl', 'auto'],
  ])('%s in %s mode: the summary and --json name blank nodes as the report writes them', async (input, mode) => {
    const { report, summary, json } = await validate(input, 'funder.shapes.ttl', mode, 1);
    const inReport = objectsOf(report, 'focusNode');
    const examples = (json['examples'] as { focusNode: string }[]).map((e) => e.focusNode);
    const inSummary = [...summary.matchAll(/^ {2}[^:\s]+: (\S+)/gm)].map((m) => m[1]!);
    expect(examples.length).toBe(2);
    expect(inSummary).toEqual(examples);
    for (const label of examples) {
      expect(label).toMatch(/^_:b\w+$/);
      expect(inReport).toContain(`BlankNode:${label.slice(2)}`);
    }
  });
});
