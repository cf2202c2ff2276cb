/**
 * Properties of reader → mapping → the five serialisers over generated
 * records and envelopes (every field of the record, hostile strings, wrong
 * types, missing and extra keys, nested junk, the byte layouts of users'
 * files):
 * - no exception escapes;
 * - records in = records written + records rejected, and a rejection names the record and the field;
 * - every output parses back (n3, jsonld.js, rdfxml-streaming-parser) to the quads the mapper produced,
 *   and every term is one strict checkers (Jena) accept without a warning;
 * - the same input gives the same bytes.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeIri } from '../../src/rdf/escape.js';
import { isMintedIri } from '../../src/rdf/dataFactory.js';
import { inputArb, layoutInput } from './arbitraries.js';
import { fuzzParams, reportCases } from './fuzzConfig.js';
import { FORMATS, assertSameGraph, assertStoreSafe, runPipeline } from './pipeline.js';

const startedAt = Date.now();
afterAll(() => reportCases('pipeline.test.ts', startedAt));

describe('reader → mapping → serialisers (property-based)', () => {
  it('accounts for every record: written or rejected with the record and the field named', async () => {
    await fc.assert(
      fc.asyncProperty(
        inputArb,
        fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 16 }), weight: 1 },
          { arbitrary: fc.integer({ min: 17, max: 8192 }), weight: 4 },
        ),
        async (input, chunkSize) => {
          const text = layoutInput(input);
          const { items, outcomes } = await runPipeline(text, [], chunkSize);
          expect(items.length).toBe(input.records);
          const mapped = outcomes.filter((o) => o.kind === 'mapped').length;
          const rejected = outcomes.filter((o) => o.kind === 'rejected');
          expect(mapped + rejected.length).toBe(items.length);
          for (const o of rejected) {
            const r = o.rejection;
            expect(r.recordId).not.toBe('');
            expect(r.field).not.toBe('');
            expect(r.reason).not.toBe('');
            expect(r.reason).not.toMatch(/^internal error/);
            expect(r.source).toBe('fuzz.json');
          }
        },
      ),
      fuzzParams('accounting', 500),
    );
  });

  it("writes every mapped record in all five formats, each parsing back to the mapper's quads", async () => {
    await fc.assert(
      fc.asyncProperty(inputArb, async (input) => {
        const { quads, outputs } = await runPipeline(layoutInput(input));
        assertStoreSafe(quads);
        // An IRI the mapper marks as minted is written unchecked: it must pass the writers' check.
        for (const q of quads)
          for (const term of [q.subject, q.object])
            if (isMintedIri(term)) expect(escapeIri(term.value)).toBe(term.value);
        for (const { format, parse } of FORMATS) {
          const text = outputs.get(format)!;
          let parsed;
          try {
            parsed = await parse(text);
          } catch (err) {
            throw new Error(`${format} output does not parse: ${(err as Error).message}\n${text.slice(0, 2000)}`, {
              cause: err,
            });
          }
          assertSameGraph(parsed, quads, format);
        }
      }),
      fuzzParams('round trip, five formats', 250),
    );
  });

  it('gives the same bytes for the same input', async () => {
    await fc.assert(
      fc.asyncProperty(inputArb, fc.integer({ min: 7, max: 4096 }), async (input, chunkSize) => {
        const text = layoutInput(input);
        const a = await runPipeline(text);
        const b = await runPipeline(Buffer.from(text, 'utf8'), undefined, chunkSize);
        for (const { format } of FORMATS) expect(b.outputs.get(format)).toBe(a.outputs.get(format));
      }),
      fuzzParams('determinism', 150),
    );
  });
});
