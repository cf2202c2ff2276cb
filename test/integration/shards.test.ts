// Integration tests of sharded output (issue 22, point 1): an export into shards against the local
// service on loopback, killed with SIGKILL at random moments and resumed, ends with the same shards byte
// for byte as an uninterrupted one; every shard valid in Jena's riot; the manifest's sums equal what was
// written. And `convert --shard-records` in each of the five formats, every shard valid in riot.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExportState } from '../../src/export/ExportState.js';
import type { ShardManifest } from '../../src/output/ShardManifest.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import { ensureBuilt, killAfterProgress, needTools, riotValidate, spawnCli, type SpawnedCli } from './helpers.js';

const KEY = 'integration-KEY-5f3a';
const ALL = 'onlinedatefrom:1900-01-01';
const RECORDS = 3000;
let catalogue: Catalogue;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  catalogue = Catalogue.fromRecords(generateRecords(RECORDS, 1, { catalogueFields: true }));
  // Slow pages, so that a kill falls in the middle of the export.
  server = await startServer({ catalogue, apiKeys: [{ key: KEY, plan: 'premium' }], faults: { latencyMs: 15 } });
  dir = mkdtempSync(join(tmpdir(), 'shards-int-'));
});

afterAll(async () => {
  await server?.close(100);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]): SpawnedCli => spawnCli(args, KEY);

const exportArgs = (output: string) => [
  'export',
  '-q',
  ALL,
  '-o',
  output,
  '--shard-records',
  '300',
  '--resume',
  '--base-url',
  server.url,
  '--page-size',
  '25',
  '--quiet',
];
const manifestOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ShardManifest;
const shardsIn = (stem: string) =>
  readdirSync(dir)
    .filter((n) => n.startsWith(`${stem}.`) && /\.\d{5}\./.test(n))
    .sort();

describe('an export into shards killed with SIGKILL at random moments', () => {
  it('resumes each time and ends with the same shards byte for byte, all valid, the manifest summing what was written', async () => {
    const reference = join(dir, 'ref.nq.gz');
    const t0 = Date.now();
    expect(await run(exportArgs(reference)).done).toBe(0);
    const fullMs = Date.now() - t0;
    const out = join(dir, 'dump.nq.gz');
    let seed = 4242;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let killedMidway = 0;
    let finishedShardsSeen = 0;
    for (let i = 0; i < 8; i++) {
      // Killed once 2.5-10% of the records more are checkpointed, plus 0-20 ms (8 runs stay short of the end).
      const records = Math.ceil(RECORDS * (0.025 + random() * 0.075));
      const code = await killAfterProgress(() => run(exportArgs(out)), `${out}.state.json`, {
        records,
        jitterMs: Math.floor(random() * 20),
        giveUpMs: 2 * fullMs + 5000,
      });
      if (code === null) {
        const state = await readExportState(`${out}.state.json`);
        if (!state?.complete) killedMidway++;
        finishedShardsSeen = Math.max(finishedShardsSeen, state?.shards?.done.length ?? 0);
        // Not finished: no manifest yet, and no file that looks like a finished shard but is not one.
        if (!state?.complete) expect(existsSync(join(dir, 'dump.manifest.json'))).toBe(false);
        for (const name of shardsIn('dump').filter((n) => !n.endsWith('.partial'))) {
          const index = Number(/\.(\d{5})\./.exec(name)![1]);
          expect(index).toBeLessThanOrEqual(state?.shards?.done.length ?? 0);
        }
      } else expect(code).toBe(0);
    }
    expect(await run(exportArgs(out)).done).toBe(0);
    expect(killedMidway).toBeGreaterThanOrEqual(3);
    expect(finishedShardsSeen).toBeGreaterThanOrEqual(1);

    const names = shardsIn('dump');
    expect(names).toEqual(shardsIn('ref').map((n) => n.replace('ref.', 'dump.')));
    expect(names).toHaveLength(10);
    for (const n of names)
      expect(readFileSync(join(dir, n)).equals(readFileSync(join(dir, n.replace('dump.', 'ref.'))))).toBe(true);

    const manifest = manifestOf(join(dir, 'dump.manifest.json'));
    const state = await readExportState(`${out}.state.json`);
    expect(manifest.totals).toMatchObject({
      shards: 10,
      records: state!.counts.records,
      triples: state!.counts.triples,
    });
    expect(manifest.totals.records).toBe(RECORDS);
    for (const entry of manifest.shards) {
      const lines = gunzipSync(readFileSync(join(dir, entry.file)))
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '');
      expect(lines.length).toBe(entry.triples);
      const works = lines.filter(
        (l) => l.startsWith('<https://doi.org/') && l.includes('<http://purl.org/ontology/bibo/doi>'),
      );
      expect(works.length).toBe(entry.records);
      expect(works[0]).toContain(`"${entry.firstDoi}"`);
      expect(works[works.length - 1]).toContain(`"${entry.lastDoi}"`);
    }
    if (needTools('jena')) {
      const r = await riotValidate(names.map((n) => join(dir, n)));
      expect(r.ok, r.output).toBe(true);
    }
  });
});

describe('convert --shard-records in the five formats', () => {
  it.runIf(needTools('jena'))('writes shards that are each valid in riot', async () => {
    const input = join(dir, 'records.jsonl');
    writeFileSync(
      input,
      [...generateRecords(250, 3, { catalogueFields: true })].map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    const files: string[] = [];
    for (const ext of ['ttl', 'nt.gz', 'nq', 'jsonld', 'rdf']) {
      const output = join(dir, `conv-${ext.replace('.', '-')}.${ext}`);
      expect(await run(['convert', input, '-o', output, '--shard-records', '100', '--quiet']).done).toBe(0);
      const manifest = manifestOf(output.replace(/\.[a-z]+(\.gz)?$/, '.manifest.json'));
      expect(manifest.shards.map((s) => s.records)).toEqual([100, 100, 50]);
      files.push(...manifest.shards.map((s) => join(dir, s.file)));
    }
    const r = await riotValidate(files);
    expect(r.ok, r.output).toBe(true);
  });
});
