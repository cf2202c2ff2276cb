import type * as RDF from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { parseRdf } from '../../src/parse/parseRdf.js';
import { splitJsonLdGraph } from '../../src/parse/splitJsonLdGraph.js';
import { mapRecord } from '../../src/mapping/mapRecord.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { expectIsomorphic } from '../helpers/rdf.js';

/** A text cut into chunks of `size` characters (to cross every boundary). */
async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function collect(it: AsyncIterable<RDF.Quad>): Promise<RDF.Quad[]> {
  const out: RDF.Quad[] = [];
  for await (const q of it) out.push(q);
  return out;
}

async function pieces(it: AsyncIterable<{ text: string; line: number }>): Promise<{ text: string; line: number }[]> {
  const out: { text: string; line: number }[] = [];
  for await (const p of it) out.push(p);
  return out;
}

/** A JSON-LD dump as the toolkit writes it. */
function dump(records: number): string {
  const writer = serializerFor('jsonld').createWriter();
  let out = writer.start();
  for (const raw of generateRecords(records, 3)) out += writer.write(mapRecord(normalizeRecord(raw)).quads);
  return out + writer.end();
}

describe('splitJsonLdGraph', () => {
  it('gives the same triples, in the default graph, as the whole document, whatever the chunks', async () => {
    const doc = dump(12);
    const whole = await collect(parseRdf(doc, { format: 'jsonld' }));
    for (const size of [1, 7, 100, 4096]) {
      const split = await collect(parseRdf(chunked(doc, size), { format: 'jsonld', ignoreGraphs: true }));
      expect(split.every((q) => q.graph.termType === 'DefaultGraph')).toBe(true);
      expectIsomorphic(split, whole);
    }
  });

  it('cuts the @graph array into documents of N nodes, strings with brackets, commas and escapes left alone', async () => {
    const doc = `{"@context": {"n": "http://schema.org/name"}, "@graph": [
      {"@id": "urn:a", "n": "a, [b] {c} \\"d\\" \\\\"}, {"@id": "urn:b", "n": ["x", "y"]},
      {"@id": "urn:c", "n": {"@value": "z"}}
    ]}`;
    const out = await pieces(splitJsonLdGraph(chunked(doc, 3), 2));
    expect(out.map((p) => (JSON.parse(p.text) as { '@graph': unknown[] })['@graph'].length)).toEqual([2, 1]);
    expect(out.map((p) => p.line)).toEqual([1, 2]);
    const quads = await collect(parseRdf(chunked(doc, 5), { format: 'jsonld', ignoreGraphs: true }));
    expect(quads.map((q) => `${q.subject.value} ${q.object.value}`).sort()).toEqual([
      'urn:a a, [b] {c} "d" \\',
      'urn:b x',
      'urn:b y',
      'urn:c z',
    ]);
  });

  it('keeps the triples of keys after @graph, in one more object', async () => {
    const doc = `{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a", "n": "a"}], "@id": "urn:g", "n": "the graph"}`;
    const quads = await collect(parseRdf(chunked(doc, 4), { format: 'jsonld', ignoreGraphs: true }));
    expect(quads.map((q) => `${q.subject.value} ${q.object.value}`).sort()).toEqual(['urn:a a', 'urn:g the graph']);
  });

  it('passes other layouts through unchanged', async () => {
    for (const doc of [
      '[{"@id": "urn:a", "http://schema.org/name": "a"}]',
      '{"@id": "urn:a", "http://schema.org/name": "a"}',
      '{"@context": {"n": "http://schema.org/name"}, "@id": "urn:g", "@graph": [{"@id": "urn:a", "n": "a"}]}',
    ]) {
      expect(await pieces(splitJsonLdGraph(chunked(doc, 3)))).toEqual([{ text: doc, line: 1 }]);
    }
  });

  it('leaves a cut document to the parser, which reports it', async () => {
    const doc = dump(2);
    await expect(
      collect(parseRdf(chunked(doc.slice(0, doc.length - 40), 50), { format: 'jsonld', ignoreGraphs: true })),
    ).rejects.toThrow(/JSON-LD|unexpected|end/i);
  });

  it('reports a syntax error at its line in the input', async () => {
    const lines = ['{"@context": {"n": "http://schema.org/name"},', '"@graph": ['];
    for (let i = 0; i < 600; i++) lines.push(`{"@id": "urn:n${i}", "n": "${i}"},`);
    lines.push('{"@id": "urn:bad", "n": tru},', '{"@id": "urn:last"}', ']}');
    const err = await collect(
      parseRdf(chunked(lines.join('\n'), 1000), { format: 'jsonld', ignoreGraphs: true, source: 'dump.jsonld' }),
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/dump\.jsonld:603\b/);
  });

  it('cuts a piece after 4 MiB of nodes, however few, so that memory does not grow with big nodes', async () => {
    const node = (i: number) => `{"@id": "urn:n${i}", "n": "${'x'.repeat(100_000)}"}`;
    const doc = `{"@context": {"n": "http://schema.org/name"}, "@graph": [${Array.from({ length: 100 }, (_, i) => node(i)).join(',\n')}]}`;
    const out = await pieces(splitJsonLdGraph(chunked(doc, 65536)));
    expect(out.length).toBe(3);
    for (const p of out) expect(p.text.length).toBeLessThan(4 * 2 ** 20 + 200_000);
    expect(
      out.flatMap((p) => (JSON.parse(p.text) as { '@graph': { '@id': string }[] })['@graph'].map((n) => n['@id'])),
    ).toEqual(Array.from({ length: 100 }, (_, i) => `urn:n${i}`));
  });

  it('fails, naming the line and the option, on a node larger than maxDocumentChars or JSON nested deeper than maxDepth', async () => {
    const doc = `{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a"},\n\n{"@id": "urn:b", "n": "${'x'.repeat(3000)}"}]}`;
    await expect(
      pieces(splitJsonLdGraph(chunked(doc, 100), 256, { maxDocumentChars: 1000, source: 'd.jsonld' })),
    ).rejects.toThrow(
      'd.jsonld:3: a node of the JSON-LD "@graph" larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
    );
    const deep = `{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a", "n": ${'['.repeat(10)}"x"${']'.repeat(10)}}]}`;
    await expect(pieces(splitJsonLdGraph(chunked(deep, 7), 256, { maxDepth: 8, source: 'd.jsonld' }))).rejects.toThrow(
      /^d\.jsonld:1:\d+: JSON-LD nested deeper than 8 levels/,
    );
    expect(await pieces(splitJsonLdGraph(chunked(deep, 7), 256, { maxDepth: 13 }))).toHaveLength(1);
  });
  describe('keepGraphs (parseRdf without ignoreGraphs: convert)', () => {
    it('reads a dump in pieces, the same quads in the default graph as the whole document, whatever the chunks', async () => {
      const doc = dump(12);
      const whole = await collect(parseRdf(doc, { format: 'jsonld' }));
      for (const size of [7, 4096]) {
        expect((await pieces(splitJsonLdGraph(chunked(doc, size), 4, { keepGraphs: true }))).length).toBeGreaterThan(3);
        expectIsomorphic(await collect(parseRdf(chunked(doc, size), { format: 'jsonld' })), whole);
      }
    });

    it('keeps the named graph that keys after @graph make, reading the document whole (it is within the limit)', async () => {
      const doc = `{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a", "n": "a"}, {"@id": "urn:b", "n": "b"}], "@id": "urn:g", "n": "the graph"}`;
      expect(await pieces(splitJsonLdGraph(chunked(doc, 4), 1, { keepGraphs: true }))).toEqual([
        { text: doc, line: 1 },
      ]);
      const quads = await collect(parseRdf(chunked(doc, 4), { format: 'jsonld' }));
      expectIsomorphic(quads, await collect(parseRdf(doc, { format: 'jsonld' })));
      expect(quads.filter((q) => q.graph.value === 'urn:g')).toHaveLength(2);
    });

    it('refuses a node larger than the limit as it is read, and a document with keys after @graph larger than the limit', async () => {
      const big = `{"@context": {"n": "http://schema.org/name"}, "@graph": [{"@id": "urn:a"},\n{"@id": "urn:b", "n": [${'"x",'.repeat(5000)}"x"]}]}`;
      await expect(
        collect(parseRdf(chunked(big, 100), { format: 'jsonld', source: 'd.jsonld', maxDocumentChars: 1000 })),
      ).rejects.toThrow(
        'd.jsonld:2: a node of the JSON-LD "@graph" larger than 1000 characters, more than is read at once: not read (`maxDocumentChars` raises the limit)',
      );
      const nodes = Array.from({ length: 100 }, (_, i) => `{"@id": "urn:n${i}", "n": "${i}"}`).join(',\n');
      const named = `{"@context": {"n": "http://schema.org/name"}, "@graph": [${nodes}], "@id": "urn:g"}`;
      await expect(
        collect(parseRdf(chunked(named, 100), { format: 'jsonld', source: 'd.jsonld', maxDocumentChars: 1000 })),
      ).rejects.toThrow(
        /^d\.jsonld: a JSON-LD document with keys after its "@graph" .* larger than 1000 characters, .*\(`maxDocumentChars` raises the limit\)$/,
      );
      // Without keys after @graph, the same nodes stream (each within the limit).
      const plain = `{"@context": {"n": "http://schema.org/name"}, "@graph": [${nodes}]}`;
      expect(await collect(parseRdf(chunked(plain, 100), { format: 'jsonld', maxDocumentChars: 1000 }))).toHaveLength(
        100,
      );
    });
  });
});
