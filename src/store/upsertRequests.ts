import { ToolkitError, hideUrlSecrets } from '../errors.js';
import { escapeIri } from '../rdf/escape.js';
import type { BatchGraph, RecordGraphBatch } from './RecordGraphBatches.js';
import type { StoreHttpClient } from './StoreHttpClient.js';
import { formatInfo } from '../formats.js';

/**
 * How an upsert replaces a batch of graphs:
 * - `'put'`: a Graph Store `PUT` of each graph, which replaces it in one request (on Virtuoso 7 as fast as,
 *   or faster than, emptying the batch's graphs with one SPARQL `DELETE` and `POST`ing each: measured in
 *   docs/incremental.md);
 * - `'update'`: one SPARQL Update per batch, `DROP SILENT GRAPH <g1> ; … ; INSERT DATA { GRAPH <g1> { … } … }`
 *   (the batch in one request; Virtuoso compiles `INSERT DATA` slowly and refuses more than a few record
 *   graphs a request: "generated SQL text has exceeded 10000 lines").
 */
export type UpsertMethod = 'put' | 'update';

/** The upsert methods, for help texts and validation. */
export const UPSERT_METHODS: readonly UpsertMethod[] = ['put', 'update'];

/** The SPARQL Update replacing the graphs of a batch: a `DROP SILENT GRAPH` of each, then one `INSERT DATA` of them all. */
export function upsertUpdateText(graphs: readonly BatchGraph[]): string {
  let drops = '';
  let inserts = '';
  for (const g of graphs) {
    const iri = `<${escapeIri(g.iri)}>`;
    drops += `DROP SILENT GRAPH ${iri} ;\n`;
    inserts += `GRAPH ${iri} {\n${g.lines.join('\n')}\n}\n`;
  }
  return `${drops}INSERT DATA {\n${inserts}}\n`;
}

/** Where a batch goes: the Update endpoint, and the Graph Store URL of a graph. */
export interface UpsertTarget {
  update: string | undefined;
  graphStoreOf: (graph: string) => string;
}

/**
 * Replaces the graphs of a batch in the store ({@link UpsertMethod}; Graph Store requests `concurrency` at a
 * time); resolves with the number of requests sent (retries not counted).
 */
export async function sendUpsertBatch(
  client: StoreHttpClient,
  target: UpsertTarget,
  batch: RecordGraphBatch,
  method: UpsertMethod,
  signal?: AbortSignal,
  concurrency = 1,
): Promise<number> {
  const what = `batch ${batch.index} (${batch.graphs.length} graphs, ${batch.triples} triples)`;
  if (method === 'put') {
    await putEachGraph(client, target, batch, what, concurrency, signal);
    return batch.graphs.length;
  }
  if (!target.update)
    throw new ToolkitError(
      'the upsert method update needs a SPARQL Update endpoint: give `updateEndpoint`, or use the method put',
      'usage',
    );
  await client.request({
    method: 'POST',
    url: target.update,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
    body: new URLSearchParams({ update: upsertUpdateText(batch.graphs) }).toString(),
    what: `SPARQL Update replacing the graphs of ${what} at ${hideUrlSecrets(target.update)}`,
    ...(signal ? { signal } : {}),
  });
  return 1;
}

/** A Graph Store PUT of each graph of a batch (its triples), `concurrency` in flight; the first failure fails the batch once the others end. */
async function putEachGraph(
  client: StoreHttpClient,
  target: UpsertTarget,
  batch: RecordGraphBatch,
  what: string,
  concurrency: number,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batch.graphs.length) {
      const g = batch.graphs[next++]!;
      const url = target.graphStoreOf(g.iri);
      await client.request({
        method: 'PUT',
        url,
        headers: { 'content-type': formatInfo('ntriples').mediaType },
        body: `${g.lines.join('\n')}\n`,
        what: `PUT of <${g.iri}> (${what}) to ${hideUrlSecrets(url)}`,
        ...(signal ? { signal } : {}),
      });
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(concurrency, batch.graphs.length) }, worker));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The SPARQL query counting the triples of each of the given graphs (`?g`, `?n`; a graph with none has no row). */
export function countGraphsQuery(graphs: readonly string[]): string {
  return `SELECT ?g (COUNT(*) AS ?n) WHERE { VALUES ?g { ${graphs.map((g) => `<${escapeIri(g)}>`).join(' ')} } GRAPH ?g { ?s ?p ?o } } GROUP BY ?g`;
}

/**
 * Counts the triples of each graph with one query ({@link countGraphsQuery}), as a form POST (the list of
 * graphs may be too long for a URL); a graph missing from the map has none. Throws `bad-response` when the
 * answer is no SPARQL JSON results.
 */
export async function countGraphs(
  client: StoreHttpClient,
  queryEndpoint: string,
  graphs: readonly string[],
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Map<string, number>> {
  const response = await client.request({
    method: 'POST',
    url: queryEndpoint,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query: countGraphsQuery(graphs) }).toString(),
    what: `COUNT of ${graphs.length} graphs at ${hideUrlSecrets(queryEndpoint)}`,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs, retryTimeout: false } : {}),
  });
  return parseGraphCounts(response.text);
}

/** The `?g` → `?n` rows of a SPARQL JSON results document; `bad-response` when it is none. */
export function parseGraphCounts(text: string): Map<string, number> {
  let rows: Record<string, { value?: string }>[] | undefined;
  try {
    rows = (JSON.parse(text) as { results?: { bindings?: Record<string, { value?: string }>[] } }).results?.bindings;
  } catch {
    rows = undefined;
  }
  if (!Array.isArray(rows))
    throw new ToolkitError(`the store's COUNT answer is no SPARQL JSON results: ${text.slice(0, 200)}`, 'bad-response');
  const counts = new Map<string, number>();
  for (const row of rows) {
    const g = row['g']?.value;
    const n = row['n']?.value;
    if (g === undefined || n === undefined || !/^\s*[0-9]+\s*$/.test(n)) {
      throw new ToolkitError(
        `the store's COUNT answer has a row without a graph and a count: ${JSON.stringify(row).slice(0, 200)}`,
        'bad-response',
      );
    }
    counts.set(g, Number(n));
  }
  return counts;
}
