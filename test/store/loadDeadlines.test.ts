import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { GraphStoreLoader, type GraphStoreLoaderOptions } from '../../src/store/GraphStoreLoader.js';
import { NTriplesChunkReader, type LoadSource } from '../../src/store/NTriplesChunkReader.js';
import { GspTestServer } from './GspTestServer.js';

const G = 'https://w3id.org/scholarly-rdf/graph/deadline';
const dir = mkdtempSync(join(tmpdir(), 'load-deadline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: GspTestServer;
beforeEach(async () => {
  server = await new GspTestServer().start();
});
afterEach(async () => server.stop());

function loader(options: Partial<GraphStoreLoaderOptions> = {}): GraphStoreLoader {
  return new GraphStoreLoader({
    endpoint: server.dataset,
    store: 'fuseki',
    graph: G,
    retry: { retries: 3 },
    sleep: async () => undefined,
    ...options,
  });
}

function ntriples(n: number, bad?: number): string {
  let text = '';
  for (let i = 1; i <= n; i++)
    text +=
      i === bad
        ? `<https://doi.org/10.1/s${i}> <http://schema.org/name> "broken .\n`
        : `<https://doi.org/10.1/s${i}> <http://schema.org/name> "T${i}" .\n`;
  return text;
}

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}

function reader(text: string, chunkTriples: number): NTriplesChunkReader {
  const source: LoadSource = { kind: 'lines', source: 'dump.nt', bytes: once(text), nquads: false };
  return new NTriplesChunkReader([source], { chunkTriples });
}

/** The error a promise fails with (a failure when it does not). */
async function rejection(promise: Promise<unknown>): Promise<ToolkitError> {
  const outcome = await promise.then(
    () => new Error('expected a rejection'),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ToolkitError);
  return outcome as ToolkitError;
}

describe('a count that does not answer', () => {
  it('ends the load within its deadline, saying what was loaded and how to count by hand; the data is acknowledged', async () => {
    server.silentQueries = true;
    const state = join(dir, 'silent.json');
    const err = await rejection(
      loader({ replace: true, chunkTriples: 2, statePath: state, countTimeoutMs: 300 }).loadChunks(
        reader(ntriples(5), 2),
      ),
    );
    expect(err.code).toBe('network');
    expect(err.message).toMatch(
      /^5 triples loaded and acknowledged; the count did not answer in 0\.3 s; check it with curl -G '.*\/ds\/query'/,
    );
    expect(err.message).toContain(`--data-urlencode 'query=SELECT (COUNT(*) AS ?n) FROM <${G}> WHERE { ?s ?p ?o }'`);
    expect(err.message).toContain('(5 expected)');
    expect(err.details).toMatchObject({ countTimedOut: true, summary: { totalTriples: 5, chunks: 3 } });
    // Asked once, never again (no retry of a count that ran out of time).
    expect(server.requests.filter((r) => r.path === '/ds/query')).toHaveLength(1);
    expect(server.graphSize(G)).toBe(5);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ chunksAcked: 3, triplesAcked: 5, complete: true });
  });

  it('before the load, ends it with nothing sent', async () => {
    server.silentQueries = true;
    const err = await rejection(loader({ chunkTriples: 2, countTimeoutMs: 200 }).loadChunks(reader(ntriples(3), 2)));
    expect(err.code).toBe('network');
    expect(err.message).toContain('before the load did not answer in 0.2 s; nothing was sent');
    expect(server.writes).toHaveLength(0);
  });

  it('a chunk that does not answer is tried again by the retry policy, within its own deadline', async () => {
    let calls = 0;
    const summary = await loader({
      replace: true,
      chunkTriples: 10,
      timeoutMs: 200,
      fetch: async (url, init) => {
        // The first upload hangs until its deadline aborts it.
        if (init?.method === 'POST' && String(url).includes('/data') && ++calls === 1) {
          return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
        }
        return fetch(url, init);
      },
    }).loadChunks(reader(ntriples(3), 10));
    expect(summary).toMatchObject({ triples: 3, count: 3 });
  });
});

describe('a bad line', () => {
  it('is reported by file and line after the chunks before it that the store acknowledged are recorded', async () => {
    const state = join(dir, 'bad.json');
    // Chunk 1 is in flight while chunk 2 is read and found bad.
    const err = await rejection(
      loader({ replace: true, chunkTriples: 3, concurrency: 2, statePath: state }).loadChunks(
        reader(ntriples(8, 5), 3),
      ),
    );
    expect(err.code).toBe('parse');
    expect(err.message).toMatch(/^dump\.nt:5/);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ chunksAcked: 1, triplesAcked: 3 });
    expect(server.graphSize(G)).toBe(3);
  });
});
