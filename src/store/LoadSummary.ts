/** What a load did. */
export interface LoadSummary {
  graph: string;
  /** The Graph Store URL the chunks went to. */
  graphStore: string;
  /** Triples sent by this run. */
  triples: number;
  /** Chunks sent by this run. */
  chunks: number;
  /** Chunks of an earlier run that the store had acknowledged, skipped by `resume`. */
  chunksSkipped: number;
  /** Triples of the whole load (earlier runs included). */
  totalTriples: number;
  /** Bytes of chunk bodies sent by this run. */
  bytes: number;
  durationMs: number;
  /** Triples sent per second by this run. */
  triplesPerSecond: number;
  /** Whether the graph was emptied first. */
  replaced: boolean;
  /** Triples in the graph before the load (0 after replace). */
  baseline: number;
  /** The graph's count at the end, when checked. */
  count?: number;
  /**
   * The distinct triples of the whole load: `totalTriples` less the repeats of shared entities' triples
   * (journals, publishers, ORCID persons, ...), which a dump writes in every record that names them and a
   * graph holds once (counted as they were read).
   */
  distinctTriples: number;
  /**
   * Whether the check is exact: the graph was empty before (or replaced), so it must hold `distinctTriples`,
   * no more, no less. Into a graph that held triples, only bounds can be checked (the dump's triples already
   * there count once): at least `max(baseline, distinctTriples)`, at most `baseline + distinctTriples`.
   */
  exact: boolean;
  /** The most the graph may hold: `baseline + distinctTriples`. */
  expectedCount: number;
  /** The least the graph may hold: `distinctTriples` (exact), else the larger of `baseline` and `distinctTriples`. */
  minimumCount: number;
  /**
   * Chunks the store acknowledged whose probe triple the graph does not hold (asked when the count is short):
   * 1-based chunk numbers with the probe. Undefined when not asked.
   */
  missingChunks?: { chunk: number; probe: string }[];
  /** Triples that had a blank node: chunks are separate documents, so a blank node that spans two chunks becomes two nodes in the store. */
  blankNodeTriples: number;
  /** Quads of a named graph in the input: they are loaded into `graph` like the others. */
  namedGraphQuads: number;
}
