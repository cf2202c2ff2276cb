import { ToolkitError } from '../errors.js';
import type { LoadSummary } from './LoadSummary.js';

/** Throws `count-mismatch` (with the summary) when the graph's count is outside `minimumCount` to `expectedCount`. */
export function assertCount(summary: LoadSummary, sharedTriples: number): void {
  const count = summary.count!;
  if (count >= summary.minimumCount && count <= summary.expectedCount) return;
  const { graph, baseline, replaced } = summary;
  const ackedTriples = summary.totalTriples;
  const expected = summary.minimumCount === summary.expectedCount ? `${summary.expectedCount}` : `${summary.minimumCount} to ${summary.expectedCount}`;
  throw new ToolkitError(
    `the graph <${graph}> holds ${count} triples, ${expected} expected (${baseline} before the load + ${ackedTriples} sent` +
      `${sharedTriples ? `, ${sharedTriples} of them of shared entities that records repeat` : ''})` +
      (count < summary.expectedCount
        ? replaced
          ? '; a triple repeated in the input (the same file given twice, a record twice) is counted once in a graph; if the input repeats none, triples were lost'
          : '; triples already in the graph or repeated in the input are counted once: load with `replace` for an exact check'
        : '; something else wrote to the graph during the load'),
    'count-mismatch',
    { details: { summary, graph, count, expected: summary.expectedCount } },
  );
}
