import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { DataFactory } from 'n3';
import { abortError } from '../abort.js';
import { isSharedTriple } from '../mapping/sharedTriples.js';
import type { QuadSerializer } from '../serialize/QuadSerializer.js';
import { findDatasetIri } from './defaultGraph.js';
import { DistinctTriples } from '../rdf/DistinctTriples.js';
import { writeTriples } from './otherLines.js';

/** Quads handed to the record writer at once (small groups write faster than one huge one). */
const GROUP = 1000;

/** One chunk of the input: the body of one request (a document) and its triples. */
export interface Chunk {
  body: Buffer;
  triples: number;
  /** Called once the request that sent `body` has settled (or it was not sent): the reader may reuse its memory. Defaults to none. */
  release?: () => void;
  /**
   * One triple of the chunk that no other chunk repeats (no blank node, not of a shared entity), as N-Triples
   * without the final ` .`: asked for when the graph's count is short, to name the chunks a store lost. Undefined
   * when the chunk has none.
   */
  probe?: string;
}

/** What a load summary reports of the input, counted as chunks are read. */
export interface InputCounts {
  /** Triples that had a blank node. */
  blankNodeTriples: number;
  /** Quads of a named graph in the input. */
  namedGraphQuads: number;
  /** Triples of shared entities read (in every chunk, acknowledged or not): the input may repeat them. */
  sharedTriples: number;
  /** The distinct ones of `sharedTriples`. */
  readonly distinctShared: DistinctTriples;
}

/** A reader of the chunks of a load ({@link ChunkReader}, {@link NTriplesChunkReader}). */
export interface ChunkSource extends InputCounts {
  /** The dataset IRI found in a chunk read with `lookForDataset`, if any. */
  datasetIri: string | undefined;
  /**
   * The next chunk (`undefined` at the end). `write: false` only counts (chunks acknowledged before a resume);
   * `lookForDataset` looks for a dataset description ({@link findDatasetIri}) in it.
   */
  next(write: boolean, lookForDataset?: boolean): Promise<Chunk | undefined>;
}

/**
 * Cuts a stream of quads into chunks of `chunkTriples` triples, each the text of one document written in
 * groups of quads as they come (no chunk of quad objects is held), and counts what a load summary reports.
 * Quads of named graphs become triples of the default graph.
 */
export class ChunkReader implements ChunkSource {
  blankNodeTriples = 0;
  namedGraphQuads = 0;
  sharedTriples = 0;
  readonly distinctShared = new DistinctTriples();
  datasetIri: string | undefined;
  private inputDone = false;
  private readonly iterator: AsyncIterator<RDF.Quad> | Iterator<RDF.Quad>;

  constructor(
    quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
    private readonly serializer: QuadSerializer,
    private readonly chunkTriples: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.iterator = (
      Symbol.asyncIterator in quads ? quads[Symbol.asyncIterator]() : (quads as Iterable<RDF.Quad>)[Symbol.iterator]()
    ) as AsyncIterator<RDF.Quad> | Iterator<RDF.Quad>;
  }

  async next(write: boolean, lookForDataset = false): Promise<Chunk | undefined> {
    if (this.inputDone) return undefined;
    const writer = write ? this.serializer.createWriter() : undefined;
    const parts: string[] = writer ? [writer.start()] : [];
    let group: RDF.Quad[] = [];
    let triples = 0;
    let probe: string | undefined;
    while (triples < this.chunkTriples) {
      if (this.signal?.aborted) throw abortError(this.signal);
      const next = await this.iterator.next();
      if (next.done) {
        this.inputDone = true;
        break;
      }
      const q = this.count(next.value);
      if (probe === undefined && isOwnTriple(q)) probe = probeOf(q);
      if (lookForDataset && this.datasetIri === undefined) this.datasetIri = findDatasetIri([q]);
      triples++;
      if (writer) {
        group.push(q);
        if (group.length === GROUP) {
          parts.push(writer.write(group));
          group = [];
        }
      }
    }
    if (triples === 0) return undefined;
    if (writer) {
      if (group.length > 0) parts.push(writer.write(group));
      parts.push(writer.end());
    }
    return { body: Buffer.from(parts.join(''), 'utf8'), triples, ...(probe !== undefined ? { probe } : {}) };
  }

  private count(quad: RDF.Quad): RDF.Quad {
    return countQuad(this, quad);
  }
}

/**
 * Counts a quad into `counts`; a quad of a named graph comes back as a triple. A literal with an RDF 1.2
 * base direction is refused (`serialization`).
 */
export function countQuad(counts: InputCounts, quad: RDF.Quad): RDF.Quad {
  let q = quad;
  if (q.graph.termType !== 'DefaultGraph') {
    counts.namedGraphQuads++;
    q = DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object);
  }
  if (q.object.termType === 'Literal' && (q.object as RDF.Literal & { direction?: string | null }).direction) {
    // Never dropped on the way: the chunks are RDF 1.1 N-Triples or Turtle, which stores read and which have no base direction.
    throw new ToolkitError(
      `<${q.subject.value}> <${q.predicate.value}> has a literal with an RDF 1.2 base direction ("${q.object.value.slice(0, 40)}"@${q.object.language}--${(q.object as RDF.Literal & { direction: string }).direction}), which a load over the Graph Store Protocol (RDF 1.1) cannot carry; nothing of this chunk was sent`,
      'serialization',
    );
  }
  if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') counts.blankNodeTriples++;
  else if (isSharedTriple(q)) {
    counts.sharedTriples++;
    counts.distinctShared.addQuad(q);
  }
  return q;
}

/** Whether a triple is one no other record repeats: no blank node, not of a shared entity. */
export function isOwnTriple(q: RDF.Quad): boolean {
  return q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode' && !isSharedTriple(q);
}

/** A triple as a chunk's probe: N-Triples without the final ` .`. */
export function probeOf(q: RDF.Quad): string {
  return writeTriples([q], '').replace(/\s*\.\n$/, '');
}
