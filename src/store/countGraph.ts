import { ToolkitError, hideUrlSecrets } from '../errors.js';
import type { StoreHttpClient } from './StoreHttpClient.js';

/**
 * The SPARQL query counting the triples of one named graph: the graph made
 * the query's default graph with `FROM` (so a store's system triples are not
 * counted). Not `GRAPH <g> { … }`: on a Virtuoso that had served several
 * loads and `CLEAR GRAPH`s that form took over 5 minutes where `FROM`
 * answered in 0.15 s (issue 24).
 */
export function countQuery(graph: string): string {
  return `SELECT (COUNT(*) AS ?n) FROM <${graph}> WHERE { ?s ?p ?o }`;
}

/**
 * Reads the count out of a SPARQL results document: JSON (`application/sparql-results+json`;
 * the binding may say `literal` or, as Virtuoso does, `typed-literal`) or XML. Throws
 * `bad-response` when there is no integer in it.
 */
export function parseCountResult(text: string): number {
  let value: string | undefined;
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const json = JSON.parse(trimmed) as {
        results?: { bindings?: Record<string, { type?: string; value?: string }>[] };
      };
      const binding = json.results?.bindings?.[0];
      const first = binding ? (binding['n'] ?? Object.values(binding)[0]) : undefined;
      value = first?.value;
    } catch {
      value = undefined;
    }
  } else {
    value = /<literal[^>]*>\s*([0-9]+)\s*<\/literal>/.exec(trimmed)?.[1];
  }
  if (value === undefined || !/^\s*[0-9]+\s*$/.test(value)) {
    throw new ToolkitError(`the store's COUNT answer has no count: ${trimmed.slice(0, 200)}`, 'bad-response');
  }
  return Number(value);
}

/**
 * Counts the triples of a named graph over the SPARQL protocol: a GET with
 * `?query=` (never a POST of `application/sparql-query`: Virtuoso hangs on it),
 * asking for JSON results.
 */
export async function countGraph(
  client: StoreHttpClient,
  queryEndpoint: string,
  graph: string,
  signal?: AbortSignal,
  timeoutMs?: number,
): Promise<number> {
  const url = new URL(queryEndpoint);
  url.searchParams.set('query', countQuery(graph));
  const response = await client.request({
    method: 'GET',
    url: url.toString(),
    headers: { accept: 'application/sparql-results+json, application/sparql-results+xml;q=0.5' },
    what: `COUNT of <${graph}> at ${hideUrlSecrets(queryEndpoint)}`,
    signal,
    // A count a store does not answer is not asked again and again: the load says so and ends (issue 24).
    ...(timeoutMs !== undefined ? { timeoutMs, retryTimeout: false } : {}),
  });
  return parseCountResult(response.text);
}

/**
 * The error of a load whose count at the end did not answer in time: what was loaded and acknowledged,
 * and how to count by hand (code `network`, exit 3; `details.countTimedOut`, `details.summary`).
 */
export function countDeadlineError(
  cause: unknown,
  facts: {
    triples: number;
    graph: string;
    queryEndpoint: string;
    timeoutMs: number;
    expected: string;
    details: Record<string, unknown>;
  },
): ToolkitError {
  const url = hideUrlSecrets(facts.queryEndpoint);
  const query = countQuery(facts.graph);
  return new ToolkitError(
    `${facts.triples} triples loaded and acknowledged; the count did not answer in ${facts.timeoutMs / 1000} s; check it with ` +
      `curl -G '${url}' -H 'Accept: text/csv' --data-urlencode 'query=${query}' (${facts.expected} expected), or raise --count-timeout`,
    'network',
    { cause, details: { ...facts.details, countTimedOut: true, query, queryEndpoint: url } },
  );
}

/**
 * Empties a named graph: `DROP SILENT GRAPH <g>` as a SPARQL Update form POST
 * (portable: `SILENT` makes a missing graph no error; Virtuoso answers 500 to
 * `DROP GRAPH` of a graph it did not `CREATE`), or, with no Update endpoint, a
 * Graph Store `DELETE` of the graph (a 404 for a missing graph is fine).
 */
export async function dropGraph(
  client: StoreHttpClient,
  target: { update: string | undefined; graphStore: string },
  graph: string,
  signal?: AbortSignal,
): Promise<void> {
  if (target.update) {
    await client.request({
      method: 'POST',
      url: target.update,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
      body: new URLSearchParams({ update: `DROP SILENT GRAPH <${graph}>` }).toString(),
      what: `DROP SILENT GRAPH <${graph}> at ${target.update}`,
      signal,
    });
    return;
  }
  await client.request({
    method: 'DELETE',
    url: target.graphStore,
    acceptStatuses: [404],
    what: `DELETE of ${target.graphStore}`,
    signal,
  });
}

/**
 * Whether the graph holds a triple (`ASK FROM <g> WHERE { triple }`, the triple in N-Triples without its
 * final ` .`), over the SPARQL protocol as {@link countGraph} asks. Throws `bad-response` when the answer has no boolean.
 */
export async function graphHasTriple(
  client: StoreHttpClient,
  queryEndpoint: string,
  graph: string,
  triple: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const url = new URL(queryEndpoint);
  url.searchParams.set('query', `ASK FROM <${graph}> WHERE { ${triple} }`);
  const response = await client.request({
    method: 'GET',
    url: url.toString(),
    headers: { accept: 'application/sparql-results+json, application/sparql-results+xml;q=0.5' },
    what: `ASK of a triple of <${graph}> at ${hideUrlSecrets(queryEndpoint)}`,
    signal,
  });
  const text = response.text.trimStart();
  const m = text.startsWith('{')
    ? /"boolean"\s*:\s*(true|false)/.exec(text)
    : /<boolean>\s*(true|false)\s*<\/boolean>/.exec(text);
  if (!m) throw new ToolkitError(`the store's ASK answer has no boolean: ${text.slice(0, 200)}`, 'bad-response');
  return m[1] === 'true';
}
