import { describe, expect, it } from 'vitest';
import { StoreHttpClient } from '../../src/store/StoreHttpClient.js';
import { countGraphsQuery, parseGraphCounts, sendUpsertBatch } from '../../src/store/upsertRequests.js';

describe('upsert requests', () => {
  it('counts graphs with one query, and reads the counts as Virtuoso writes them (typed-literal)', () => {
    expect(countGraphsQuery(['http://x/record/10.1/a', 'http://x/record/10.1/b'])).toBe(
      'SELECT ?g (COUNT(*) AS ?n) WHERE { VALUES ?g { <http://x/record/10.1/a> <http://x/record/10.1/b> } GRAPH ?g { ?s ?p ?o } } GROUP BY ?g',
    );
    const answer = {
      head: { vars: ['g', 'n'] },
      results: {
        bindings: [
          {
            g: { type: 'uri', value: 'http://x/a' },
            n: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer', value: '12' },
          },
        ],
      },
    };
    expect(parseGraphCounts(JSON.stringify(answer))).toEqual(new Map([['http://x/a', 12]]));
    expect(() => parseGraphCounts('<html>busy</html>')).toThrow(expect.objectContaining({ code: 'bad-response' }));
    expect(() => parseGraphCounts(JSON.stringify({ results: { bindings: [{ g: { value: 'http://x/a' } }] } }))).toThrow(
      /a row without a graph and a count/,
    );
  });

  it('puts each graph of a batch with at most `concurrency` requests in flight, and fails the batch with the first failure', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: string[] = [];
    const fetch = async (url: string | URL | Request): Promise<Response> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const graph = new URL(String(url)).searchParams.get('graph')!;
      seen.push(graph);
      return new Response(graph.endsWith('/bad') ? 'no' : null, { status: graph.endsWith('/bad') ? 400 : 204 });
    };
    const client = new StoreHttpClient({ fetch, retry: { retries: 0 } });
    const target = {
      update: undefined,
      graphStoreOf: (g: string) => `http://s/ds/data?graph=${encodeURIComponent(g)}`,
    };
    const graphs = ['a', 'b', 'c', 'd', 'e'].map((x) => ({
      iri: `http://x/record/${x}`,
      lines: ['<http://s> <http://p> "o" .'],
    }));
    expect(await sendUpsertBatch(client, target, { index: 1, graphs, triples: 5 }, 'put', undefined, 2)).toBe(5);
    expect(most).toBe(2);
    expect(seen.sort()).toEqual(graphs.map((g) => g.iri));
    const bad = [
      ...graphs.slice(0, 2),
      { iri: 'http://x/record/bad', lines: ['<http://s> <http://p> "o" .'] },
      ...graphs.slice(2),
    ];
    await expect(
      sendUpsertBatch(client, target, { index: 2, graphs: bad, triples: 6 }, 'put', undefined, 2),
    ).rejects.toMatchObject({
      code: 'http-status',
      message: expect.stringContaining('PUT of <http://x/record/bad> (batch 2 (6 graphs, 6 triples))'),
    });
    await expect(sendUpsertBatch(client, target, { index: 3, graphs, triples: 5 }, 'update')).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('needs a SPARQL Update endpoint'),
    });
  });
});
