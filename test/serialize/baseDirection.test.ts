import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { DataFactory as D } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDump } from '../../src/tasks/loadDump.js';
import { serializerFor } from '../../src/serialize/serializers.js';
import { offlineDocumentLoader, parseNQuads, parseNTriples, parseTurtle } from '../helpers/rdf.js';
import { GspTestServer } from '../store/GspTestServer.js';
import { tempDir } from '../helpers/tempDir.js';

// RDF 1.2 base direction (`"…"@ar--rtl`): kept where the format carries it, refused where it cannot, never dropped.
const S = D.namedNode('https://doi.org/10.1000/dir');
const P = D.namedNode('http://schema.org/name');
const rtl = D.literal('مرحبا', { language: 'ar', direction: 'rtl' } as never);
const quad = D.quad(S, P, rtl);
const text = (format: 'ntriples' | 'nquads' | 'turtle' | 'jsonld' | 'rdfxml') => {
  const w = serializerFor(format).createWriter();
  return w.start() + w.write([quad]) + w.end();
};
const directionOf = (q: { object: unknown }) => (q.object as { direction?: string }).direction;

describe('RDF 1.2 base direction', () => {
  it('is kept by N-Triples, N-Quads and Turtle in their 1.2 syntax (read back by n3)', () => {
    expect(text('ntriples')).toContain('"@ar--rtl');
    expect(directionOf(parseNTriples(text('ntriples'))[0]!)).toBe('rtl');
    expect(directionOf(parseNQuads(text('nquads'))[0]!)).toBe('rtl');
    expect(directionOf(parseTurtle(text('turtle'))[0]!)).toBe('rtl');
  });

  it('is kept by JSON-LD as @direction (read back by jsonld.js as an i18n datatype)', async () => {
    const doc = JSON.parse(text('jsonld')) as unknown;
    expect(text('jsonld')).toContain('"@direction":"rtl"');
    const nquads = (await jsonld.toRDF(
      doc as never,
      {
        format: 'application/n-quads',
        documentLoader: offlineDocumentLoader as never,
        rdfDirection: 'i18n-datatype',
      } as never,
    )) as unknown as string;
    expect(nquads).toContain('<https://www.w3.org/ns/i18n#ar_rtl>');
  });

  it('is refused by RDF/XML 1.1, naming the subject, not dropped', () => {
    expect(() => text('rdfxml')).toThrow(
      /RDF\/XML: .*base direction \(rtl\).*\(subject <https:\/\/doi\.org\/10\.1000\/dir>\)/s,
    );
  });

  describe('load', () => {
    let store: GspTestServer;
    const dir = tempDir('direction-');
    beforeAll(async () => {
      store = await new GspTestServer().start();
    });
    afterAll(() => store.stop());

    it('refuses a literal with a direction (the Graph Store Protocol speaks RDF 1.1) instead of loading it without', async () => {
      const file = join(dir, 'd.nt');
      writeFileSync(file, text('ntriples'));
      const graph = 'https://example.org/g/direction';
      await expect(
        loadDump({ files: [file], endpoint: store.dataset, graph, statePath: join(dir, 'd.state.json') }),
      ).rejects.toMatchObject({
        code: 'serialization',
        message: expect.stringContaining('base direction'),
      });
      expect(store.graphSize(graph)).toBe(0);
    });
  });
});
