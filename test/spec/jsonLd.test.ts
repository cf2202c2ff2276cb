// The W3C JSON-LD 1.1 toRdf and fromRdf tests (test/spec/json-ld-api-tests/, copied from github.com/w3c/json-ld-api
// tests/; see its README.md and LICENSE.md) through the toolkit's own paths:
// - toRdf: each input read by parseRdfQuads (format jsonld, the reader of validate, load and convert; its
//   contexts from the suite's folder, offline): a positive test gives a dataset isomorphic to the expected
//   N-Quads, a syntax test parses, a negative test is refused.
// - fromRdf: each input dataset written by our JsonLdSerializer and read back by jsonld.js (an independent
//   JSON-LD processor) to the same dataset (graphs compared, not the expected JSON-LD's shape: our writer writes
//   its own context); a negative test (an invalid rdf:JSON literal) is refused by the writer.
// Entries the toolkit does not pass are in EXPECTED_FAILURES with their reason; their tests assert that they still
// fail. Entries for JSON-LD 1.0 processors only (specVersion json-ld-1.0) and the one whose input is outside the
// toRdf folder (#ter56, expand/) are not run, and counted as such.
// Prints an EARL-like table per suite. Run with `npm run spec`.
import type * as RDF from '@rdfjs/types';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRdfQuads } from '../../src/parse/parseRdf.js';
import type { DocumentLoader, JsonDocument } from '../../src/parse/documentLoader.js';
import { SERIALIZERS } from '../../src/serialize/serializers.js';

const ROOT = fileURLToPath(new URL('./json-ld-api-tests/', import.meta.url));
/** Where the suite is published: an entry's input IRI (its base) is this and its path. */
const BASE = 'https://w3c.github.io/json-ld-api/tests/';

interface ManifestEntry {
  '@id': string;
  '@type': string[];
  name: string;
  input: string;
  expect?: string;
  expectErrorCode?: string;
  option?: { specVersion?: string; base?: string; [option: string]: unknown };
}

function entriesOf(manifest: string): ManifestEntry[] {
  return (JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as { sequence: ManifestEntry[] }).sequence;
}

/** The suite's documents by their published IRI, from the copy (no network). */
const documentLoader: DocumentLoader = {
  load: async (url: string) => {
    if (!url.startsWith(BASE)) throw new Error(`a document outside the suite: ${url}`);
    return JSON.parse(readFileSync(join(ROOT, url.slice(BASE.length).replace(/[?#].*$/, '')), 'utf8')) as JsonDocument;
  },
};

/** Why an entry fails, and what its failure says (a failure that says something else is a new failure). */
interface Known {
  reason: string;
  says: RegExp;
}

/** The entries the toolkit does not pass, by `suite#id`. Each one's test asserts that it still fails, as said. */
const PROCESSING_MODE: Known = {
  reason: 'needs the option processingMode json-ld-1.0, which our reading path does not have (it reads JSON-LD 1.1)',
  says: /^accepted/,
};
const RDF_DIRECTION: Known = {
  reason:
    'needs the non-normative option rdfDirection, which our reading path does not have: it keeps @direction as an RDF 1.2 directional literal',
  says: /^a dataset not isomorphic|^the datasets cannot be compared/,
};
const DIRECTION_KEPT: Known = {
  reason:
    'by design our reading path keeps @direction (README: base direction) where toRdf without rdfDirection drops it; with no @language it gives a literal with a direction and no language, which n3 cannot compare (RDF 1.2 requires a language)',
  says: /not a literal with a valid direction/,
};
const STREAMING_PARSER: Known = {
  reason: 'jsonld-streaming-parser (our JSON-LD reader) does not raise this error',
  says: /^accepted/,
};
const NATIVE_DOUBLES: Known = {
  reason:
    'jsonld.js, the independent reader of our output, rewrites the xsd:double values our document gives as strings ("+INF", "0.1e999999999999999", "notnative") in its canonical form (Infinity, NaN)',
  says: /^jsonld\.js reads our document as another dataset/,
};
const JSON_LITERAL: Known = {
  reason:
    'our JsonLdSerializer writes an rdf:JSON literal that is not JSON as it is, where a fromRdf processor raises "invalid JSON literal"',
  says: /^written/,
};

const EXPECTED_FAILURES: ReadonlyMap<string, Known> = new Map<string, Known>([
  ['JSON-LD 1.1 toRdf#tc029', PROCESSING_MODE],
  ['JSON-LD 1.1 toRdf#tep02', PROCESSING_MODE],
  ['JSON-LD 1.1 toRdf#ter21', PROCESSING_MODE],
  ['JSON-LD 1.1 toRdf#ttn01', PROCESSING_MODE],
  ['JSON-LD 1.1 toRdf#ter31', STREAMING_PARSER],
  ['JSON-LD 1.1 toRdf#tdi01', DIRECTION_KEPT],
  ['JSON-LD 1.1 toRdf#tdi02', DIRECTION_KEPT],
  ['JSON-LD 1.1 toRdf#tdi03', DIRECTION_KEPT],
  ['JSON-LD 1.1 toRdf#tdi09', RDF_DIRECTION],
  ['JSON-LD 1.1 toRdf#tdi10', RDF_DIRECTION],
  ['JSON-LD 1.1 toRdf#tdi11', RDF_DIRECTION],
  ['JSON-LD 1.1 toRdf#tdi12', RDF_DIRECTION],
  [
    'JSON-LD 1.1 toRdf#te077',
    {
      reason: 'needs the option expandContext, which our reading path does not have',
      says: /^a dataset not isomorphic/,
    },
  ],
  [
    'JSON-LD 1.1 toRdf#te075',
    {
      reason:
        'needs produceGeneralizedRdf (a blank node as predicate): our reading path gives RDF only, and n3 cannot read the expected generalized N-Quads',
      says: /Disallowed blank node as predicate/,
    },
  ],
  ['JSON-LD 1.1 fromRdf#t0027', NATIVE_DOUBLES],
  ['JSON-LD 1.1 fromRdf#t0028', NATIVE_DOUBLES],
  ['JSON-LD 1.1 fromRdf#tjs08', JSON_LITERAL],
  ['JSON-LD 1.1 fromRdf#tjs09', JSON_LITERAL],
]);

function nquads(text: string): RDF.Quad[] {
  return new Parser({ format: 'application/n-quads' }).parse(text);
}

/** toRdf: what is wrong with our reading of the entry (undefined: nothing). */
async function toRdfOutcome(entry: ManifestEntry): Promise<string | undefined> {
  const text = readFileSync(join(ROOT, entry.input), 'utf8');
  const baseIRI = entry.option?.base ?? BASE + entry.input;
  const got: RDF.Quad[] = [];
  try {
    for await (const q of parseRdfQuads(text, { format: 'jsonld', baseIRI, source: entry.input, documentLoader }))
      got.push(q);
  } catch (err) {
    return entry['@type'].includes('jld:NegativeEvaluationTest')
      ? undefined
      : `refused: ${(err as Error).message.slice(0, 200)}`;
  }
  if (entry['@type'].includes('jld:NegativeEvaluationTest'))
    return `accepted (expected the error "${entry.expectErrorCode}")`;
  if (entry['@type'].includes('jld:PositiveSyntaxTest')) return undefined;
  try {
    return isomorphic(got, nquads(readFileSync(join(ROOT, entry.expect!), 'utf8')))
      ? undefined
      : 'a dataset not isomorphic to the expected';
  } catch (err) {
    return `the datasets cannot be compared: ${(err as Error).message.slice(0, 200)}`;
  }
}

/** fromRdf: what is wrong with our JSON-LD of the entry's dataset, read back by jsonld.js (undefined: nothing). */
async function fromRdfOutcome(entry: ManifestEntry): Promise<string | undefined> {
  const negative = entry['@type'].includes('jld:NegativeEvaluationTest');
  const quads = nquads(readFileSync(join(ROOT, entry.input), 'utf8'));
  const groups = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const key = `${q.graph.termType}:${q.graph.value} ${q.subject.termType}:${q.subject.value}`;
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  let text: string;
  try {
    const writer = SERIALIZERS.get('jsonld')!.createWriter();
    text = writer.start() + [...groups.values()].map((g) => writer.write(g)).join('') + writer.end();
  } catch (err) {
    return negative ? undefined : `writer refused: ${(err as Error).message.slice(0, 200)}`;
  }
  if (negative) return `written (expected the error "${entry.expectErrorCode}")`;
  let back: string;
  try {
    back = (await jsonld.toRDF(JSON.parse(text) as jsonld.JsonLdDocument, {
      format: 'application/n-quads',
    })) as unknown as string;
  } catch (err) {
    return `jsonld.js refused our document: ${(err as Error).message.slice(0, 200)}`;
  }
  return isomorphic(nquads(back), quads) ? undefined : 'jsonld.js reads our document as another dataset';
}

interface Outcome {
  suite: string;
  id: string;
  outcome: 'passed' | 'failed' | 'inapplicable';
  expectedFailure: boolean;
  why?: string;
}
const outcomes: Outcome[] = [];

afterAll(() => {
  const lines = ['', 'EARL-like report: W3C JSON-LD 1.1 toRdf and fromRdf tests (test/spec/json-ld-api-tests)'];
  for (const suite of [...new Set(outcomes.map((o) => o.suite))]) {
    const mine = outcomes.filter((o) => o.suite === suite);
    lines.push(`-- ${suite}`);
    for (const o of mine.filter((m) => m.outcome === 'failed'))
      lines.push(`${o.id.padEnd(10)}  earl:failed  ${o.expectedFailure ? '(expected) ' : ''}${o.why ?? ''}`);
    const run = mine.filter((o) => o.outcome !== 'inapplicable');
    lines.push(
      `${suite}: ${run.filter((o) => o.outcome === 'passed').length}/${run.length} passed (${run.filter((o) => o.outcome === 'failed').length} expected failures listed; ${mine.length - run.length} not run: for JSON-LD 1.0 processors only, or input not in the copy)`,
    );
  }
  console.log(lines.join('\n'));
});

const SUITES = [
  { suite: 'JSON-LD 1.1 toRdf', manifest: 'toRdf-manifest.jsonld', outcome: toRdfOutcome },
  { suite: 'JSON-LD 1.1 fromRdf', manifest: 'fromRdf-manifest.jsonld', outcome: fromRdfOutcome },
];

for (const { suite, manifest, outcome } of SUITES) {
  const entries = entriesOf(manifest);
  describe(`W3C ${suite} tests`, () => {
    it('has its entries', () => expect(entries.length).toBeGreaterThan(50));
    for (const entry of entries) {
      const id = entry['@id'];
      // For JSON-LD 1.0 processors only; and one input outside the toRdf folder (expand/er56-in.jsonld), not in the copy.
      if (entry.option?.specVersion === 'json-ld-1.0' || !existsSync(join(ROOT, entry.input))) {
        outcomes.push({ suite, id, outcome: 'inapplicable', expectedFailure: false });
        continue;
      }
      it(`${id} ${entry.name}`, async () => {
        const why = await outcome(entry);
        const expected = EXPECTED_FAILURES.get(`${suite}${id}`);
        outcomes.push({
          suite,
          id,
          outcome: why === undefined ? 'passed' : 'failed',
          expectedFailure: !!expected,
          why: expected?.reason ?? why,
        });
        if (!expected) expect(why).toBeUndefined();
        else {
          expect(why, `${suite}${id} now passes: remove it from EXPECTED_FAILURES`).toBeDefined();
          expect(why).toMatch(expected.says);
        }
      });
    }
  });
}
