import { isSharedEntityIri } from '../mapping/entityIris.js';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { abortError } from '../abort.js';
import type { RetryPolicy, RetryPolicyOptions } from '../client/RetryPolicy.js';
import { ToolkitError } from '../errors.js';
import { formatInfo } from '../formats.js';
import { serializerFor } from '../serialize/serializers.js';
import { countGraph, dropGraph } from './countGraph.js';
import { assertGraphIri, findDatasetIri, graphOfDataset } from './defaultGraph.js';
import { LoadLog, type LoadIdentity, type LoadInput } from './LoadLog.js';
import { storeEndpoints, type StoreEndpoints, type StoreKind } from './storeEndpoints.js';
import { StoreHttpClient, type StoreCredentials } from './StoreHttpClient.js';

/** Options of {@link GraphStoreLoader}. */
export interface GraphStoreLoaderOptions {
  /** The store's URL: Fuseki dataset, Virtuoso server, RDF4J repository, or (generic) the Graph Store URL. */
  endpoint: string;
  /** Which URL conventions `endpoint` follows ({@link storeEndpoints}). Defaults to `'fuseki'`. */
  store?: StoreKind;
  /**
   * The graph to load into. Defaults to the graph of the dump's dataset (a subject typed
   * `void:Dataset` or `dcat:Dataset` in the first chunk, + `/graph`), else `fallbackGraph`.
   */
  graph?: string;
  /** The graph when neither `graph` nor a dataset IRI is there (the CLI passes one derived from the file name). Defaults to none (an error). */
  fallbackGraph?: string;
  /** Empty the graph first (`DROP SILENT GRAPH`). Defaults to false (add to the graph). */
  replace?: boolean;
  /** Triples per request. Defaults to 50000. */
  chunkTriples?: number;
  /** The syntax of the chunks: `'ntriples'` or `'turtle'`. Defaults to `'ntriples'`. */
  chunkFormat?: 'ntriples' | 'turtle';
  /** Requests in flight at once (the next chunk is prepared meanwhile). Defaults to 1. */
  concurrency?: number;
  /** User and password (Basic or Digest, as the store asks). Defaults to anonymous. */
  credentials?: StoreCredentials;
  /** SPARQL Query endpoint instead of the store's convention (needed for the count with `generic`). Defaults to the convention. */
  queryEndpoint?: string;
  /** SPARQL Update endpoint instead of the store's convention. Defaults to the convention (`generic`: Graph Store DELETE). */
  updateEndpoint?: string;
  /** The load log (state file) recording acknowledged chunks. Defaults to none (a load cannot be resumed). */
  statePath?: string;
  /** Continue the load recorded in `statePath` after its last acknowledged chunk. Defaults to false. */
  resume?: boolean;
  /** The input files, so that a resume of changed inputs is refused. Defaults to none. */
  inputs?: readonly LoadInput[];
  /** Check the graph's triple count at the end (needs a Query endpoint). Defaults to true. */
  checkCount?: boolean;
  /** The `fetch` to use. Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy or its options. Defaults to 5 retries, 0.5 s doubling with jitter, `Retry-After` up to 120 s. */
  retry?: RetryPolicy | RetryPolicyOptions;
  /** Waits between retries. Defaults to an abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Time limit of one request, ms. Defaults to 600000. */
  timeoutMs?: number;
  /** Told of each retry. Defaults to nothing. */
  onRetry?: (event: { what: string; attempt: number; delayMs: number; reason: string }) => void;
  /** Told of each acknowledged chunk. Defaults to nothing. */
  onChunk?: (event: { chunk: number; triples: number; totalTriples: number }) => void;
  /** Cancels the load (the log keeps what was acknowledged). Defaults to none. */
  signal?: AbortSignal;
}

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

const DEFAULT_CHUNK = 50_000;
/** Quads handed to the record writer at once (small groups write faster than one huge one). */
const GROUP = 1000;

/**
 * Loads a stream of quads into one named graph of a triple store over the
 * SPARQL 1.1 Graph Store HTTP Protocol: chunks of `chunkTriples` triples, each
 * POSTed as one N-Triples (or Turtle) document, written by the project's own
 * serialisers. The next chunk is parsed and written while the previous one
 * uploads. Resumable through a load log; the graph's `COUNT` is checked at the
 * end against what was sent (code `count-mismatch`).
 *
 * Quads of named graphs go into the target graph (the graph term is dropped).
 *
 * @example
 * const summary = await new GraphStoreLoader({ endpoint: 'http://localhost:3030/ds', graph, replace: true })
 *   .load(parseRdf(text, { format: 'turtle' }));
 */
export class GraphStoreLoader {
  private readonly options: GraphStoreLoaderOptions;
  private readonly client: StoreHttpClient;

  constructor(options: GraphStoreLoaderOptions) {
    const chunk = options.chunkTriples ?? DEFAULT_CHUNK;
    if (!Number.isInteger(chunk) || chunk < 1) throw new ToolkitError(`--chunk-triples must be a positive integer, not ${chunk}`, 'usage');
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new ToolkitError(`concurrency must be a positive integer, not ${concurrency}`, 'usage');
    if (options.graph !== undefined) assertGraphIri(options.graph);
    if (options.resume && !options.statePath) throw new ToolkitError('resume needs a load log (--state FILE)', 'usage');
    this.options = options;
    this.client = new StoreHttpClient({
      credentials: options.credentials,
      fetch: options.fetch,
      retry: options.retry,
      sleep: options.sleep,
      timeoutMs: options.timeoutMs,
      onRetry: options.onRetry,
    });
  }

  /** Loads the quads; resolves with the summary, or rejects (`count-mismatch` carries the summary in `details.summary`). */
  async load(quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>): Promise<LoadSummary> {
    const o = this.options;
    const signal = o.signal;
    const chunkTriples = o.chunkTriples ?? DEFAULT_CHUNK;
    const chunkFormat = o.chunkFormat ?? 'ntriples';
    const serializer = serializerFor(chunkFormat);
    const contentType = formatInfo(chunkFormat).mediaType;
    const concurrency = o.concurrency ?? 1;
    const started = performance.now();

    const iterator = (Symbol.asyncIterator in quads ? quads[Symbol.asyncIterator]() : (quads as Iterable<RDF.Quad>)[Symbol.iterator]()) as
      | AsyncIterator<RDF.Quad>
      | Iterator<RDF.Quad>;
    let blankNodeTriples = 0;
    let namedGraphQuads = 0;
    /** Triples of shared entities read (in every chunk, acknowledged or not): the input may repeat them. */
    let sharedTriples = 0;
    let inputDone = false;
    let datasetIri: string | undefined;
    /**
     * The next chunk of the input as the text of one document (`undefined` at the end),
     * written in groups of GROUP quads as they come: no chunk of quad objects is held.
     * `write: false` only counts (chunks acknowledged before a resume).
     */
    const nextChunk = async (write: boolean, lookForDataset = false): Promise<{ text: string; triples: number } | undefined> => {
      if (inputDone) return undefined;
      const writer = write ? serializer.createWriter() : undefined;
      const parts: string[] = writer ? [writer.start()] : [];
      let group: RDF.Quad[] = [];
      let triples = 0;
      while (triples < chunkTriples) {
        if (signal?.aborted) throw abortError(signal);
        const next = await iterator.next();
        if (next.done) {
          inputDone = true;
          break;
        }
        let q = next.value;
        if (q.graph.termType !== 'DefaultGraph') {
          namedGraphQuads++;
          q = DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object);
        }
        if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') blankNodeTriples++;
        else if (isSharedEntityIri(q.subject.value)) sharedTriples++;
        if (lookForDataset && datasetIri === undefined) datasetIri = findDatasetIri([q]);
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
    };

    // The first chunk decides the default graph (a dataset description in it).
    let pending = await nextChunk(true, o.graph === undefined);
    const graph = o.graph ?? (datasetIri !== undefined ? graphOfDataset(datasetIri) : o.fallbackGraph);
    if (!graph) {
      throw new ToolkitError('no graph to load into: pass --graph IRI (the dump has no void:Dataset or dcat:Dataset in its first chunk)', 'usage');
    }
    assertGraphIri(graph);
    const endpoints: StoreEndpoints = storeEndpoints(o.store ?? 'fuseki', o.endpoint, graph, {
      authenticated: o.credentials !== undefined,
      query: o.queryEndpoint,
      update: o.updateEndpoint,
    });
    const checkCount = (o.checkCount ?? true) && endpoints.query !== undefined;
    const identity: LoadIdentity = {
      graphStore: endpoints.graphStore,
      graph,
      chunkTriples,
      chunkFormat,
      inputs: o.inputs ?? [],
    };

    // The load log: a resumed one, or a new one.
    let log: LoadLog | undefined;
    let resumed = false;
    if (o.statePath && o.resume) {
      log = await LoadLog.open(o.statePath);
      if (log) {
        log.assertSameLoad(identity);
        resumed = true;
      }
    }
    if (resumed && o.replace && !log!.state.replaced && log!.state.chunksAcked > 0) {
      // Dropping now would delete the chunks the log says are in the store, and they would not be sent again.
      throw new ToolkitError(
        `the load being resumed did not replace the graph, and ${log!.state.chunksAcked} of its chunks are in the store: ` +
          'resume without --replace, or start again with --replace and without --resume',
        'usage',
      );
    }
    let replaced = resumed ? log!.state.replaced : false;
    if (o.replace && !replaced) {
      await dropGraph(this.client, endpoints, graph, signal);
      replaced = true;
    }
    let baseline: number;
    if (resumed) baseline = log!.state.baseline;
    else if (replaced || !checkCount) baseline = 0;
    else baseline = await countGraph(this.client, endpoints.query!, graph, signal);
    if (!log && o.statePath) log = await LoadLog.create(o.statePath, identity, baseline);
    if (replaced && log && !log.state.replaced) await log.markReplaced();

    // Chunks: skip those acknowledged before, send the rest, at most `concurrency` in flight.
    const skip = resumed ? log!.state.chunksAcked : 0;
    let ackedTriples = resumed ? log!.state.triplesAcked : 0;
    let chunkIndex = 0;
    let chunksSent = 0;
    let triplesSent = 0;
    let bytes = 0;
    const inflight: { promise: Promise<void>; triples: number; chunk: number }[] = [];
    const settleOldest = async () => {
      const oldest = inflight.shift()!;
      await oldest.promise;
      ackedTriples += oldest.triples;
      if (log) await log.ack(oldest.triples);
      o.onChunk?.({ chunk: oldest.chunk, triples: oldest.triples, totalTriples: ackedTriples });
    };
    try {
      while (pending) {
        const chunk = pending;
        chunkIndex++;
        if (chunkIndex <= skip) {
          pending = await nextChunk(chunkIndex + 1 > skip);
          continue;
        }
        // Read and written while the previous chunk uploads; sent when a request slot is free.
        const body = Buffer.from(chunk.text, 'utf8');
        pending = undefined;
        while (inflight.length >= concurrency) await settleOldest();
        const index = chunkIndex;
        const promise = this.client
          .request({
            method: 'POST',
            url: endpoints.graphStore,
            headers: { 'content-type': contentType },
            body,
            what: `POST of chunk ${index} (${chunk.triples} triples) to ${endpoints.graphStore}`,
            signal,
          })
          .then(() => undefined);
        promise.catch(() => undefined); // awaited in order by settleOldest; no unhandled rejection meanwhile
        inflight.push({ promise, triples: chunk.triples, chunk: index });
        chunksSent++;
        triplesSent += chunk.triples;
        bytes += body.length;
        pending = await nextChunk(true);
      }
      while (inflight.length > 0) await settleOldest();
    } catch (err) {
      await Promise.allSettled(inflight.map((f) => f.promise));
      throw err;
    }
    if (log) await log.markComplete();

    const durationMs = performance.now() - started;
    const summary: LoadSummary = {
      graph,
      graphStore: endpoints.graphStore,
      triples: triplesSent,
      chunks: chunksSent,
      chunksSkipped: Math.min(skip, chunkIndex),
      totalTriples: ackedTriples,
      bytes,
      durationMs,
      triplesPerSecond: durationMs > 0 ? Math.round((triplesSent * 1000) / durationMs) : 0,
      replaced,
      baseline,
      expectedCount: baseline + ackedTriples,
      // Shared entities' triples may all be repeats of one another: at least one of them is in the graph.
      minimumCount: baseline + ackedTriples - sharedTriples + Math.min(1, sharedTriples),
      blankNodeTriples,
      namedGraphQuads,
    };
    if (checkCount) {
      summary.count = await countGraph(this.client, endpoints.query!, graph, signal);
      if (summary.count < summary.minimumCount || summary.count > summary.expectedCount) {
        const expected = summary.minimumCount === summary.expectedCount ? `${summary.expectedCount}` : `${summary.minimumCount} to ${summary.expectedCount}`;
        throw new ToolkitError(
          `the graph <${graph}> holds ${summary.count} triples, ${expected} expected (${baseline} before the load + ${ackedTriples} sent` +
            `${sharedTriples ? `, ${sharedTriples} of them of shared entities that records repeat` : ''})` +
            (summary.count < summary.expectedCount
              ? replaced
                ? '; a triple repeated in the input (the same file given twice, a record twice) is counted once in a graph; if the input repeats none, triples were lost'
                : '; triples already in the graph or repeated in the input are counted once: load with --replace for an exact check'
              : '; something else wrote to the graph during the load'),
          'count-mismatch',
          { details: { summary, graph, count: summary.count, expected: summary.expectedCount } },
        );
      }
    }
    return summary;
  }
}
