import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { recordGraphBatches, upsertGraphKind, type RecordGraphBatch } from '../../src/store/RecordGraphBatches.js';

const { namedNode, literal, quad, defaultGraph } = DataFactory;
const B = 'https://w3id.org/scholarly-rdf/';
const rec = (doi: string) => namedNode(`${B}record/${doi}`);

/** `n` quads of a record graph: `<doi> <p> "i"`. */
function recordQuads(doi: string, n: number): RDF.Quad[] {
  return Array.from({ length: n }, (_, i) =>
    quad(namedNode(`https://doi.org/${doi}`), namedNode('http://schema.org/name'), literal(`t${i}`), rec(doi)),
  );
}

async function batchesOf(
  quads: RDF.Quad[],
  options: Parameters<typeof recordGraphBatches>[1] = {},
): Promise<RecordGraphBatch[]> {
  const out: RecordGraphBatch[] = [];
  for await (const b of recordGraphBatches(quads, options)) out.push(b);
  return out;
}

describe('recordGraphBatches', () => {
  it('groups whole record graphs into batches by graphs and by triples, each triple of a graph once', async () => {
    const quads = [
      ...recordQuads('10.1/a', 3),
      recordQuads('10.1/a', 1)[0]!,
      ...recordQuads('10.1/b', 2),
      ...recordQuads('10.1/c', 5),
      ...recordQuads('10.1/d', 1),
    ];
    const byGraphs = await batchesOf(quads, { batchGraphs: 2 });
    expect(byGraphs.map((b) => b.graphs.map((g) => g.iri.slice(-1)))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(byGraphs.map((b) => b.triples)).toEqual([5, 6]);
    expect(byGraphs[0]!.graphs[0]!.lines).toEqual([
      '<https://doi.org/10.1/a> <http://schema.org/name> "t0" .',
      '<https://doi.org/10.1/a> <http://schema.org/name> "t1" .',
      '<https://doi.org/10.1/a> <http://schema.org/name> "t2" .',
    ]);
    // A graph is never split: the batch closes after the graph that reaches the limit.
    const byTriples = await batchesOf(quads, { batchTriples: 4 });
    expect(byTriples.map((b) => [b.index, b.graphs.map((g) => g.iri.slice(-1)).join('')])).toEqual([
      [1, 'ab'],
      [2, 'c'],
      [3, 'd'],
    ]);
  });

  it("takes the dump's description graph (<base>dump/…) as a graph to replace, and another base's record graphs with `base`", async () => {
    expect(upsertGraphKind(namedNode(`${B}dump/0123456789abcdef`))).toBe('description');
    expect(upsertGraphKind(namedNode(`${B}record/10.1/x`))).toBe('record');
    expect(upsertGraphKind(namedNode(`${B}record/`))).toBe('other');
    expect(upsertGraphKind(namedNode('http://example.org/record/10.1/x'), 'http://example.org/')).toBe('record');
    const description = quad(
      namedNode(`${B}dump/0123`),
      namedNode('http://purl.org/dc/terms/title'),
      literal('d'),
      namedNode(`${B}dump/0123`),
    );
    expect(
      (await batchesOf([...recordQuads('10.1/a', 1), description])).flatMap((b) => b.graphs.map((g) => g.iri)),
    ).toEqual([`${B}record/10.1/a`, `${B}dump/0123`]);
  });

  it('refuses a quad in the default graph or in another graph, naming where it is', async () => {
    const inDefault = quad(
      namedNode('https://doi.org/10.1/a'),
      namedNode('http://schema.org/name'),
      literal('x'),
      defaultGraph(),
    );
    await expect(
      batchesOf([...recordQuads('10.1/a', 1), inDefault], { locate: (n) => `delta.nq line ${n + 1}` }),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(
        /^delta\.nq line 3: the quad is in the default graph; an upsert replaces record graphs/,
      ),
    });
    const other = quad(
      namedNode('https://doi.org/10.1/a'),
      namedNode('http://schema.org/name'),
      literal('x'),
      namedNode(`${B}graph/all`),
    );
    await expect(batchesOf([other])).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(`quad 1: the quad is in the graph <${B}graph/all>`),
    });
  });

  it('refuses a graph that comes back after another (its first part would be dropped by the second)', async () => {
    const quads = [...recordQuads('10.1/a', 1), ...recordQuads('10.1/b', 1), ...recordQuads('10.1/a', 2).slice(1)];
    await expect(batchesOf(quads)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/^quad 3: the graph <.*record\/10\.1\/a> comes back after other graphs/),
    });
  });

  it('refuses a batch limit that is no positive integer', async () => {
    await expect(batchesOf([], { batchGraphs: 0 })).rejects.toMatchObject({
      code: 'usage',
      message: '`batchGraphs` must be a positive integer, not 0',
    });
  });
});
