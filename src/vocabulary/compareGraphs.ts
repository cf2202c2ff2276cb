import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import { isomorphic } from 'rdf-isomorphic';

/** The result of {@link compareGraphs}. */
export interface GraphComparison {
  /** Whether the two graphs are the same (isomorphic: blank nodes matched by structure, duplicates ignored). */
  same: boolean;
  /** Triples only in the first graph, as sorted N-Quads lines. */
  onlyInFirst: string[];
  /** Triples only in the second graph, as sorted N-Quads lines. */
  onlyInSecond: string[];
}

/**
 * Compares two graphs with rdf-isomorphic and, when they differ, lists the
 * differing triples as N-Quads lines. With blank nodes, the lists compare
 * labels as written, so a structural difference may show as more lines than
 * it is (and isomorphic graphs report no lines).
 */
export function compareGraphs(first: readonly RDF.Quad[], second: readonly RDF.Quad[]): GraphComparison {
  const a = dedupe(first);
  const b = dedupe(second);
  if (isomorphic([...a.values()], [...b.values()])) return { same: true, onlyInFirst: [], onlyInSecond: [] };
  return {
    same: false,
    onlyInFirst: [...a.keys()].filter((l) => !b.has(l)).sort(),
    onlyInSecond: [...b.keys()].filter((l) => !a.has(l)).sort(),
  };
}

/** N-Quads line of a quad (the format `term --check` prints differences in). */
export function quadToLine(quad: RDF.Quad): string {
  return new Writer({ format: 'N-Quads' })
    .quadToString(quad.subject as never, quad.predicate as never, quad.object as never, quad.graph as never)
    .trim();
}

function dedupe(quads: readonly RDF.Quad[]): Map<string, RDF.Quad> {
  const out = new Map<string, RDF.Quad>();
  for (const q of quads) out.set(quadToLine(q), q);
  return out;
}
