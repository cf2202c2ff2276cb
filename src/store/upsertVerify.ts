import { ToolkitError, hideUrlSecrets } from '../errors.js';
import type { RecordGraphBatch } from './RecordGraphBatches.js';
import { isDeadlineError, type StoreHttpClient } from './StoreHttpClient.js';
import { countGraphs, countGraphsQuery } from './upsertRequests.js';

/** How to count a batch's graphs. */
export interface BatchCounter {
  client: StoreHttpClient;
  queryEndpoint: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Counts the graphs of a replaced batch with one query and checks that each holds the batch's distinct
 * triples of it. Throws `count-mismatch` naming the first graphs that differ (`details.graphs`), or
 * `network` (`details.countTimedOut`) when the count does not answer in time; `statePath` goes in the
 * details (the batch is not noted as done: a resume replaces it again).
 */
export async function verifyBatchCounts(
  counter: BatchCounter,
  batch: RecordGraphBatch,
  statePath: string | undefined,
): Promise<void> {
  const graphs = batch.graphs.map((g) => g.iri);
  let counts: Map<string, number>;
  try {
    counts = await countGraphs(counter.client, counter.queryEndpoint, graphs, {
      timeoutMs: counter.timeoutMs,
      ...(counter.signal ? { signal: counter.signal } : {}),
    });
  } catch (err) {
    if (!isDeadlineError(err)) throw err;
    throw new ToolkitError(
      `batch ${batch.index} (${graphs.length} graphs) was replaced; its count did not answer in ${counter.timeoutMs / 1000} s; run again with resume to replace and count it again, or raise the count's time limit`,
      'network',
      {
        cause: err,
        details: {
          countTimedOut: true,
          batch: batch.index,
          queryEndpoint: hideUrlSecrets(counter.queryEndpoint),
          statePath,
        },
      },
    );
  }
  const wrong = batch.graphs
    .map((g) => ({ graph: g.iri, expected: g.lines.length, count: counts.get(g.iri) ?? 0 }))
    .filter((g) => g.count !== g.expected);
  if (wrong.length === 0) return;
  const shown = wrong.slice(0, 5).map((g) => `<${g.graph}> holds ${g.count}, ${g.expected} expected`);
  throw new ToolkitError(
    `after batch ${batch.index}, ${wrong.length} of its ${graphs.length} graphs do not hold the delta's triples: ${shown.join('; ')}` +
      `${wrong.length > 5 ? '; …' : ''} (something else wrote to them meanwhile, or the store lost triples); run again with resume to replace them again`,
    'count-mismatch',
    {
      details: {
        batch: batch.index,
        graphs: wrong.slice(0, 100),
        statePath,
        query: countGraphsQuery(wrong.slice(0, 5).map((g) => g.graph)),
      },
    },
  );
}
