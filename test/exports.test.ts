import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { parseNTriples } from './helpers/rdf.js';
import { GspTestServer } from './store/GspTestServer.js';
import { tempDir } from './helpers/tempDir.js';

// The public surface, pinned: adding a name is a decision (write it here), removing one breaks users.
const PUBLIC_NAMES = [
  // the jobs
  'exportDump',
  'convertFiles',
  'validateDump',
  'loadDump',
  'bulkLoad',
  'upsertDump',
  'fetchTerm',
  'startServer',
  'sampleCatalogueOptions',
  'recordRdf',
  // records in, quads out
  'readRecords',
  'normalizeRecord',
  'mapRecord',
  'RecordSink',
  'createRecordValidation',
  // harvest
  'ApiClient',
  'harvest',
  // RDF
  'FORMATS',
  'serializerFor',
  'QuadStreamSerializer',
  'parseRdf',
  // errors
  'ToolkitError',
  'MappingError',
  'ParseError',
  'HttpError',
  'ERROR_CODES',
  'exitCodeFor',
].sort();

describe('the public API', () => {
  it('exports exactly the pinned names, and no CLI', () => {
    expect(Object.keys(api).sort()).toEqual(PUBLIC_NAMES);
    expect(Object.keys(api)).not.toContain('main');
    expect(Object.keys(api)).not.toContain('run');
  });

  it('maps a record to quads through the public surface alone', () => {
    const { quads, subject } = api.mapRecord(api.normalizeRecord({ doi: '10.1007/s11306-017-1242-7', title: 'T' }));
    expect(subject.value).toBe('https://doi.org/10.1007/s11306-017-1242-7');
    const writer = api.serializerFor('ntriples').createWriter();
    expect(writer.write(quads)).toContain('<https://doi.org/10.1007/s11306-017-1242-7> <http://schema.org/name> "T" .');
  });
});

describe('each job is one call of the public API', () => {
  const dir = tempDir('public-api-');
  let store: GspTestServer;
  beforeAll(async () => {
    store = await new GspTestServer().start();
  });
  afterAll(() => store.stop());

  it('exportDump harvests the bundled sample into a dump and loads it (exportDump → loadDump)', async () => {
    const output = join(dir, 'journal.nt');
    const graph = 'https://example.org/graph/public';
    const summary = await api.exportDump({
      query: 'type:Journal',
      sample: true,
      output,
      load: { endpoint: store.dataset, graph, replace: true, cwd: dir },
    });
    expect(summary.counts.records).toBeGreaterThan(100);
    expect(summary.counts.rejects).toBe(0);
    const distinct = new Set(
      parseNTriples(readFileSync(output, 'utf8')).map(
        (q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`,
      ),
    );
    expect(summary.load?.count).toBe(distinct.size);
    expect(store.graphSize(graph)).toBe(distinct.size);
  });

  it('convertFiles maps saved records, and every record is written or rejected with a reason', async () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      '{"doi":"10.1000/a","title":"A"}\n{"title":"no DOI"}\n{"doi":"10.1000/A","title":"same DOI"}\n',
    );
    const rejected: api.Rejection[] = [];
    const summary = await api.convertFiles({
      inputs: [input],
      output: join(dir, 'out.ttl'),
      onRejected: (r) => rejected.push(r),
    });
    expect(summary).toMatchObject({
      read: 3,
      mapped: 1,
      rejected: 2,
      format: 'turtle',
      rejectsPath: join(dir, 'out.ttl.rejects.jsonl'),
    });
    expect(rejected.map((r) => [r.index, r.code, r.field])).toEqual([
      [2, 'record-invalid', 'doi'],
      [3, 'duplicate-doi', 'doi'],
    ]);
    const lines = readFileSync(summary.rejectsPath!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as api.Rejection);
    expect(lines.map((l) => l.code)).toEqual(['record-invalid', 'duplicate-doi']);
    expect(lines[1]!.record).toEqual({ doi: '10.1000/A', title: 'same DOI' });
  });

  it('validateDump checks a dump against the shipped shapes', async () => {
    const dump = join(dir, 'v.nt');
    await api.convertFiles({ inputs: [join(dir, 'in.jsonl')], output: dump });
    const good = await api.validateDump({ files: [dump] });
    expect(good).toMatchObject({ conforms: true, jobs: 1 });
    expect(good.summary.records).toBe(1);
    writeFileSync(
      join(dir, 'bad.nt'),
      '<https://doi.org/10.1/x> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/ScholarlyArticle> .\n',
    );
    expect((await api.validateDump({ files: [join(dir, 'bad.nt')] })).conforms).toBe(false);
  });

  it('validateDump never writes its report over an input', async () => {
    const dump = join(dir, 'report-over.nt');
    writeFileSync(dump, '<https://doi.org/10.1/x> <http://schema.org/name> "x" .\n');
    const before = readFileSync(dump);
    await expect(api.validateDump({ files: [dump], reportPath: dump })).rejects.toMatchObject({ code: 'usage' });
    expect(readFileSync(dump)).toEqual(before);
  });

  it('startServer serves the sample catalogue and the vocabulary term, which fetchTerm gets in each format', async () => {
    const server = await api.startServer({ host: '127.0.0.1', port: 0 });
    try {
      const page = (await (await fetch(`${server.url}/meta/v2/json?q=type:Journal&p=2&api_key=sample`)).json()) as {
        records: unknown[];
      };
      expect(page.records).toHaveLength(2);
      const graphs = [];
      for (const accept of ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml']) {
        const term = await api.fetchTerm('pagination', { vocabUrl: `${server.url}/vocab`, accept });
        expect(term.quads.length).toBeGreaterThan(0);
        graphs.push(
          term.quads
            .map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`)
            .sort()
            .join('\n'),
        );
      }
      expect(new Set(graphs).size).toBe(1);
    } finally {
      await server.close(100);
    }
  });

  it('exportDump into a stream that fails rejects within a second instead of hanging', async () => {
    const failing = new Writable({
      highWaterMark: 16,
      write(_chunk, _enc, done) {
        setTimeout(() => done(new Error('disk gone')), 5);
      },
    });
    failing.on('error', () => undefined);
    await expect(api.exportDump({ query: 'type:Journal', sample: true, stream: failing })).rejects.toThrow(
      /disk gone|closed/,
    );
  }, 60_000);

  it('exportDump into a stream whose reader went away (| head) ends at once', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    out.once('data', () => out.destroy());
    await expect(api.exportDump({ query: 'type:Journal', sample: true, stream: out })).rejects.toBeInstanceOf(
      api.ToolkitError,
    );
  }, 60_000);
});
