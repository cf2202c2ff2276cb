import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { GraphStoreLoader, type GraphStoreLoaderOptions, type LoadSummary } from '../../src/store/GraphStoreLoader.js';
import { GspTestServer } from './GspTestServer.js';

const { namedNode, literal, quad, blankNode } = DataFactory;
const G = 'https://w3id.org/scholarly-rdf/graph/test';
const NAME = namedNode('http://schema.org/name');
const PAGE_START = namedNode('http://schema.org/pageStart');

/** `n` distinct triples, two per record, as a lazy async stream (like a parser's). */
async function* records(n: number, from = 0): AsyncGenerator<RDF.Quad> {
  for (let i = from; i < from + n; i++) {
    const s = namedNode(`https://doi.org/10.1007/s${Math.floor(i / 2)}`);
    yield i % 2 === 0 ? quad(s, NAME, literal(`Title ${i} "quoted" é`, 'en')) : quad(s, PAGE_START, literal(String(i)));
  }
}

const noSleep = { sleeps: [] as number[] };
const sleep = async (ms: number) => {
  noSleep.sleeps.push(ms);
};

let server: GspTestServer;
const dir = mkdtempSync(join(tmpdir(), 'gsp-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  server = await new GspTestServer().start();
  noSleep.sleeps = [];
});
afterEach(async () => server.stop());

function loader(options: Partial<GraphStoreLoaderOptions> = {}): GraphStoreLoader {
  return new GraphStoreLoader({
    endpoint: server.dataset,
    store: 'fuseki',
    graph: G,
    sleep,
    retry: { random: () => 0.5 },
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<ToolkitError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ToolkitError);
    return err as ToolkitError;
  }
  throw new Error('expected a rejection');
}

describe('GraphStoreLoader', () => {
  describe('load', () => {
    it('sends N-Triples chunks of chunkTriples to the named graph and checks the count', async () => {
      const summary = await loader({ chunkTriples: 500 }).load(records(1234));
      expect(server.writes.map((w) => w.triples)).toEqual([500, 500, 234]);
      for (const w of server.writes) {
        expect(w.method).toBe('POST');
        expect(w.graph).toBe(G);
        expect(w.contentType).toBe('application/n-triples');
      }
      expect(server.graphSize(G)).toBe(1234);
      expect(summary).toMatchObject<Partial<LoadSummary>>({
        graph: G,
        triples: 1234,
        chunks: 3,
        chunksSkipped: 0,
        count: 1234,
        expectedCount: 1234,
        baseline: 0,
      });
      expect(summary.bytes).toBeGreaterThan(1234 * 40);
      const queries = server.requests.filter((r) => r.path === '/ds/query');
      expect(queries.map((q) => q.method)).toEqual(['GET', 'GET']); // baseline, final count: GET, never POST of a query
    });

    it('accepts a count without the repeats of shared entities (a journal in every record), and still finds a lost record triple', async () => {
      const journal = namedNode('https://w3id.org/scholarly-rdf/journal/11306');
      const withJournal = async function* (): AsyncGenerator<RDF.Quad> {
        for await (const q of records(600)) {
          yield q;
          // Every record names its journal again, in every chunk.
          yield quad(journal, NAME, literal('Metabolomics'));
        }
      };
      const summary = await loader({ chunkTriples: 250 }).load(withJournal());
      // Exact: the distinct triples read (the journal's one triple once), not a range.
      expect(summary).toMatchObject({
        totalTriples: 1200,
        distinctTriples: 601,
        exact: true,
        count: 601,
        expectedCount: 601,
        minimumCount: 601,
      });
      // A store that loses triples is still caught, the chunks named: a record's own triples are never repeated.
      server.loseTriples = 1;
      const err = await rejection(loader({ chunkTriples: 250, graph: `${G}/2` }).load(withJournal()));
      expect(err.code).toBe('count-mismatch');
      expect(err.message).toMatch(
        /holds 596 triples, 601 expected \(0 before the load \+ 601 distinct triples sent \(1200 statements, of which 600 of shared entities/,
      );
      expect(err.message).toContain('the store acknowledged and lost chunks 1, 2, 3, 4, 5');
    });

    it('sends Turtle chunks as text/turtle when asked', async () => {
      await loader({ chunkTriples: 300, chunkFormat: 'turtle' }).load(records(700));
      expect(server.writes.map((w) => [w.contentType, w.triples])).toEqual([
        ['text/turtle', 300],
        ['text/turtle', 300],
        ['text/turtle', 100],
      ]);
      expect(server.graphSize(G)).toBe(700);
    });

    it('accepts a synchronous iterable and an empty input', async () => {
      const quads: RDF.Quad[] = [];
      for await (const q of records(10)) quads.push(q);
      expect((await loader().load(quads)).count).toBe(10);
      const empty = await loader({ graph: `${G}/empty` }).load([]);
      expect(empty).toMatchObject({ triples: 0, chunks: 0, count: 0 });
      expect(server.writes).toHaveLength(1);
    });

    it('puts quads of named graphs into the target graph', async () => {
      const q = quad(namedNode('http://ex.org/a'), NAME, literal('a'), namedNode('http://ex.org/other'));
      const summary = await loader().load([q]);
      expect(summary.namedGraphQuads).toBe(1);
      expect(server.graphSize(G)).toBe(1);
    });

    it('counts triples with blank nodes (they cannot span chunks)', async () => {
      const summary = await loader().load([
        quad(blankNode('b1'), NAME, literal('x')),
        quad(namedNode('http://ex.org/a'), NAME, blankNode('b1')),
      ]);
      expect(summary.blankNodeTriples).toBe(2);
    });
  });

  describe('graph', () => {
    it('defaults to the dataset IRI in the first chunk + /graph', async () => {
      const dataset = namedNode('https://w3id.org/scholarly-rdf/dataset/d1');
      const input = [
        quad(
          dataset,
          namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'),
          namedNode('http://rdfs.org/ns/void#Dataset'),
        ),
        quad(namedNode('https://doi.org/10.1/x'), NAME, literal('x')),
      ];
      const summary = await loader({ graph: undefined, fallbackGraph: `${G}/fallback` }).load(input);
      expect(summary.graph).toBe('https://w3id.org/scholarly-rdf/dataset/d1/graph');
      expect(server.writes[0]!.graph).toBe('https://w3id.org/scholarly-rdf/dataset/d1/graph');
    });

    it('else uses the fallback, else asks for --graph', async () => {
      expect((await loader({ graph: undefined, fallbackGraph: `${G}/fallback` }).load(records(2))).graph).toBe(
        `${G}/fallback`,
      );
      const err = await rejection(loader({ graph: undefined }).load(records(2)));
      expect(err.code).toBe('usage');
      expect(err.message).toMatch(/`graph`/);
    });
  });

  describe('replace', () => {
    it('drops the graph with DROP SILENT GRAPH (form POST) before the first chunk', async () => {
      server.graphs.set(G, new Set(['<http://ex.org/old> <http://ex.org/p> "old" .']));
      const summary = await loader({ replace: true }).load(records(5));
      const drop = server.requests.findIndex((r) => r.path === '/ds/update');
      expect(server.requests[drop]!.sparql).toBe(`DROP SILENT GRAPH <${G}>`);
      expect(server.requests[drop]!.contentType).toBe('application/x-www-form-urlencoded');
      expect(drop).toBeLessThan(server.requests.indexOf(server.writes[0]!));
      expect(summary).toMatchObject({ replaced: true, baseline: 0, count: 5 });
      expect(server.graphSize(G)).toBe(5);
    });

    it('without replace, adds to the graph and expects baseline + sent', async () => {
      server.graphs.set(G, new Set(['<http://ex.org/old> <http://ex.org/p> "old" .']));
      const summary = await loader().load(records(5));
      expect(summary).toMatchObject({ replaced: false, baseline: 1, count: 6, expectedCount: 6 });
      expect(server.requests.some((r) => r.path === '/ds/update')).toBe(false);
    });

    it('uses a Graph Store DELETE on a generic store without an Update endpoint (404 is fine)', async () => {
      const summary = await new GraphStoreLoader({
        endpoint: `${server.baseUrl}/ds/data`,
        store: 'generic',
        graph: G,
        replace: true,
      }).load(records(3));
      expect(server.requests[0]).toMatchObject({ method: 'DELETE', path: '/ds/data', graph: G, status: 404 });
      expect(summary.count).toBeUndefined(); // no Query endpoint known: not checked
      expect(server.graphSize(G)).toBe(3);
    });
  });

  describe('retries', () => {
    it('retries 503 and 429 after Retry-After, 500 and a dropped connection with backoff, then goes on', async () => {
      server.faults.push(
        { status: 503, headers: { 'retry-after': '2' } },
        { status: 429, headers: { 'retry-after': '0' } },
        { status: 500 },
        'reset',
      );
      const retries: string[] = [];
      const summary = await loader({ chunkTriples: 10, onRetry: (e) => retries.push(e.reason) }).load(records(25));
      expect(summary.count).toBe(25);
      // Retry-After 2 s and 0 s; then backoff for tries 3 and 4 of the same chunk: 0.5 s * 2^(n-1), half fixed + half jitter (0.5)
      expect(noSleep.sleeps).toEqual([2000, 0, 1500, 3000]);
      expect(retries).toEqual(['503 busy', '429 busy', '500 server error', expect.stringMatching(/^network/)]);
      expect(server.writes.filter((w) => w.status === 201 || w.status === 204).map((w) => w.triples)).toEqual([
        10, 10, 5,
      ]);
    });

    it("stops on a 400 without retrying, with the store's message", async () => {
      server.faults.push({ status: 400, body: 'SP029: TURTLE RDF loader, line 1: syntax error' });
      const err = await rejection(loader().load(records(3)));
      expect(err.code).toBe('http-status');
      expect(err.message).toContain('SP029');
      expect(server.writes).toHaveLength(1);
    });

    it('stops with http-status when 5xx persists through the retries', async () => {
      for (let i = 0; i < 3; i++) server.faults.push({ status: 502 });
      const err = await rejection(loader({ retry: { retries: 2, random: () => 0 } }).load(records(3)));
      expect(err.code).toBe('http-status');
      expect(err.message).toMatch(/502 after 3 tries/);
    });

    it('explains a 403 (no write rights)', async () => {
      server.faults.push({ status: 403 });
      const err = await rejection(loader().load(records(3)));
      expect(err.code).toBe('auth');
      expect(err.message).toMatch(/GRANT SPARQL_UPDATE/);
    });
  });

  describe('resume', () => {
    it('continues after the last acknowledged chunk without sending any twice', async () => {
      const state = join(dir, 'resume.json');
      // The connection fails for good on chunk 3 of 5: the first run stops with chunks 1-2 acknowledged.
      let calls = 0;
      const failingThird = new GraphStoreLoader({
        endpoint: server.dataset,
        graph: G,
        chunkTriples: 100,
        statePath: state,
        inputs: [{ path: 'dump.nt', size: 1, mtimeMs: 1 }],
        sleep,
        retry: { retries: 0 },
        fetch: async (url, init) => {
          if (init?.method === 'POST' && String(url).includes('/data') && ++calls === 3)
            throw new TypeError('fetch failed');
          return fetch(url, init);
        },
      });
      const err = await rejection(failingThird.load(records(450)));
      expect(err.code).toBe('network');
      const logged = JSON.parse(readFileSync(state, 'utf8'));
      expect(logged).toMatchObject({ graph: G, chunksAcked: 2, triplesAcked: 200, complete: false });
      expect(JSON.stringify(logged)).not.toMatch(/password/i);
      const sentFirst = server.writes.map((w) => w.firstTriple);

      const summary = await loader({
        chunkTriples: 100,
        statePath: state,
        resume: true,
        inputs: [{ path: 'dump.nt', size: 1, mtimeMs: 1 }],
      }).load(records(450));
      const sentSecond = server.writes.map((w) => w.firstTriple).slice(sentFirst.length);
      expect(sentSecond).toHaveLength(3);
      expect(new Set([...sentFirst, ...sentSecond]).size).toBe(5); // every chunk once
      expect(summary).toMatchObject({ triples: 250, chunks: 3, chunksSkipped: 2, totalTriples: 450, count: 450 });
      expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ chunksAcked: 5, complete: true });

      // A finished load resumed again sends nothing and still checks the count.
      const again = await loader({
        chunkTriples: 100,
        statePath: state,
        resume: true,
        inputs: [{ path: 'dump.nt', size: 1, mtimeMs: 1 }],
      }).load(records(450));
      expect(again).toMatchObject({ chunks: 0, chunksSkipped: 5, count: 450 });
    });

    it('does not drop the graph again when resuming a --replace load', async () => {
      const state = join(dir, 'replace.json');
      let calls = 0;
      const failing = loader({
        chunkTriples: 10,
        replace: true,
        statePath: state,
        retry: { retries: 0 },
        fetch: async (url, init) => {
          if (init?.method === 'POST' && String(url).includes('/data') && ++calls === 2)
            throw new TypeError('fetch failed');
          return fetch(url, init);
        },
      });
      await rejection(failing.load(records(30)));
      const summary = await loader({ chunkTriples: 10, replace: true, statePath: state, resume: true }).load(
        records(30),
      );
      expect(server.requests.filter((r) => r.path === '/ds/update')).toHaveLength(1);
      expect(summary).toMatchObject({ replaced: true, count: 30, chunksSkipped: 1 });
    });

    it('refuses to resume a different load', async () => {
      const state = join(dir, 'other.json');
      await loader({ chunkTriples: 10, statePath: state, inputs: [{ path: 'a.nt', size: 5, mtimeMs: 1 }] }).load(
        records(20),
      );
      const changedChunks = await rejection(
        loader({
          chunkTriples: 20,
          statePath: state,
          resume: true,
          inputs: [{ path: 'a.nt', size: 5, mtimeMs: 1 }],
        }).load(records(20)),
      );
      expect(changedChunks.code).toBe('state-mismatch');
      expect(changedChunks.message).toMatch(/`chunkTriples` 10 vs 20/);
      const changedFile = await rejection(
        loader({
          chunkTriples: 10,
          statePath: state,
          resume: true,
          inputs: [{ path: 'a.nt', size: 6, mtimeMs: 1 }],
        }).load(records(20)),
      );
      expect(changedFile.message).toMatch(/input files/);
    });
  });

  describe('authentication', () => {
    it('answers a Digest challenge and reuses the nonce for later requests', async () => {
      server.auth = { scheme: 'digest', user: 'loader', password: 's3cret' };
      const summary = await loader({ chunkTriples: 10, credentials: { user: 'loader', password: 's3cret' } }).load(
        records(40),
      );
      expect(summary.count).toBe(40);
      const refused = server.requests.filter((r) => r.status === 401);
      expect(refused).toHaveLength(1); // only the very first request is challenged
      expect(server.writes.filter((w) => w.status !== 401).every((w) => w.authorization?.startsWith('Digest '))).toBe(
        true,
      );
    });

    it('answers a Basic challenge', async () => {
      server.auth = { scheme: 'basic', user: 'loader', password: 's3cret' };
      expect((await loader({ credentials: { user: 'loader', password: 's3cret' } }).load(records(4))).count).toBe(4);
    });

    it('stops with auth on wrong credentials, without the password in the message', async () => {
      server.auth = { scheme: 'digest', user: 'loader', password: 's3cret' };
      const err = await rejection(
        loader({ credentials: { user: 'loader', password: 'wrong-pass-123' } }).load(records(4)),
      );
      expect(err.code).toBe('auth');
      expect(`${err.message} ${JSON.stringify(err.details)}`).not.toContain('wrong-pass-123');
      expect(err.message).toContain('the store refused the user and password given (401');
      const anonymous = await rejection(loader().load(records(4)));
      expect(anonymous.code).toBe('auth');
      expect(anonymous.message).toContain('the store wants a user and password (401');
    });
  });

  describe('count check', () => {
    it('fails with count-mismatch when the store holds fewer triples than sent, carrying the summary', async () => {
      server.loseTriples = 1;
      const err = await rejection(loader({ chunkTriples: 10 }).load(records(30)));
      expect(err.code).toBe('count-mismatch');
      expect(err.message).toMatch(/holds 27 triples, 30 expected/);
      expect((err.details['summary'] as LoadSummary).triples).toBe(30);
    });

    it('says why a graph loaded with replace may hold fewer triples than sent: the input repeats some', async () => {
      const quads: RDF.Quad[] = [];
      for await (const q of records(5)) quads.push(q);
      const err = await rejection(loader({ replace: true }).load([...quads, ...quads]));
      expect(err.code).toBe('count-mismatch');
      expect(err.message).toMatch(
        /holds 5 triples, 10 expected .*the input repeats triples that are not of shared entities \(a record, or a file, given twice\)/,
      );
    });

    it("reads Virtuoso's typed-literal counts", async () => {
      server.typedLiteralCounts = true;
      expect((await loader().load(records(7))).count).toBe(7);
    });
  });

  describe('concurrency', () => {
    it('keeps at most `concurrency` requests in flight and acknowledges in order', async () => {
      const state = join(dir, 'concurrency.json');
      let inFlight = 0;
      let most = 0;
      const acked: number[] = [];
      const summary = await loader({
        chunkTriples: 5,
        concurrency: 2,
        statePath: state,
        onChunk: (e) => acked.push(e.chunk),
        fetch: async (url, init) => {
          inFlight++;
          most = Math.max(most, inFlight);
          try {
            return await fetch(url, init);
          } finally {
            inFlight--;
          }
        },
      }).load(records(50));
      expect(summary.count).toBe(50);
      expect(most).toBe(2);
      expect(acked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });
  });
});
