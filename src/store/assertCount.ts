import { ToolkitError } from '../errors.js';
import type { LoadSummary } from './LoadSummary.js';

/**
 * Throws `count-mismatch` (with the summary) when the graph's count is outside `minimumCount` to
 * `expectedCount`: naming the chunks whose probe triple is missing when they were asked
 * (`summary.missingChunks`), and saying what the check could and could not tell.
 */
export function assertCount(summary: LoadSummary, sharedTriples: number): void {
  const count = summary.count!;
  const chunks = summary.missingChunks;
  if (count >= summary.minimumCount && count <= summary.expectedCount && !chunks?.length) return;
  const { graph, baseline, exact } = summary;
  const expected =
    summary.minimumCount === summary.expectedCount
      ? `${summary.expectedCount}`
      : `${summary.minimumCount} to ${summary.expectedCount}`;
  const sent =
    `${baseline} before the load + ${summary.distinctTriples} distinct triples sent` +
    (sharedTriples
      ? ` (${summary.totalTriples} statements, of which ${sharedTriples} of shared entities that records repeat)`
      : '');
  const lost =
    chunks && chunks.length > 0
      ? `; the store acknowledged and lost ${chunks.length === 1 ? 'chunk' : 'chunks'} ${chunks
          .slice(0, 10)
          .map((c) => c.chunk)
          .join(', ')}${chunks.length > 10 ? ', ...' : ''}` +
        ` (its triple ${chunks[0]!.probe.slice(0, 200)} is not in the graph): load again with replace`
      : '';
  const why =
    count > summary.expectedCount && !lost
      ? '; something else wrote to the graph during the load'
      : exact
        ? lost
          ? `; triples were lost${lost}`
          : "; triples were lost, or the input repeats triples that are not of shared entities (a record, or a file, given twice): no chunk could be named (each one's probe triple is there, or the store cannot be asked)"
        : `; triples were lost${lost}`;
  throw new ToolkitError(
    `the graph <${graph}> holds ${count} triples, ${expected} expected (${sent})${why}`,
    'count-mismatch',
    {
      details: { summary, graph, count, expected: summary.expectedCount, ...(chunks ? { missingChunks: chunks } : {}) },
    },
  );
}
