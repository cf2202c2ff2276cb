import { NTriplesChunkReader } from './NTriplesChunkReader.js';
import { openLoadSources } from './openLoadSources.js';

/** What {@link countDumpTriples} counted. */
export interface DumpTriples {
  /** Statements of the files (repeats included). */
  triples: number;
  /** Of them, statements of shared entities (a journal's, a person's), which records repeat. */
  sharedTriples: number;
  /** The distinct triples: `triples − sharedTriples +` the distinct shared ones (see {@link DistinctTriples}). */
  distinct: number;
}

/**
 * Reads dump files (N-Triples, N-Quads, Turtle, ...; `.gz` too) as a load over the Graph Store Protocol
 * reads them, without writing chunks, and counts their distinct triples: what a graph emptied first must
 * hold after they are loaded. Memory is that of the distinct shared triples, not of the dump.
 */
export async function countDumpTriples(paths: readonly string[], signal?: AbortSignal): Promise<DumpTriples> {
  const reader = new NTriplesChunkReader(openLoadSources(paths, paths, signal ? { signal } : {}), {
    chunkTriples: 1_000_000,
    labelsPerInput: paths.length > 1,
    ...(signal ? { signal } : {}),
  });
  let triples = 0;
  for (let chunk = await reader.next(false); chunk; chunk = await reader.next(false)) triples += chunk.triples;
  return {
    triples,
    sharedTriples: reader.sharedTriples,
    distinct: triples - reader.sharedTriples + reader.distinctShared.size,
  };
}
