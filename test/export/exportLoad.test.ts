import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { parseNTriples } from '../helpers/rdf.js';
import { GspTestServer } from '../store/GspTestServer.js';
import { tempDir } from '../helpers/tempDir.js';

let server: GspTestServer;
const dir = tempDir('export-load-');
beforeAll(async () => {
  server = await new GspTestServer().start();
});
afterAll(() => server.stop());

describe('export --load', () => {
  it('harvests into the dump, then loads the dump into the store and checks the count', async () => {
    const out = join(dir, 'journal.nt');
    const G = 'https://example.org/graph/journal';
    const r = await runCli(
      [
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-o',
        out,
        '--quiet',
        '--load',
        server.dataset,
        '--load-graph',
        G,
        '--replace',
      ],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const triples = new Set(
      parseNTriples(readFileSync(out, 'utf8')).map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`),
    );
    expect(triples.size).toBeGreaterThan(1000);
    expect(server.graphSize(G)).toBe(triples.size);
    expect(server.requests.some((q) => q.sparql?.includes('DROP SILENT GRAPH'))).toBe(true);
  });

  it('loads every shard of a sharded dump', async () => {
    const G = 'https://example.org/graph/shards';
    const r = await runCli(
      [
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-o',
        join(dir, 'sh.nt'),
        '--shard-records',
        '100',
        '--quiet',
        '--load',
        server.dataset,
        '--load-graph',
        G,
      ],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    const shards = readdirSync(dir).filter((n) => /^sh\.\d{5}\.nt$/.test(n));
    expect(shards.length).toBeGreaterThan(1);
    const triples = new Set(
      shards.flatMap((n) =>
        parseNTriples(readFileSync(join(dir, n), 'utf8')).map(
          (q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`,
        ),
      ),
    );
    expect(server.graphSize(G)).toBe(triples.size);
  });

  it('refuses --load without an output file', async () => {
    const r = await runCli(['export', '--sample', '-q', 'type:Journal', '--load', server.dataset]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--load needs the dump in a file/);
  });
});
