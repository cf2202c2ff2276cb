import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportLock } from '../../src/output/ExportLock.js';
import { lockPathOf } from '../../src/export/exportOptions.js';
import { loadDump, loadLogPath } from '../../src/tasks/loadDump.js';
import { runCli } from '../helpers/cli.js';
import { GspTestServer } from '../store/GspTestServer.js';

const dir = mkdtempSync(join(tmpdir(), 'load-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GA = 'https://example.org/graph/a';
const GB = 'https://example.org/graph/b';

let server: GspTestServer;
beforeEach(async () => {
  server = await new GspTestServer().start();
});
afterEach(async () => server.stop());

function dump(name: string, n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `<https://doi.org/10.1/s${i}> <http://schema.org/name> "T${i}" .\n`;
  writeFileSync(join(dir, name), text);
  return name;
}

describe('load logs keyed by file and graph', () => {
  it('gives two loads of one file into two graphs two logs; the interrupted one resumes while the other finished', async () => {
    const file = dump('shared.nt', 6);
    const logA = loadLogPath([file], undefined, dir, GA)!;
    const logB = loadLogPath([file], undefined, dir, GB)!;
    expect(logA).not.toBe(logB);
    // Load A stops after its first chunk (the store refuses the rest); load B runs to the end meanwhile.
    server.faultFor = (n) => (n >= 2 ? { status: 400, body: 'no' } : undefined);
    await expect(
      loadDump({
        files: [file],
        cwd: dir,
        endpoint: server.dataset,
        graph: GA,
        chunkTriples: 2,
        retry: { retries: 0 },
      }),
    ).rejects.toMatchObject({
      details: { statePath: logA, progressSaved: true },
    });
    server.faultFor = undefined;
    const b = await loadDump({ files: [file], cwd: dir, endpoint: server.dataset, graph: GB, chunkTriples: 2 });
    expect(b).toMatchObject({ statePath: logB, count: 6 });
    expect(JSON.parse(readFileSync(logA, 'utf8'))).toMatchObject({ graph: GA, chunksAcked: 1, complete: false });
    const a = await loadDump({
      files: [file],
      cwd: dir,
      endpoint: server.dataset,
      graph: GA,
      chunkTriples: 2,
      resume: true,
    });
    expect(a).toMatchObject({ statePath: logA, chunksSkipped: 1, chunks: 2, count: 6 });
    expect(server.graphSize(GA)).toBe(6);
  });

  it('resumes a load whose log has the name of earlier versions (<file>.load-state.json) when it records the graph', async () => {
    const file = dump('earlier.nt', 6);
    const earlier = join(dir, 'earlier.nt.load-state.json');
    server.faultFor = (n) => (n >= 2 ? { status: 400, body: 'no' } : undefined);
    await expect(
      loadDump({
        files: [file],
        cwd: dir,
        endpoint: server.dataset,
        graph: GA,
        chunkTriples: 2,
        statePath: earlier,
        retry: { retries: 0 },
      }),
    ).rejects.toMatchObject({
      details: { progressSaved: true },
    });
    server.faultFor = undefined;
    const resumed = await loadDump({
      files: [file],
      cwd: dir,
      endpoint: server.dataset,
      graph: GA,
      chunkTriples: 2,
      resume: true,
    });
    expect(resumed).toMatchObject({ statePath: earlier, chunksSkipped: 1, count: 6 });
    // Another graph does not take it.
    const other = await loadDump({
      files: [file],
      cwd: dir,
      endpoint: server.dataset,
      graph: GB,
      chunkTriples: 2,
      resume: true,
    });
    expect(other).toMatchObject({ statePath: loadLogPath([file], undefined, dir, GB), chunksSkipped: 0 });
  });

  it('keys the log by the graph the dump names when none is given', async () => {
    writeFileSync(
      join(dir, 'named.nt'),
      '<https://example.org/dataset/x> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/ns/dcat#Dataset> .\n',
    );
    const summary = await loadDump({ files: ['named.nt'], cwd: dir, endpoint: server.dataset });
    expect(summary.graph).toBe('https://example.org/dataset/x/graph');
    expect(summary.statePath).toBe(loadLogPath(['named.nt'], undefined, dir, 'https://example.org/dataset/x/graph'));
    expect(existsSync(summary.statePath!)).toBe(true);
  });
});

describe('chunks written as Turtle', () => {
  it('parse N-Triples and N-Quads inputs too (no lines sent as they are), every quad into the graph', async () => {
    dump('t.nt', 3);
    writeFileSync(
      join(dir, 't.nq'),
      '<https://doi.org/10.1/q> <http://schema.org/name> "Q" <http://example.org/g> .\n',
    );
    const summary = await loadDump({
      files: ['t.nt', 't.nq'],
      cwd: dir,
      endpoint: server.dataset,
      graph: GA,
      chunkFormat: 'turtle',
      chunkTriples: 2,
    });
    expect(summary).toMatchObject({ triples: 4, chunks: 2, count: 4, namedGraphQuads: 1 });
    expect(server.writes.map((w) => w.contentType)).toEqual(['text/turtle', 'text/turtle']);
  });
});

describe('an input an export still writes', () => {
  it('is refused unless ignoreExportLock / --ignore-export-lock', async () => {
    const file = dump('running.nt', 2);
    const lock = await ExportLock.acquire(await lockPathOf(join(dir, file)));
    try {
      await expect(loadDump({ files: [file], cwd: dir, endpoint: server.dataset, graph: GA })).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringContaining('is still being written by an export'),
      });
      expect(server.requests).toHaveLength(0);
      const refused = await runCli(['load', file, '--endpoint', server.dataset, '--graph', GA], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'Load it once the export has finished, or pass --ignore-export-lock to load it as it is',
      );
      const forced = await runCli(['load', file, '--endpoint', server.dataset, '--graph', GA, '--ignore-export-lock'], {
        cwd: dir,
      });
      expect(forced.code, forced.stderr).toBe(0);
      expect(server.graphSize(GA)).toBe(2);
    } finally {
      await lock.release();
    }
  });
});

describe('load --count-timeout', () => {
  it('ends a load whose count does not answer: exit 3, what was loaded, the query to count by hand', async () => {
    const file = dump('silent.nt', 3);
    server.silentQueries = true;
    const r = await runCli(
      ['load', file, '--endpoint', server.dataset, '--graph', GA, '--replace', '--count-timeout', '0.3'],
      { cwd: dir },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/loaded: +3 triples in 1 chunks/);
    expect(r.stderr).toContain('count:     no answer in time (below)');
    expect(r.stderr).toContain(
      '3 triples loaded and acknowledged; the count did not answer in 0.3 s; check it with curl -G',
    );
    expect(r.stderr).toContain('or raise --count-timeout');
    expect(r.stderr).not.toContain('the load stopped');
    expect(server.graphSize(GA)).toBe(3);
  });
});
