import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { DEFAULT_BASE } from '../rdf/namespaces.js';
import { NTriplesTermWriter } from '../rdf/NTriplesWriter.js';
import { detachedString } from '../rdf/detached.js';

/** One named graph of a batch: its IRI and its distinct triples as N-Triples lines (no line end). */
export interface BatchGraph {
  iri: string;
  lines: string[];
}

/** A batch of whole record graphs, replaced in the store by one request. */
export interface RecordGraphBatch {
  /** 1-based number of the batch in the delta (the same in every run over the same input and limits). */
  index: number;
  graphs: BatchGraph[];
  /** Distinct triples of the batch's graphs (the sum of their `lines`). */
  triples: number;
}

/** Options of {@link recordGraphBatches}. */
export interface RecordGraphBatchesOptions {
  /** The base of the record graphs (`<base>record/<doi>`) and of the dump's description graph (`<base>dump/…`). Defaults to `https://w3id.org/scholarly-rdf/`. */
  base?: string;
  /** Most record graphs in one batch. Defaults to 200. */
  batchGraphs?: number;
  /** A batch is closed after the graph that brings it to this many triples (a graph is never split). Defaults to 50000. */
  batchTriples?: number;
  /**
   * Where the `n`th quad (1-based) of the input is, for the message refusing it ("dump.nq line 12").
   * Defaults to `quad n`.
   */
  locate?: (n: number) => Promise<string> | string;
}

/** The kind of graph a quad is in, for an upsert: a record graph, the dump's description graph, or neither. */
export function upsertGraphKind(
  graph: RDF.Quad_Graph,
  base: string = DEFAULT_BASE,
): 'record' | 'description' | 'default' | 'other' {
  if (graph.termType === 'DefaultGraph') return 'default';
  if (graph.termType !== 'NamedNode') return 'other';
  if (graph.value.startsWith(`${base}record/`) && graph.value.length > base.length + 7) return 'record';
  if (graph.value.startsWith(`${base}dump/`) && graph.value.length > base.length + 5) return 'description';
  return 'other';
}

/**
 * Cuts a delta dump's quads into batches of whole named graphs: the record
 * graphs (`<base>record/<doi>`) and the dump's description graph
 * (`<base>dump/<hash>`, which an N-Quads export writes at its end), each to be
 * replaced in the store as a whole. A graph's quads must stand together, as
 * `convert` and `export --graph-per-record` write them; a triple repeated in
 * a graph is kept once. Memory holds one batch, and the IRIs of the graphs
 * seen (to refuse a graph that comes back after others).
 *
 * Refused (code `usage`, naming where the quad is): a quad in the default
 * graph or in a graph that is neither kind (upsert would drop that whole
 * graph from the store and put back only what the delta has of it), and a
 * graph that comes back.
 */
export async function* recordGraphBatches(
  quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
  options: RecordGraphBatchesOptions = {},
): AsyncGenerator<RecordGraphBatch> {
  const base = options.base ?? DEFAULT_BASE;
  const maxGraphs = positive('batchGraphs', options.batchGraphs ?? 200);
  const maxTriples = positive('batchTriples', options.batchTriples ?? 50_000);
  const locate = options.locate ?? ((n: number) => `quad ${n}`);
  const seen = new Set<string>();
  const terms = new NTriplesTermWriter();
  let batch: RecordGraphBatch = { index: 1, graphs: [], triples: 0 };
  let current: { iri: string; distinct: Set<string> } | undefined;
  const close = (): boolean => {
    if (!current) return false;
    const lines = [...current.distinct];
    batch.graphs.push({ iri: current.iri, lines });
    batch.triples += lines.length;
    current = undefined;
    return batch.graphs.length >= maxGraphs || batch.triples >= maxTriples;
  };
  let n = 0;
  for await (const quad of quads) {
    n++;
    const graph = quad.graph;
    if (graph.value !== current?.iri || graph.termType !== 'NamedNode') {
      const kind = upsertGraphKind(graph, base);
      if (kind === 'default' || kind === 'other') throw refusal(kind, graph, base, await locate(n));
      if (seen.has(graph.value)) {
        throw new ToolkitError(
          `${await locate(n)}: the graph <${graph.value}> comes back after other graphs; an upsert replaces each graph as a whole, so its quads must stand together (as convert and export write them)`,
          'usage',
          { details: { quad: n, graph: graph.value } },
        );
      }
      if (close()) {
        yield batch;
        batch = { index: batch.index + 1, graphs: [], triples: 0 };
      }
      // A copy: the parser's IRI may be a slice of its whole input chunk, which the set would keep alive.
      seen.add(detachedString(graph.value));
      current = { iri: graph.value, distinct: new Set() };
    }
    current!.distinct.add(
      `${terms.subject(quad.subject)} ${terms.cachedIri(quad.predicate.value)} ${terms.object(quad.object)} .`,
    );
  }
  close();
  if (batch.graphs.length > 0) yield batch;
}

function refusal(kind: 'default' | 'other', graph: RDF.Quad_Graph, base: string, where: string): ToolkitError {
  const what =
    kind === 'default'
      ? 'is in the default graph'
      : `is in the graph ${graph.termType === 'NamedNode' ? `<${graph.value}>` : `_:${graph.value}`}`;
  return new ToolkitError(
    `${where}: the quad ${what}; an upsert replaces record graphs (${base}record/<doi>, from convert or export with --graph-per-record) and works with nothing else ` +
      '(a graph of other data would be dropped from the store and only the part in the delta put back); load such data with load, without --upsert',
    'usage',
    { details: { graph: kind === 'default' ? null : graph.value } },
  );
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ToolkitError(`\`${name}\` must be a positive integer, not ${value}`, 'usage');
  return value;
}
