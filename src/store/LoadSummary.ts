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
  /** The count expected: baseline + total triples. */
  expectedCount: number;
  /**
   * The least count that loses nothing: `expectedCount` less the triples of
   * shared entities (journals, publishers, ORCID persons, ...), which a dump
   * repeats in every record that names them and a graph holds once.
   */
  minimumCount: number;
  /** Triples that had a blank node: chunks are separate documents, so a blank node that spans two chunks becomes two nodes in the store. */
  blankNodeTriples: number;
  /** Quads of a named graph in the input: they are loaded into `graph` like the others. */
  namedGraphQuads: number;
}
