/**
 * `load` of N-Triples and N-Quads sent line by line as written (no parse and write-back), into a real
 * Virtuoso 7: escapes, blank nodes (odd labels, the same label in two files), graphs of N-Quads, CRLF,
 * comments reach the store as the parse-and-write path sends them; an interrupted load resumes exactly.
 * And a store stand-in (a loopback server) that takes the data and never answers the count: the built
 * command ends within the count's deadline with its message and exit status 3, the data acknowledged.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../../src/errors.js';
import { loadDump } from '../../src/tasks/loadDump.js';
import { ROOT, needTools, runCli, withVirtuoso, type VirtuosoServer } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'scholarly-load-lines-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const G = 'https://w3id.org/scholarly-rdf/graph/it-lines';
const S = '<https://doi.org/10.1007/lines-1>';
const P = '<http://schema.org/name>';

/** The count of the solutions of `where` in `graph` (SPARQL over GET, CSV results). */
async function count(v: VirtuosoServer, graph: string, where = '?s ?p ?o'): Promise<number> {
  const url = new URL(v.sparql);
  url.searchParams.set('query', `SELECT (COUNT(*) AS ?n) FROM <${graph}> WHERE { ${where} }`);
  const res = await fetch(url, { headers: { accept: 'text/csv' } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return Number(text.trim().split('\n')[1]);
}

describe.runIf(needTools('virtuoso'))('load of N-Triples lines as written, into Virtuoso', () => {
  let v: VirtuosoServer;
  beforeAll(() => {
    v = withVirtuoso();
  });

  it('stores what parsing would: escapes decoded, blank nodes one per label and file, graphs of N-Quads dropped', async () => {
    const nt = [
      '# escapes, tags, datatypes',
      `${S} ${P} "caf\\u00E9 \\U0001F600" .`,
      `${S} <http://schema.org/alternateName> "Müller \\"quoted\\"\\n"@de .\r`,
      `${S} <http://schema.org/pageStart> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
      `${S} <http://schema.org/about> <http://example.org/\\u0041> .`,
      `_:b_1 ${P} "odd label" .`,
      `_:b_1 <http://schema.org/alternateName> "odd label, \\u0041 escaped" .`,
      `_:n1 ${P} "first file" .`,
    ].join('\n');
    const nq = [
      `_:n1 ${P} "second file" <http://example.org/g1> .`,
      `_:n1 <http://schema.org/alternateName> "second file" .`,
      `${S} <http://schema.org/keywords> "kw" _:g .`,
    ].join('\n');
    writeFileSync(join(work, 'a.nt'), nt);
    writeFileSync(join(work, 'b.nq'), `${nq}\n`);
    const r = await runCli(
      ['load', 'a.nt', 'b.nq', '--endpoint', v.baseUrl, '--store', 'virtuoso', '--graph', G, '--replace'],
      { cwd: work },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/count: +10 triples in the graph, 10 expected \(ok\)/);
    expect(await count(v, G, `${S} ${P} "café 😀"`)).toBe(1);
    expect(await count(v, G, `${S} <http://schema.org/about> <http://example.org/A>`)).toBe(1);
    expect(await count(v, G, `${S} <http://schema.org/alternateName> "Müller \\"quoted\\"\\n"@de`)).toBe(1);
    // _:b_1 is one node (two triples); _:n1 of a.nt and _:n1 of b.nq are two.
    expect(
      await count(
        v,
        G,
        '?b <http://schema.org/alternateName> "odd label, A escaped" ; <http://schema.org/name> "odd label"',
      ),
    ).toBe(1);
    expect(
      await count(v, G, '?b <http://schema.org/name> "second file" ; <http://schema.org/alternateName> "second file"'),
    ).toBe(1);
    expect(
      await count(v, G, '?b <http://schema.org/name> "first file" ; <http://schema.org/alternateName> "second file"'),
    ).toBe(0);
  });

  it('resumes an interrupted load of lines after its last acknowledged chunk, the count exact', async () => {
    const graph = `${G}-resume`;
    let text = '';
    for (let i = 0; i < 5000; i++)
      text += `<https://doi.org/10.1/r${i}> ${P} "Title ${i} caf\\u00E9" .\n<https://doi.org/10.1/r${i}> <http://schema.org/pageStart> "${i}" .\n`;
    writeFileSync(join(work, 'r.nt'), text);
    const options = {
      files: ['r.nt'],
      cwd: work,
      endpoint: v.baseUrl,
      store: 'virtuoso' as const,
      graph,
      replace: true,
      chunkTriples: 1000,
    };
    const controller = new AbortController();
    await expect(
      loadDump({
        ...options,
        signal: controller.signal,
        onChunk: (e) => e.chunk === 3 && controller.abort(new ToolkitError('interrupted', 'aborted')),
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    const sent: number[] = [];
    const resumed = await loadDump({ ...options, resume: true, onChunk: (e) => sent.push(e.chunk) });
    expect(sent).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(resumed).toMatchObject({ chunksSkipped: 3, totalTriples: 10_000, count: 10_000 });
    expect(JSON.parse(readFileSync(resumed.statePath!, 'utf8'))).toMatchObject({
      chunksAcked: 10,
      triplesAcked: 10_000,
      complete: true,
    });
  });
});

describe('a store that takes the data and never answers the count', () => {
  let server: Server;
  let base = '';
  const received: number[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url!.startsWith('/ds/data')) {
          received.push(
            Buffer.concat(body)
              .toString('utf8')
              .split('\n')
              .filter((l) => l.trim()).length,
          );
          res.writeHead(204).end();
        } else if (req.method === 'POST' && req.url === '/ds/update') {
          res.writeHead(204).end();
        }
        // a query (the count): never answered
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('ends the built command within the count deadline: exit 3, what was loaded, the query to count by hand', async () => {
    let text = '';
    for (let i = 0; i < 250; i++) text += `<https://doi.org/10.1/c${i}> ${P} "T${i}" .\n`;
    writeFileSync(join(work, 'c.nt'), text);
    const state = join(work, 'c.state.json');
    const args = [
      join(ROOT, 'bin/scholarly-rdf.js'),
      'load',
      'c.nt',
      '--endpoint',
      `${base}/ds`,
      '--graph',
      G,
      '--replace',
      '--chunk-triples',
      '100',
      '--count-timeout',
      '2',
      '--state',
      state,
    ];
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { cwd: work, timeout: 60_000 }, (err, _stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    expect(code, stderr).toBe(3);
    expect(stderr).toContain(
      '250 triples loaded and acknowledged; the count did not answer in 2 s; check it with curl -G',
    );
    expect(stderr).toContain(`query=SELECT (COUNT(*) AS ?n) FROM <${G}> WHERE { ?s ?p ?o }`);
    expect(stderr).toMatch(/error \[network\]/);
    expect(received).toEqual([100, 100, 50]);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({
      chunksAcked: 3,
      triplesAcked: 250,
      complete: true,
    });
  });
});
