import type * as RDF from '@rdfjs/types';
import { ToolkitError } from '../errors.js';
import { formatInfo } from '../formats.js';
import { serializerFor } from '../serialize/serializers.js';
import { assertCount } from './assertCount.js';
import type { GraphStoreLoaderOptions } from './GraphStoreLoaderOptions.js';
import type { LoadSummary } from './LoadSummary.js';
import { countDeadlineError, countGraph, countQuery, dropGraph, graphHasTriple } from './countGraph.js';
import { ChunkReader, type Chunk, type ChunkSource } from './ChunkReader.js';
import { assertGraphIri, graphOfDataset } from './defaultGraph.js';
import { LoadLog, type LoadIdentity } from './LoadLog.js';
import { storeEndpoints, type StoreEndpoints } from './storeEndpoints.js';
import { StoreHttpClient, isDeadlineError } from './StoreHttpClient.js';

export type { GraphStoreLoaderOptions } from './GraphStoreLoaderOptions.js';
export type { LoadSummary } from './LoadSummary.js';

const DEFAULT_CHUNK = 50_000;
const DEFAULT_COUNT_TIMEOUT_MS = 120_000;

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
  private logPath: string | undefined;

  constructor(options: GraphStoreLoaderOptions) {
    const chunk = options.chunkTriples ?? DEFAULT_CHUNK;
    if (!Number.isInteger(chunk) || chunk < 1)
      throw new ToolkitError(`\`chunkTriples\` must be a positive integer, not ${chunk}`, 'usage');
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ToolkitError(`concurrency must be a positive integer, not ${concurrency}`, 'usage');
    if (options.graph !== undefined) assertGraphIri(options.graph);
    if (options.resume && !options.statePath && !options.statePathOf)
      throw new ToolkitError('`resume` needs a load log (`statePath`)', 'usage');
    this.options = options;
    this.client = new StoreHttpClient({
      credentials: options.credentials,
      fetch: options.fetch,
      retry: options.retry,
      sleep: options.sleep,
      timeoutMs: options.timeoutMs,
      onRetry: options.onRetry,
      onRequest: options.onRequest,
    });
  }

  /** The load log's path, once the graph is known (`statePath`, or `statePathOf` the graph). */
  get statePath(): string | undefined {
    return this.logPath ?? this.options.statePath;
  }

  /** Loads the quads; resolves with the summary, or rejects (`count-mismatch` carries the summary in `details.summary`). */
  async load(quads: AsyncIterable<RDF.Quad> | Iterable<RDF.Quad>): Promise<LoadSummary> {
    const o = this.options;
    const chunkFormat = o.chunkFormat ?? 'ntriples';
    return this.loadChunks(
      new ChunkReader(quads, serializerFor(chunkFormat), o.chunkTriples ?? DEFAULT_CHUNK, o.signal),
    );
  }

  /**
   * Loads the chunks of a reader (an {@link NTriplesChunkReader} of N-Triples lines as they are, say), which
   * cuts them at `chunkTriples` and writes them in `chunkFormat`; as {@link load}.
   */
  async loadChunks(reader: ChunkSource): Promise<LoadSummary> {
    const o = this.options;
    const chunkTriples = o.chunkTriples ?? DEFAULT_CHUNK;
    const chunkFormat = o.chunkFormat ?? 'ntriples';
    const contentType = formatInfo(chunkFormat).mediaType;
    const started = performance.now();

    // The first chunk decides the default graph (a dataset description in it).
    const first = await reader.next(true, o.graph === undefined);
    const graph = o.graph ?? (reader.datasetIri !== undefined ? graphOfDataset(reader.datasetIri) : o.fallbackGraph);
    if (!graph) {
      throw new ToolkitError(
        'no graph to load into: give one (`graph`) (the dump has no void:Dataset or dcat:Dataset in its first chunk)',
        'usage',
      );
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
    const start = await this.startLoad(identity, endpoints, checkCount);
    const sent = await this.sendChunks(reader, first, endpoints, contentType, start);
    if (start.log) await start.log.markComplete();

    const durationMs = performance.now() - started;
    const { baseline, replaced } = start;
    const { ackedTriples, triplesSent } = sent;
    const sharedTriples = reader.sharedTriples;
    const distinctTriples = ackedTriples - sharedTriples + reader.distinctShared.size;
    const summary: LoadSummary = {
      graph,
      graphStore: endpoints.graphStore,
      triples: triplesSent,
      chunks: sent.chunksSent,
      chunksSkipped: Math.min(start.skip, sent.chunkIndex),
      totalTriples: ackedTriples,
      bytes: sent.bytes,
      durationMs,
      triplesPerSecond: durationMs > 0 ? Math.round((triplesSent * 1000) / durationMs) : 0,
      replaced,
      baseline,
      distinctTriples,
      exact: baseline === 0,
      expectedCount: baseline + distinctTriples,
      minimumCount: baseline === 0 ? distinctTriples : Math.max(baseline, distinctTriples),
      blankNodeTriples: reader.blankNodeTriples,
      namedGraphQuads: reader.namedGraphQuads,
    };
    if (checkCount) {
      summary.count = await this.finalCount(endpoints.query!, summary);
      // Into a graph that held triples the count only bounds the load: each chunk's probe triple is asked for too.
      if (summary.count < summary.minimumCount || !summary.exact)
        summary.missingChunks = await this.missingChunks(endpoints.query!, graph, sent.probes);
      assertCount(summary, sharedTriples);
    }
    return summary;
  }

  /** The graph's count at the end; one that does not answer in `countTimeoutMs` ends the load saying what was loaded. */
  private async finalCount(queryEndpoint: string, summary: LoadSummary): Promise<number> {
    const o = this.options;
    const timeoutMs = o.countTimeoutMs ?? DEFAULT_COUNT_TIMEOUT_MS;
    try {
      return await countGraph(this.client, queryEndpoint, summary.graph, o.signal, timeoutMs);
    } catch (err) {
      if (!isDeadlineError(err)) throw err;
      const { minimumCount: min, expectedCount: max } = summary;
      throw countDeadlineError(err, {
        triples: summary.totalTriples,
        graph: summary.graph,
        queryEndpoint,
        timeoutMs,
        expected: min === max ? `${max}` : `${min} to ${max}`,
        details: { summary },
      });
    }
  }

  /**
   * The chunks whose probe triple the graph lacks (each asked with ASK); undefined when the store cannot be
   * asked (an ASK it refuses): the count alone then says triples are missing.
   */
  private async missingChunks(
    queryEndpoint: string,
    graph: string,
    probes: ReadonlyMap<number, string>,
  ): Promise<{ chunk: number; probe: string }[] | undefined> {
    const missing: { chunk: number; probe: string }[] = [];
    try {
      for (const [chunk, probe] of probes) {
        if (!(await graphHasTriple(this.client, queryEndpoint, graph, probe, this.options.signal)))
          missing.push({ chunk, probe });
      }
    } catch (err) {
      if (err instanceof ToolkitError && err.code === 'aborted') throw err;
      return undefined;
    }
    return missing;
  }

  /** The load log (a resumed one, or a new one), the graph emptied if asked, and the count before the load. */
  private async startLoad(identity: LoadIdentity, endpoints: StoreEndpoints, checkCount: boolean): Promise<LoadStart> {
    const o = this.options;
    const { graph } = identity;
    let log: LoadLog | undefined;
    let resumed = false;
    const statePath = o.statePath ?? o.statePathOf?.(graph);
    this.logPath = statePath;
    if (statePath && o.resume) {
      log = await LoadLog.open(statePath);
      if (log) {
        log.assertSameLoad(identity);
        resumed = true;
      } else {
        o.onNothingToResume?.(statePath);
      }
    }
    if (resumed && o.replace && !log!.state.replaced && log!.state.chunksAcked > 0) {
      // Dropping now would delete the chunks the log says are in the store, and they would not be sent again.
      throw new ToolkitError(
        `the load being resumed did not replace the graph, and ${log!.state.chunksAcked} of its chunks are in the store: ` +
          'resume without `replace`, or start again with `replace` and without `resume`',
        'usage',
      );
    }
    let replaced = resumed ? log!.state.replaced : false;
    if (o.replace && !replaced) {
      await dropGraph(this.client, endpoints, graph, o.signal);
      replaced = true;
    }
    let baseline: number;
    if (resumed) baseline = log!.state.baseline;
    else if (replaced || !checkCount) baseline = 0;
    else baseline = await this.countBefore(endpoints.query!, graph);
    if (!log && statePath) log = await LoadLog.create(statePath, identity, baseline);
    if (replaced && log && !log.state.replaced) await log.markReplaced();
    return {
      log,
      replaced,
      baseline,
      skip: resumed ? log!.state.chunksAcked : 0,
      ackedTriples: resumed ? log!.state.triplesAcked : 0,
    };
  }

  /** The graph's count before the load (nothing sent yet); one that does not answer in `countTimeoutMs` ends it. */
  private async countBefore(queryEndpoint: string, graph: string): Promise<number> {
    const timeoutMs = this.options.countTimeoutMs ?? DEFAULT_COUNT_TIMEOUT_MS;
    try {
      return await countGraph(this.client, queryEndpoint, graph, this.options.signal, timeoutMs);
    } catch (err) {
      if (!isDeadlineError(err)) throw err;
      throw new ToolkitError(
        `the count of <${graph}> before the load did not answer in ${timeoutMs / 1000} s; nothing was sent. ` +
          'Load with `replace` (no count before), without the count check, or with a longer `countTimeoutMs`',
        'network',
        { cause: err, details: { countTimedOut: true, query: countQuery(graph) } },
      );
    }
  }

  /** Skips the chunks acknowledged before, sends the rest, at most `concurrency` in flight, each acknowledged in order. */
  private async sendChunks(
    reader: ChunkSource,
    first: Chunk | undefined,
    endpoints: StoreEndpoints,
    contentType: string,
    start: LoadStart,
  ): Promise<ChunksSent> {
    const o = this.options;
    const concurrency = o.concurrency ?? 1;
    const { log, skip } = start;
    const sent: ChunksSent = {
      ackedTriples: start.ackedTriples,
      chunkIndex: 0,
      chunksSent: 0,
      triplesSent: 0,
      bytes: 0,
      probes: new Map(),
    };
    const inflight: { promise: Promise<void>; triples: number; chunk: number }[] = [];
    const settleOldest = async () => {
      const oldest = inflight.shift()!;
      await oldest.promise;
      sent.ackedTriples += oldest.triples;
      if (log) await log.ack(oldest.triples);
      o.onChunk?.({ chunk: oldest.chunk, triples: oldest.triples, totalTriples: sent.ackedTriples });
    };
    let readFailed = false;
    const read = async (write: boolean) => {
      try {
        return await reader.next(write);
      } catch (err) {
        readFailed = true;
        throw err;
      }
    };
    let pending = first;
    try {
      while (pending) {
        const chunk = pending;
        sent.chunkIndex++;
        if (chunk.probe !== undefined) sent.probes.set(sent.chunkIndex, chunk.probe);
        if (sent.chunkIndex <= skip) {
          chunk.release?.();
          pending = await read(sent.chunkIndex + 1 > skip);
          continue;
        }
        // Read while the previous chunk uploads; sent when a request slot is free.
        const body = chunk.body;
        pending = undefined;
        while (inflight.length >= concurrency) await settleOldest();
        const index = sent.chunkIndex;
        const promise = this.client
          .request({
            method: 'POST',
            url: endpoints.graphStore,
            headers: { 'content-type': contentType },
            body,
            what: `POST of chunk ${index} (${chunk.triples} triples) to ${endpoints.graphStore}`,
            signal: o.signal,
          })
          .then(() => undefined);
        promise.catch(() => undefined); // awaited in order by settleOldest; no unhandled rejection meanwhile
        if (chunk.release) promise.then(chunk.release, chunk.release);
        inflight.push({ promise, triples: chunk.triples, chunk: index });
        sent.chunksSent++;
        sent.triplesSent += chunk.triples;
        sent.bytes += body.length;
        pending = await read(true);
      }
      while (inflight.length > 0) await settleOldest();
    } catch (err) {
      // The input failed (a bad line): the chunks in flight that the store acknowledges are recorded, in order, first.
      while (readFailed && inflight.length > 0) {
        if (
          !(await settleOldest().then(
            () => true,
            () => false,
          ))
        )
          break;
      }
      await Promise.allSettled(inflight.map((f) => f.promise));
      throw err;
    }
    return sent;
  }
}

/** Where a load starts: its log, whether the graph was emptied, the count before, what an earlier run acknowledged. */
interface LoadStart {
  log: LoadLog | undefined;
  replaced: boolean;
  baseline: number;
  /** Chunks acknowledged by an earlier run (resume). */
  skip: number;
  /** Triples acknowledged by an earlier run (resume). */
  ackedTriples: number;
}

/** What {@link GraphStoreLoader.sendChunks} did. */
interface ChunksSent {
  /** Triples of the whole load acknowledged (earlier runs included). */
  ackedTriples: number;
  /** Chunks read, skipped ones included. */
  chunkIndex: number;
  chunksSent: number;
  triplesSent: number;
  bytes: number;
  /** A probe triple of each chunk (by its 1-based number) that has one: see `Chunk.probe`. */
  probes: Map<number, string>;
}
