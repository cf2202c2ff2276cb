/**
 * A store that acknowledges a chunk and keeps none of it (issue 32): `load` exits non-zero naming the
 * chunk, for chunks of 1, 100 and 10,000 triples, with and without --replace, into an empty graph (an
 * exact count) and into one that held triples (bounds, and each chunk's probe triple asked for). The
 * dump repeats a shared entity's triple (a journal), which a graph holds once: the exact count allows for it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { GspTestServer } from './GspTestServer.js';

const G = 'https://w3id.org/scholarly-rdf/graph/dropped';
const JOURNAL = '<https://w3id.org/scholarly-rdf/journal/11306> <http://schema.org/name> "Metabolomics" .';
const dir = mkdtempSync(join(tmpdir(), 'load-dropped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: GspTestServer;
beforeEach(async () => {
  server = await new GspTestServer().start();
});
afterEach(async () => server.stop());

/** A dump of `records` records' own triples, the journal's triple after every tenth: its lines and distinct triples. */
function dump(records: number): { path: string; lines: number; distinct: number } {
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    lines.push(`<https://doi.org/10.1007/r${i}> <http://schema.org/name> "Record ${i}" .`);
    if (i % 10 === 0) lines.push(JOURNAL);
  }
  const path = join(dir, `dump-${records}.nt`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, lines: lines.length, distinct: records + 1 };
}

describe('load from a store that drops an acknowledged chunk', () => {
  for (const size of [1, 100, 10_000]) {
    for (const mode of ['--replace', 'into an empty graph', 'into a graph that held triples'] as const) {
      it(`a chunk of ${size} triples, ${mode}: exit 1 (count-mismatch) naming the chunk`, async () => {
        const d = dump(size === 1 ? 30 : size * 3);
        // Chunk 3: for chunks of 1 triple, the line of record 1 (its own triple, not the journal's).
        server.dropWrites.add(3);
        if (mode === 'into a graph that held triples') {
          server.graphs.set(
            G,
            new Set(Array.from({ length: size * 5 }, (_, i) => `<https://ex.org/old${i}> <https://ex.org/p> "${i}" .`)),
          );
          server.dropWrites.clear();
          server.dropWrites.add(3);
        }
        const argv = [
          'load',
          d.path,
          '--endpoint',
          server.dataset,
          '--graph',
          G,
          '--chunk-triples',
          String(size),
          '--quiet',
        ];
        const r = await runCli(mode === '--replace' ? [...argv, '--replace'] : argv, { cwd: dir });
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain('error [count-mismatch]');
        expect(r.stderr).toContain('the store acknowledged and lost chunk 3 (its triple <https://doi.org/10.1007/r');
        expect(server.writes).toHaveLength(Math.ceil(d.lines / size));
      });
    }
  }

  it('the same dump and store without a drop: exit 0, the exact count of distinct triples (the journal once)', async () => {
    const d = dump(300);
    const r = await runCli(
      ['load', d.path, '--endpoint', server.dataset, '--graph', G, '--chunk-triples', '100', '--replace'],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `count:     ${d.distinct} triples in the graph, ${d.distinct} expected (ok): ${d.distinct} distinct triples sent (${d.lines} statements; shared entities repeat per record)`,
    );
  });

  it('into a graph that held triples, nothing lost: exit 0 with a note that an exact count needs --replace', async () => {
    const d = dump(300);
    server.graphs.set(G, new Set(['<https://ex.org/old> <https://ex.org/p> "0" .', JOURNAL]));
    const r = await runCli(['load', d.path, '--endpoint', server.dataset, '--graph', G, '--chunk-triples', '100'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.graphSize(G)).toBe(d.distinct + 1);
    expect(r.stderr).toContain(
      `count:     ${d.distinct + 1} triples in the graph, ${d.distinct} to ${d.distinct + 2} expected (ok)`,
    );
    expect(r.stderr).toContain(
      'note:      the graph held 2 triples before: only bounds were checked (triples already there count once); an exact count needs --replace',
    );
  });
});
