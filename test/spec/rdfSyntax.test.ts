// The W3C RDF 1.1 syntax test suites (test/spec/rdf-tests/rdf11/, copied from github.com/w3c/rdf-tests;
// see test/spec/rdf-tests/README.md and LICENSE.md) through the toolkit's own paths: every entry of the
// N-Triples, N-Quads, Turtle and RDF/XML manifests is read by parseRdfQuads (the reader of validate, load
// and convert): a positive syntax test parses, a negative one is refused, an evaluation test gives a graph
// isomorphic to the expected N-Triples. Then the writers: each evaluation test's expected graph is written
// by every serialiser of src/serialize/ and read back, isomorphic. An entry the toolkit does not pass is in
// EXPECTED_FAILURES with its reason, and its test asserts that it still fails (a fix shows up as a failure
// to remove from the list). Prints an EARL-like table per suite. Run with `npm run spec`.
import type * as RDF from '@rdfjs/types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRdfQuads } from '../../src/parse/parseRdf.js';
import { SERIALIZERS } from '../../src/serialize/serializers.js';
import type { FormatName } from '../../src/formats.js';

const ROOT = fileURLToPath(new URL('./rdf-tests/', import.meta.url));
/** Where the suites are published: a test's IRI (its base) is this and its path under rdf-tests/. */
const BASE = 'https://w3c.github.io/rdf-tests/rdf/';
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const RDFT = 'http://www.w3.org/ns/rdftest#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

type Kind = 'positive' | 'negative' | 'eval';

interface SyntaxTest {
  /** The entry's IRI, relative to its suite's folder (`c14n#triple-term-01`, `#IRI_subject`). */
  name: string;
  kind: Kind;
  /** The input's IRI (its base) and local file. */
  actionIri: string;
  action: string;
  /** Eval tests: the expected N-Triples / N-Quads file. */
  result?: string;
}

const SUITES: { suite: string; manifest: string; format: FormatName }[] = [
  { suite: 'RDF 1.1 N-Triples', manifest: 'rdf11/rdf-n-triples/manifest.ttl', format: 'ntriples' },
  { suite: 'RDF 1.1 N-Quads', manifest: 'rdf11/rdf-n-quads/manifest.ttl', format: 'nquads' },
  { suite: 'RDF 1.1 Turtle', manifest: 'rdf11/rdf-turtle/manifest.ttl', format: 'turtle' },
  { suite: 'RDF 1.1 RDF/XML', manifest: 'rdf11/rdf-xml/manifest.ttl', format: 'rdfxml' },
  { suite: 'RDF 1.2 N-Triples', manifest: 'rdf12/rdf-n-triples/manifest.ttl', format: 'ntriples' },
  { suite: 'RDF 1.2 N-Quads', manifest: 'rdf12/rdf-n-quads/manifest.ttl', format: 'nquads' },
  { suite: 'RDF 1.2 Turtle', manifest: 'rdf12/rdf-turtle/manifest.ttl', format: 'turtle' },
  { suite: 'RDF 1.2 RDF/XML', manifest: 'rdf12/rdf-xml/manifest.ttl', format: 'rdfxml' },
];

const KINDS: Record<string, Kind> = {
  TestNTriplesPositiveSyntax: 'positive',
  TestNTriplesNegativeSyntax: 'negative',
  // Canonical N-Triples / N-Quads (RDF 1.2): the reader's graph against the canonical form's (not the bytes: our writers do not canonicalise).
  TestNTriplesPositiveC14N: 'eval',
  TestNQuadsPositiveSyntax: 'positive',
  TestNQuadsNegativeSyntax: 'negative',
  TestNQuadsPositiveC14N: 'eval',
  TestTurtlePositiveSyntax: 'positive',
  TestTurtleNegativeSyntax: 'negative',
  TestTurtleNegativeEval: 'negative',
  TestTurtleEval: 'eval',
  TestXMLEval: 'eval',
  TestXMLNegativeSyntax: 'negative',
};

/** Why an entry fails, and what its failure says (a failure that says something else is a new failure). */
interface Refusal {
  reason: string;
  says: RegExp;
}
const TRIPLE_TERMS: Refusal = {
  reason:
    'RDF 1.2 triple terms: the readers keep them (n3, rdfxml-streaming-parser), but the writers refuse a quad in a quad by design (the toolkit claims RDF 1.2 base direction only)',
  says: /writer refused: [\w/-]+: a Quad cannot be the object of a triple/,
};
const XML_CHARS: Refusal = {
  reason:
    'XML 1.0 cannot carry the control character (U+0000, U+0008, U+000C, ...): RDF/XML refuses the literal by design',
  says: /writer refused: RDF\/XML: XML 1\.0 cannot carry the character/,
};
const XML_DIRECTION: Refusal = {
  reason: 'RDF/XML 1.1 has no base direction: the RDF/XML writer refuses "..."@en--ltr by design (the README says so)',
  says: /writer refused: RDF\/XML: the literal .* has an RDF 1\.2 base direction/,
};

/**
 * The writers' refusals: [suite, entry, why, the writers that refuse it ('*': all that run on it)]. The readers
 * pass every entry. Each listed writer's test asserts that it still fails, saying what `why` says.
 */
const REFUSED: readonly (readonly [string, string, Refusal, readonly FormatName[] | '*'])[] = [
  ['RDF 1.1 N-Triples', 'manifest.ttl#literal_all_controls', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Triples', 'manifest.ttl#literal_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Triples', 'manifest.ttl#literal_with_BACKSPACE', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Triples', 'manifest.ttl#literal_with_FORM_FEED', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Quads', 'manifest.ttl#literal_all_controls', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Quads', 'manifest.ttl#literal_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Quads', 'manifest.ttl#literal_with_BACKSPACE', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 N-Quads', 'manifest.ttl#literal_with_FORM_FEED', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#LITERAL1_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#LITERAL1_all_controls', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#LITERAL_LONG1_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#LITERAL2_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#LITERAL_LONG2_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#literal_with_BACKSPACE', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#literal_with_FORM_FEED', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#literal_with_escaped_BACKSPACE', XML_CHARS, ['rdfxml']],
  ['RDF 1.1 Turtle', 'manifest.ttl#literal_with_escaped_FORM_FEED', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#dirlangtagged_string', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_all_controls', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_ascii_boundaries', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_with_BACKSPACE', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_with_FORM_FEED', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_with_numeric_escape4', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_with_numeric_escape8', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#triple-term-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'c14n#triple-term-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'c14n#triple-term-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'c14n#triple-term-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'c14n#literal_needing_uchar_escaping-01', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'c14n#literal_needing_uchar_escaping-02', XML_CHARS, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'syntax#ntriples12-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'syntax#ntriples12-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'syntax#ntriples12-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'syntax#ntriples12-bnode-1', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'syntax#ntriples12-nested-1', TRIPLE_TERMS, '*'],
  ['RDF 1.2 N-Triples', 'syntax#ntriples-langdir-1', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 N-Triples', 'syntax#ntriples-langdir-2', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 N-Quads', 'c14n#triple-term-01', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'c14n#triple-term-02', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'c14n#triple-term-03', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'c14n#triple-term-04', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'syntax#nquads12-01', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'syntax#nquads12-02', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'syntax#nquads12-03', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'syntax#nquads12-bnode-1', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 N-Quads', 'syntax#nquads12-nested-1', TRIPLE_TERMS, ['jsonld', 'nquads', 'trig']],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-05', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-06', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-07', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-rt-08', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-bnode-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-bnode-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-tt-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-tt-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-tt-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-tt-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-05', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-06', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-07', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-08', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-09', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-10', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-11', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-annotation-12', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-reified-triples-annotation-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-reified-triples-annotation-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 Turtle', 'eval#turtle12-reified-triples-annotation-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-dir-01', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-dir-03', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-dir-04', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-dir-05', XML_DIRECTION, ['rdfxml']],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-tt-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-tt-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-tt-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-tt-05', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-tt-06', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-01', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-02', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-03', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-04', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-05', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-06', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-07', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-08', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-09', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-10', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-11', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-12', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-13', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-14', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-15', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-16', TRIPLE_TERMS, '*'],
  ['RDF 1.2 RDF/XML', 'eval#rdf12-xml-an-reif-01', TRIPLE_TERMS, '*'],
];
const EXPECTED_FAILURES = new Map<string, Refusal>();
for (const [suite, name, why, writers] of REFUSED)
  for (const writer of writers === '*' ? [...SERIALIZERS.keys()] : writers)
    EXPECTED_FAILURES.set(`${suite} written#${name} -> ${writer}`, why);

function localOf(iri: string): string {
  if (!iri.startsWith(BASE)) throw new Error(`a file outside the suites: ${iri}`);
  return join(ROOT, iri.slice(BASE.length));
}

/**
 * Every entry of a manifest and of the manifests it includes, in order. The RDF 1.2 manifests include
 * the RDF 1.1 ones, which run as their own suites: an include out of the manifest's version is left out.
 */
function testsOf(manifest: string, top = BASE + manifest.replace(/manifest\.ttl$/, '')): SyntaxTest[] {
  const version = manifest.split('/')[0]!;
  const quads = new Parser({ format: 'text/turtle', baseIRI: BASE + manifest }).parse(
    readFileSync(join(ROOT, manifest), 'utf8'),
  );
  const out = (s: RDF.Term, p: string) =>
    quads.filter((q) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);
  const list = (head: RDF.Term | undefined): RDF.Term[] => {
    const items: RDF.Term[] = [];
    for (let cell = head; cell && cell.value !== `${RDF_NS}nil`; cell = out(cell, `${RDF_NS}rest`)[0])
      items.push(out(cell, `${RDF_NS}first`)[0]!);
    return items;
  };
  const tests: SyntaxTest[] = [];
  for (const q of quads.filter((q) => q.predicate.value === `${MF}include`)) {
    for (const included of list(q.object)) {
      const path = included.value.slice(BASE.length);
      if (path.split('/')[0] === version) tests.push(...testsOf(path, top));
    }
  }
  for (const entry of list(quads.find((q) => q.predicate.value === `${MF}entries`)?.object)) {
    const type = out(entry, `${RDF_NS}type`)[0]!.value.slice(RDFT.length);
    const kind = KINDS[type];
    if (!kind) throw new Error(`an entry of an unknown type: ${entry.value} ${type}`);
    const actionIri = out(entry, `${MF}action`)[0]!.value;
    const result = out(entry, `${MF}result`)[0]?.value;
    tests.push({
      name: entry.value.slice(top.length),
      kind,
      actionIri,
      action: localOf(actionIri),
      result: result === undefined ? undefined : localOf(result),
    });
  }
  return tests;
}

async function ours(text: string, format: FormatName, baseIRI: string): Promise<RDF.Quad[]> {
  const quads: RDF.Quad[] = [];
  for await (const q of parseRdfQuads(text, { format, baseIRI, source: baseIRI })) quads.push(q);
  return quads;
}

/** The expected graph, read by n3 (an independent N-Triples/N-Quads reader). */
function expectedOf(file: string): RDF.Quad[] {
  return new Parser({ format: 'application/n-quads' }).parse(readFileSync(file, 'utf8'));
}

/** A serialiser's document of quads, one group per subject and graph (the record's subject first, as the writers expect). */
function write(format: FormatName, quads: readonly RDF.Quad[]): string {
  const groups = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const key = `${q.graph.termType}:${q.graph.value} ${q.subject.termType}:${q.subject.value}`;
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  const writer = SERIALIZERS.get(format)!.createWriter();
  return writer.start() + [...groups.values()].map((g) => writer.write(g)).join('') + writer.end();
}

/** Whether the reader does what the entry says; the reason when not. */
async function readerOutcome(test: SyntaxTest, format: FormatName): Promise<string | undefined> {
  const text = readFileSync(test.action, 'utf8');
  let got: RDF.Quad[];
  try {
    got = await ours(text, format, test.actionIri);
  } catch (err) {
    return test.kind === 'negative' ? undefined : `refused: ${(err as Error).message.slice(0, 160)}`;
  }
  if (test.kind === 'negative') return 'accepted a negative test';
  if (test.kind === 'eval' && !isomorphic(got, expectedOf(test.result!)))
    return 'a graph not isomorphic to the expected';
  return undefined;
}

/** Whether a writer's document of the expected graph reads back isomorphic; `refused` when the writer refuses it. */
async function writerOutcome(expected: RDF.Quad[], format: FormatName): Promise<string | undefined> {
  let text: string;
  try {
    text = write(format, expected);
  } catch (err) {
    return `writer refused: ${(err as Error).message.slice(0, 160)}`;
  }
  let back: RDF.Quad[];
  try {
    back = await ours(text, format, 'https://example.org/written/');
  } catch (err) {
    return `written document refused on reading back: ${(err as Error).message.slice(0, 160)}`;
  }
  return isomorphic(back, expected) ? undefined : 'read back not isomorphic to the graph written';
}

const ALL_WRITERS = [...SERIALIZERS.keys()];
/** The writers that carry named graphs. */
const QUAD_WRITERS: readonly FormatName[] = ['nquads', 'trig', 'jsonld'];

interface Outcome {
  suite: string;
  name: string;
  passed: boolean;
  expectedFailure: boolean;
  why?: string;
}
const outcomes: Outcome[] = [];

afterAll(() => {
  const lines = [
    '',
    'EARL-like report: W3C RDF 1.1 and 1.2 syntax suites through parseRdfQuads and the serialisers (test/spec/rdf-tests)',
  ];
  const width = Math.max(...outcomes.map((o) => o.name.length));
  for (const suite of [...new Set(outcomes.map((o) => o.suite))]) {
    const mine = outcomes.filter((o) => o.suite === suite);
    lines.push(`-- ${suite}`);
    for (const o of mine.filter((m) => !m.passed))
      lines.push(`${o.name.padEnd(width)}  earl:failed  ${o.expectedFailure ? '(expected) ' : ''}${o.why ?? ''}`);
    lines.push(
      `${suite}: ${mine.filter((o) => o.passed).length}/${mine.length} passed (${mine.filter((o) => !o.passed && o.expectedFailure).length} expected failures listed)`,
    );
  }
  console.log(lines.join('\n'));
});

/** Records an entry's outcome; what is wrong with it (an unexpected failure, or a listed one that now passes). */
function check(suite: string, name: string, why: string | undefined): string | undefined {
  const key = `${suite}#${name}`;
  const expected = EXPECTED_FAILURES.get(key);
  outcomes.push({
    suite,
    name,
    passed: why === undefined,
    expectedFailure: expected !== undefined,
    why: expected ? expected.reason : why,
  });
  if (!expected) return why === undefined ? undefined : `${key}: ${why}`;
  if (why === undefined) return `${key} now passes: remove it from REFUSED`;
  return expected.says.test(why) ? undefined : `${key} fails otherwise than listed: ${why}`;
}

for (const { suite, manifest, format } of SUITES) {
  const tests = testsOf(manifest);
  describe(`W3C ${suite} suite through parseRdfQuads`, () => {
    it('has its entries', () => {
      expect(tests.length).toBeGreaterThan(20);
    });
    for (const test of tests)
      it(test.name, async () => expect(check(suite, test.name, await readerOutcome(test, format))).toBeUndefined());
  });
  // The graphs of the evaluation tests, and of the N-Triples / N-Quads positive syntax tests (their input is their graph).
  const graphs = tests.filter(
    (t) => t.kind === 'eval' || (t.kind === 'positive' && (format === 'ntriples' || format === 'nquads')),
  );
  describe(`W3C ${suite} graphs through the writers`, () => {
    for (const test of graphs) {
      const graph = test.result ?? test.action;
      it(test.name, async () => {
        let quads: RDF.Quad[];
        try {
          quads = expectedOf(graph);
        } catch (err) {
          const problem = check(
            `${suite} written`,
            `${test.name} -> *`,
            `n3 cannot read the expected graph: ${(err as Error).message.slice(0, 120)}`,
          );
          expect(problem).toBeUndefined();
          return;
        }
        const named = quads.some((q) => q.graph.termType !== 'DefaultGraph');
        const wrong: string[] = [];
        for (const writer of named ? QUAD_WRITERS : ALL_WRITERS) {
          const problem = check(`${suite} written`, `${test.name} -> ${writer}`, await writerOutcome(quads, writer));
          if (problem) wrong.push(problem);
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}
