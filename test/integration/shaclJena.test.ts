// Differential test of the engine of our own against Apache Jena 5.6 SHACL (the jars of $SCHOLARLY_JENA_LIB):
// random shapes graphs and records (test/shacl/engine/randomCases.ts, as the unit suite compares with shacl-engine),
// each case renamed apart (its own namespace and blank node labels) so that all of them go to Jena in one run;
// the reports compared as graphs, result by result (focus node, result path, value, severity, source shape,
// component; blank nodes as such: Jena's report gives them labels of its own). The cases where SHACL leaves the
// answer to the engine, or Jena parts from SHACL, are left out with the reason (docs/validation.md, "Jena").
// The shipped shapes against Jena on the fixtures, exports and broken dumps: shacl.test.ts.
import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory, Parser, Store } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreEngine } from '../../src/shacl/engine/CoreEngine.js';
import type { ValidationResult } from '../../src/shacl/reports/ValidationResult.js';
import {
  PREFIXES,
  SH,
  key,
  parse,
  record,
  reportPath,
  resultFields,
  shapesGraph,
} from '../shacl/engine/randomCases.js';
import { jena5Shacl, needTools } from './helpers.js';

const CASES = 300;
const dir = mkdtempSync(join(tmpdir(), 'shacl-jena-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A term as compared: blank nodes all alike (Jena's report relabels them). */
const term = (t: RDF.Term | undefined) =>
  !t
    ? '-'
    : t.termType === 'BlankNode'
      ? '_'
      : t.termType === 'Literal'
        ? `${JSON.stringify(t.value)}@${t.language}^^${t.datatype.value}`
        : `N${t.value}`;

/**
 * Case `k`'s Turtle with its own namespace and blank node labels: `graph` (`s` the shapes, `d` the data) in the
 * labels too, as the blank nodes of two files are two nodes (`sh:hasValue _:b1` is not the data's `_:b1`).
 */
const apart = (text: string, k: number, graph: 's' | 'd') =>
  text.replace(/\bex:/g, `c${k}:`).replace(/_:b/g, `_:c${k}${graph}`);

/** Our result as compared with Jena's: {@link resultFields} but the message. */
const ourLine = (r: ValidationResult) => resultFields(r, term).slice(0, 6).join(' ');

/** Jena's report, result by result, as {@link ourLine} writes ours. */
function jenaLines(report: string): string[] {
  const store = new Store(new Parser({ format: 'text/turtle' }).parse(report));
  const one = (s: RDF.Term, p: string) => store.getObjects(s, DataFactory.namedNode(p), null)[0];
  return store
    .getObjects(null, DataFactory.namedNode(`${SH}result`), null)
    .map((r) =>
      [
        term(one(r, `${SH}focusNode`)),
        reportPath(store, one(r, `${SH}resultPath`)),
        term(one(r, `${SH}value`)),
        one(r, `${SH}resultSeverity`)!.value,
        term(one(r, `${SH}sourceShape`)),
        key(one(r, `${SH}sourceConstraintComponent`)),
      ].join(' '),
    );
}

/**
 * Whether Jena and SHACL agree on the shapes graph, as they do but for two cases (docs/validation.md, "Jena"):
 * - SHACL says the values of sh:node are node shapes (4.7.1): Jena refuses a shapes graph where one is a property
 *   shape (what an engine does with such a graph is left to it);
 * - sh:property on a property shape (a shape with sh:path): SHACL checks the inner property shape on each value
 *   node of the outer path (4.8.2), Jena 5.6 on the focus node.
 */
function comparableWithJena(shapesText: string): boolean {
  const quads = parse(shapesText);
  const hasPath = (t: RDF.Term) => quads.some((q) => q.subject.equals(t) && q.predicate.value === `${SH}path`);
  return !quads.some(
    (q) =>
      (q.predicate.value === `${SH}node` && hasPath(q.object)) ||
      (q.predicate.value === `${SH}property` && hasPath(q.subject)),
  );
}

/** The case's focus node in a result line (its namespace says which case it is), or the case of its shape. */
const caseOf = (line: string) => /c(\d+)[:/sd]/.exec(line.replace(/http:\/\/ex\/c/g, 'c'))?.[1];

describe.runIf(needTools('jena5'))('random shapes and records: the engine of our own and Jena 5.6 SHACL', () => {
  it(`give the same report, result by result (${CASES} cases, one Jena run)`, { timeout: 600_000 }, async () => {
    const cases = fc
      .sample(fc.tuple(shapesGraph, record), { seed: 20261202, numRuns: CASES * 3 })
      .filter(([s]) => comparableWithJena(s))
      .slice(0, CASES);
    expect(cases).toHaveLength(CASES);
    const prefixes = cases.map((_, k) => `@prefix c${k}: <http://ex/c${k}/> .`).join('\n');
    const shapesText = cases.map(([s], k) => apart(s, k, 's')).join('\n');
    const dataText = cases.map(([, d], k) => apart(d, k, 'd')).join('\n');
    const shapesFile = join(dir, 'shapes.ttl');
    const dataFile = join(dir, 'data.ttl');
    writeFileSync(shapesFile, `${PREFIXES}${prefixes}\n${shapesText}\n`);
    writeFileSync(dataFile, `${PREFIXES}${prefixes}\n${dataText}\n`);
    // Ours: each case on its own (the cases share no term, so the whole would give the same).
    const ours: string[] = [];
    for (const [k, [s, d]] of cases.entries()) {
      const engine = CoreEngine.compile(parse(`${prefixes}\n${apart(s, k, 's')}`));
      ours.push(...engine.validateQuads(parse(`${prefixes}\n${apart(d, k, 'd')}`)).map(ourLine));
    }
    const jena = jenaLines((await jena5Shacl(shapesFile, dataFile)).report);
    const byCase = (lines: string[]) => {
      const map = new Map<string, string[]>();
      for (const l of lines) {
        const k = caseOf(l) ?? '?';
        map.set(k, [...(map.get(k) ?? []), l]);
      }
      for (const list of map.values()) list.sort();
      return map;
    };
    const o = byCase(ours);
    const j = byCase(jena);
    const differing = [...new Set([...o.keys(), ...j.keys()])].filter(
      (k) => JSON.stringify(o.get(k) ?? []) !== JSON.stringify(j.get(k) ?? []),
    );
    const shown = differing.slice(0, 10).map((k) => {
      const c = cases[Number(k)];
      return `case ${k}:\n${c?.[0]}\n---\n${c?.[1]}\nours:\n${(o.get(k) ?? []).join('\n')}\njena:\n${(j.get(k) ?? []).join('\n')}`;
    });
    expect(differing, shown.join('\n\n')).toEqual([]);
    expect(ours.length).toBeGreaterThan(CASES / 2);
  });
});
