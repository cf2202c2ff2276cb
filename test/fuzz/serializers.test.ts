/**
 * Properties of the five record writers on arbitrary quads, beyond what the
 * mapper produces: blank nodes with any label, predicates of every namespace
 * (context terms with `@id` and datatype coercions, `rdf:` names, IRIs
 * without an XML local name), literals of any datatype with valid and invalid
 * lexical forms, language tags, hostile (but carriable) text, named graphs.
 * A writer either writes text that parses back (n3, jsonld.js,
 * rdfxml-streaming-parser) to the same graph, or refuses the group with a
 * `serialization` error naming the subject — never a crash, never wrong output,
 * and the refused group leaves the document it is writing intact.
 */
import type * as RDF from '@rdfjs/types';
import fc from 'fast-check';
import { DataFactory } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { formatInfo } from '../../src/formats.js';
import { cleanText } from '../../src/record/cleanText.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { nastyString } from './arbitraries.js';
import { fuzzParams, reportCases } from './fuzzConfig.js';
import { FORMATS, assertSameGraph } from './pipeline.js';

const startedAt = Date.now();
afterAll(() => reportCases('serializers.test.ts', startedAt));

const { namedNode, blankNode, literal, quad, defaultGraph } = DataFactory;
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** Local names that test prefixed names and XML names: empty, dots, dashes, digits first, %-escapes, colons. */
const localArb = fc.oneof(
  fc.constantFrom(
    '',
    'a',
    'name',
    'a.',
    '.a',
    'a.b',
    '-a',
    'a-',
    '1',
    '1a',
    '_x',
    'a%20b',
    '%41',
    'a:b',
    'a~b',
    'é',
    'a_b',
    'type',
    'first',
    'li',
    '_1',
    'about',
    'nodeID',
    'Description',
  ),
  fc.stringMatching(/^[A-Za-z0-9_.:%~-]{1,8}$/),
);
const NAMESPACES = [
  'http://schema.org/',
  'http://purl.org/ontology/bibo/',
  'http://purl.org/dc/terms/',
  RDF_NS,
  XSD,
  'https://w3id.org/scholarly-rdf/vocab#',
  'http://example.org/ns/',
  'http://example.org/ns#',
  'urn:x:',
  'http://example.org/',
];

/** IRIs that are valid IRIs (what a mapper or parser would hand over). */
const iriArb: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom(...NAMESPACES), localArb).map(([ns, l]) => ns + l),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'http://schema.org/author',
    'http://schema.org/url',
    'http://schema.org/datePublished',
    'http://purl.org/ontology/bibo/numPages',
    'http://schema.org/isAccessibleForFree',
    'schema:name',
    'name:x',
    'xsd:int',
    'http://example.org/a b'.replace(' ', '%20'),
    'http://example.org/é',
    'https://doi.org/10.1/(a)<b>'.replace('<', '%3C').replace('>', '%3E'),
  ),
);
const predicateArb = fc.oneof(
  fc.constantFrom(
    `${RDF_NS}type`,
    `${RDF_NS}first`,
    `${RDF_NS}rest`,
    `${RDF_NS}li`,
    `${RDF_NS}_1`,
    `${RDF_NS}value`,
    'http://schema.org/name',
    'http://schema.org/author',
    'http://schema.org/url',
    'http://schema.org/datePublished',
    'http://purl.org/ontology/bibo/numPages',
    'http://schema.org/isAccessibleForFree',
    'http://prov.example/generatedAtTime',
  ),
  iriArb,
);
const blankArb = fc
  .oneof(fc.constantFrom('b0', 'b1', 'x', '_', 'a.b', 'é', '0', 'n3-1'), fc.string({ maxLength: 6 }))
  .map((l) => blankNode(l === '' ? 'e' : l));
const subjectArb: fc.Arbitrary<RDF.Quad_Subject> = fc.oneof(
  { arbitrary: iriArb.map((i) => namedNode(i)), weight: 3 },
  { arbitrary: blankArb, weight: 1 },
);

/** Text every format can carry (what the normaliser hands over). */
const textArb = nastyString(30).map((s) => cleanText(s).text);
const datatypeArb = fc.constantFrom(
  `${XSD}string`,
  `${XSD}integer`,
  `${XSD}boolean`,
  `${XSD}date`,
  `${XSD}decimal`,
  `${XSD}double`,
  `${XSD}gYear`,
  `${XSD}dateTime`,
  'http://example.org/dt',
  `${RDF_NS}PlainLiteral`,
);
const lexicalArb = fc.oneof(
  textArb,
  fc.constantFrom(
    '0',
    '01',
    '+5',
    '-0',
    '1.0',
    '1e3',
    'NaN',
    'INF',
    'true',
    'false',
    'TRUE',
    '1',
    '2020-02-30',
    '2020-01-01',
    ' 7 ',
    '',
  ),
);
const objectArb: fc.Arbitrary<RDF.Quad_Object> = fc.oneof(
  { arbitrary: iriArb.map((i) => namedNode(i)), weight: 3 },
  { arbitrary: blankArb, weight: 1 },
  { arbitrary: textArb.map((t) => literal(t)), weight: 3 },
  {
    arbitrary: fc
      .tuple(textArb, fc.constantFrom('en', 'de', 'en-gb', 'zh-hant-tw', 'x-private'))
      .map(([t, l]) => literal(t, l)),
    weight: 1,
  },
  { arbitrary: fc.tuple(lexicalArb, datatypeArb).map(([t, d]) => literal(t, namedNode(d))), weight: 3 },
);
const graphArb = fc.oneof(
  { arbitrary: fc.constant(defaultGraph()), weight: 8 },
  { arbitrary: iriArb.map((i) => namedNode(i)), weight: 1 },
);

/** Groups of quads ("records"), subjects shared within and across groups. */
const groupsArb = fc.array(
  fc.array(
    fc.tuple(subjectArb, predicateArb, objectArb, graphArb).map(([s, p, o, g]) => quad(s, namedNode(p), o, g)),
    { minLength: 1, maxLength: 8 },
  ),
  { minLength: 1, maxLength: 4 },
);

/**
 * jsonld.js (toRdf.js) rewrites the lexical form of every `xsd:double` value,
 * even a string one, to its canonical form ("0" → "0.0E0"): the same value.
 * The expected quads get the same rewriting.
 */
function asJsonLdReadsIt(q: RDF.Quad): RDF.Quad {
  const o = q.object;
  if (o.termType !== 'Literal' || o.datatype.value !== `${XSD}double`) return q;
  const canonical = parseFloat(o.value)
    .toExponential(15)
    .replace(/(\d)0*e\+?/, '$1E');
  return quad(q.subject, q.predicate, literal(canonical, o.datatype), q.graph);
}

describe('record writers on arbitrary quads (property-based)', () => {
  it('write what parses back to the same graph, or refuse a group with a serialization error and go on', async () => {
    await fc.assert(
      fc.asyncProperty(groupsArb, async (groups) => {
        for (const { format, parse } of FORMATS) {
          const writer = serializerFor(format).createWriter();
          let text = writer.start();
          const written: RDF.Quad[] = [];
          for (const group of groups) {
            try {
              text += writer.write(group);
              written.push(...group);
            } catch (err) {
              expect(err, `${format}: ${(err as Error).message}`).toBeInstanceOf(ToolkitError);
              expect((err as ToolkitError).code).toBe('serialization');
              // Named graphs are the one thing N-Triples, Turtle and RDF/XML must refuse; N-Triples refuses nothing else.
              if (format === 'ntriples')
                expect(
                  group.some((q) => q.graph.termType !== 'DefaultGraph'),
                  (err as Error).message,
                ).toBe(true);
              if (format === 'nquads') expect.fail(`N-Quads refused a group: ${(err as Error).message}`);
            }
          }
          text += writer.end();
          if (!formatInfo(format).namedGraphs)
            expect(written.every((q) => q.graph.termType === 'DefaultGraph')).toBe(true);
          let parsed: RDF.Quad[];
          try {
            parsed = await parse(text);
          } catch (err) {
            throw new Error(`${format} output does not parse: ${(err as Error).message}\n${text.slice(0, 3000)}`, {
              cause: err,
            });
          }
          assertSameGraph(parsed, format === 'jsonld' ? written.map(asJsonLdReadsIt) : written, format);
        }
      }),
      fuzzParams('writers on arbitrary quads', 150),
    );
  });
});
