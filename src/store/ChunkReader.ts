import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { DataFactory } from 'n3';
import { abortError } from '../abort.js';
import { isSharedEntityIri } from '../mapping/entityIris.js';
import type { QuadSerializer } from '../serialize/QuadSerializer.js';
import { findDatasetIri } from './defaultGraph.js';

/** Quads handed to the record writer at once (small groups write faster than one huge one). */
const GROUP = 1000;

/** One chunk of the input: the text of one document and its triples. */
export interface Chunk {
  text: string;
  triples: number;
}

/**
 * Cuts a stream of quads into chunks of `chunkTriples` triples, each the text of one document written in
 * groups of quads as they come (no chunk of quad objects is held), and counts what a load summary reports.
 * Quads of named graphs become triples of the default graph.
 */
export class ChunkReader {
  /** Triples that had a blank node. */
  blankNodeTriples = 0;
  /** Quads of a named graph in the input. */
  namedGraphQuads = 0;
  /** Triples of shared entities read (in every chunk, acknowledged or not): the input may repeat them. */
  sharedTriples = 0;
  /** The dataset IRI found in a chunk read with `lookForDataset`, if any. */
  datasetIri: string | undefined;
  private inputDone = false;
  private readonly iterator: AsyncIterator<RDF.Quad> | Iterator<RDF.Quad>;

  constructor(
    quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>,
    private readonly serializer: QuadSerializer,
    private readonly chunkTriples: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.iterator = (Symbol.asyncIterator in quads ? quads[Symbol.asyncIterator]() : (quads as Iterable<RDF.Quad>)[Symbol.iterator]()) as
      | AsyncIterator<RDF.Quad>
      | Iterator<RDF.Quad>;
  }

  /**
   * The next chunk (`undefined` at the end). `write: false` only counts (chunks acknowledged before a resume);
   * `lookForDataset` looks for a dataset description ({@link findDatasetIri}) in it.
   */
  async next(write: boolean, lookForDataset = false): Promise<Chunk | undefined> {
    if (this.inputDone) return undefined;
    const writer = write ? this.serializer.createWriter() : undefined;
    const parts: string[] = writer ? [writer.start()] : [];
    let group: RDF.Quad[] = [];
    let triples = 0;
    while (triples < this.chunkTriples) {
      if (this.signal?.aborted) throw abortError(this.signal);
      const next = await this.iterator.next();
      if (next.done) {
        this.inputDone = true;
        break;
      }
      const q = this.count(next.value);
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
    return { text: parts.join(''), triples };
  }

  /** Counts a quad; a quad of a named graph comes back as a triple. */
  private count(quad: RDF.Quad): RDF.Quad {
    let q = quad;
    if (q.graph.termType !== 'DefaultGraph') {
      this.namedGraphQuads++;
      q = DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object);
    }
    if (q.object.termType === 'Literal' && (q.object as RDF.Literal & { direction?: string | null }).direction) {
      // Never dropped on the way: the chunks are RDF 1.1 N-Triples or Turtle, which stores read and which have no base direction.
      throw new ToolkitError(
        `<${q.subject.value}> <${q.predicate.value}> has a literal with an RDF 1.2 base direction ("${q.object.value.slice(0, 40)}"@${q.object.language}--${(q.object as RDF.Literal & { direction: string }).direction}), which a load over the Graph Store Protocol (RDF 1.1) cannot carry; nothing of this chunk was sent`,
        'serialization',
      );
    }
    if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') this.blankNodeTriples++;
    else if (isSharedEntityIri(q.subject.value)) this.sharedTriples++;
    return q;
  }
}
