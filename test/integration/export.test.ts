// Integration tests of `export` against the local service (src/server) on loopback:
// 2,000 records in each of the five formats judged by Jena riot, output under injected
// faults equal to the fault-free output, and SIGKILL at 10 random moments with resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import { readExportState } from '../../src/export/ExportState.js';
import { recordGraphIri } from '../../src/mapping/recordGraph.js';
import {
  ensureBuilt,
  killAfterProgress,
  needTools,
  riotNTriples,
  riotValidate,
  runCli,
  spawnCli,
  type SpawnedCli,
} from './helpers.js';

const KEY = 'integration-KEY-5f3a';
const ALL = 'onlinedatefrom:1900-01-01';
let catalogue: Catalogue;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  catalogue = Catalogue.fromRecords(generateRecords(2000, 1, { catalogueFields: true }));
  server = await startServer({ catalogue, apiKeys: [{ key: KEY, plan: 'premium' }] });
  dir = mkdtempSync(join(tmpdir(), 'export-int-'));
});

afterAll(async () => {
  await server?.close(100);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function exportArgs(url: string, query: string, output: string, extra: string[] = []): string[] {
  return ['export', '-q', query, '-o', output, '--base-url', url, '--page-size', '100', '--quiet', ...extra];
}

const FORMATS = [
  ['turtle', 'ttl', undefined],
  ['ntriples', 'nt', undefined],
  ['nquads', 'nq', undefined],
  ['jsonld', 'jsonld', 'jsonld10'],
  ['rdfxml', 'rdf', undefined],
] as const;

describe('export of 2,000 records', () => {
  it('the query matches exactly 2,000 records', async () => {
    const r = await runCli(['search', '-q', ALL, '--base-url', server.url, '-p', '1'], {
      env: { SCHOLARLY_API_KEY: KEY },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('records 1-1 of 2,000');
  });

  describe.runIf(needTools('jena'))('in each of the five formats', () => {
    for (const [format, ext, syntax] of FORMATS) {
      it(`${format}: exactly 2,000 records, riot --validate passes, the key appears nowhere`, async () => {
        const file = join(dir, `all.${ext}`);
        const r = await runCli(
          exportArgs(server.url, ALL, file, ['--api-key', KEY, '--meta', join(dir, `all.${ext}.meta.ttl`)]),
        );
        expect(r.stderr).toBe('');
        expect(r.exitCode).toBe(0);
        const state = await readExportState(`${file}.state.json`);
        expect(state?.counts.records).toBe(2000);
        const judged = await riotValidate([file]);
        expect(judged.output).toBe('');
        expect(judged.ok).toBe(true);
        const nt = await riotNTriples(file, syntax);
        const works = new Set(
          nt
            .split('\n')
            .filter((l) => /^<https:\/\/doi\.org\/[^>]+> <http:\/\/purl\.org\/ontology\/bibo\/doi> /.test(l))
            .map((l) => l.split(' ')[0]),
        );
        expect(works.size).toBe(2000);
        for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes(KEY), f).toBe(false);
      });
    }
  });

  it('a query deeper than paging reaches is split into date windows: the same 2,000 records', async () => {
    const clean = join(dir, 'whole.nt');
    expect((await runCli(exportArgs(server.url, ALL, clean, ['--api-key', KEY]))).exitCode).toBe(0);
    const deep = join(dir, 'deep.nt');
    const r = await runCli([
      'export',
      '-q',
      ALL,
      '-o',
      deep,
      '--base-url',
      server.url,
      '--api-key',
      KEY,
      '--page-size',
      '100',
      '--max-start',
      '301',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('date windows');
    const state = await readExportState(`${deep}.state.json`);
    expect(state?.counts.records).toBe(2000);
    const sorted = (f: string) => readFileSync(f, 'utf8').split('\n').sort().join('\n');
    expect(sorted(deep)).toBe(sorted(clean));
  });

  it('under injected faults (10% 5xx, 5% 429, 2% truncated, 2% dropped) the output equals the fault-free one', async () => {
    const clean = join(dir, 'clean.nt');
    expect((await runCli(exportArgs(server.url, ALL, clean, ['--api-key', KEY]))).exitCode).toBe(0);
    const faulty = await startServer({
      catalogue,
      apiKeys: [{ key: KEY, plan: 'premium' }],
      retryAfter: 0,
      faults: { seed: 42, failRate: 0.1, throttleRate: 0.05, truncateRate: 0.02, resetRate: 0.02 },
    });
    try {
      const out = join(dir, 'faulty.nt');
      const r = await runCli([
        'export',
        '-q',
        ALL,
        '-o',
        out,
        '--base-url',
        faulty.url,
        '--api-key',
        KEY,
        '--page-size',
        '25',
        '--retries',
        '10',
        '--concurrency',
        '3',
      ]);
      expect(r.exitCode).toBe(0);
      const retries = Number(/([\d,]+) retries/.exec(r.stderr)?.[1]?.replace(/,/g, ''));
      expect(retries).toBeGreaterThan(5);
      expect(readFileSync(out).equals(readFileSync(clean))).toBe(true);
    } finally {
      await faulty.close(100);
    }
  });
});

describe('export --since against the local service', () => {
  it('harvests exactly the records with an onlineDate on or after the date, each in its own graph; riot --validate passes', async () => {
    const records = [...generateRecords(2000, 1, { catalogueFields: true })] as { doi: string; onlineDate: string }[];
    const since = records.map((r) => r.onlineDate).sort()[1400]!;
    const expected = new Set(records.filter((r) => r.onlineDate >= since).map((r) => r.doi));
    const file = join(dir, 'delta.nq');
    const r = await runCli(
      exportArgs(server.url, ALL, file, ['--api-key', KEY, '--since', since, '--meta', join(dir, 'delta.meta.ttl')]),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const graphs = new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => /<([^>]+\/record\/[^>]+)> \.$/.exec(l)?.[1])
        .filter((g) => g !== undefined),
    );
    expect(expected.size).toBeGreaterThan(500);
    expect(expected.size).toBeLessThan(2000);
    expect(graphs).toEqual(new Set([...expected].map((doi) => recordGraphIri(doi))));
    expect(readFileSync(join(dir, 'delta.meta.ttl'), 'utf8')).toContain(`onlinedatefrom:${since}`);
    if (needTools('jena')) expect((await riotValidate([file])).ok).toBe(true);
  });
});

describe('an export killed with SIGKILL at 10 random moments', () => {
  beforeAll(ensureBuilt);

  const spawnExport = (url: string, output: string): SpawnedCli =>
    spawnCli(
      ['export', '-q', 'type:Journal', '-o', output, '--resume', '--base-url', url, '--page-size', '25', '--quiet'],
      KEY,
    );

  it('resumes each time and ends byte-identical to the uninterrupted export', async () => {
    const slow = await startServer({ catalogue, apiKeys: [{ key: KEY, plan: 'premium' }], faults: { latencyMs: 15 } });
    try {
      const reference = join(dir, 'ref.jsonld.gz');
      const t0 = Date.now();
      expect(await spawnExport(slow.url, reference).done).toBe(0);
      const fullMs = Date.now() - t0;
      const out = join(dir, 'killed.jsonld.gz');
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      let killedMidway = 0;
      const total = (await readExportState(`${reference}.state.json`))!.counts.records;
      for (let i = 0; i < 10; i++) {
        // Killed once 2.5-7.5% of the records more are checkpointed, plus 0-20 ms (10 runs stay short of the end).
        const records = Math.ceil(total * (0.025 + random() * 0.05));
        const code = await killAfterProgress(() => spawnExport(slow.url, out), `${out}.state.json`, {
          records,
          jitterMs: Math.floor(random() * 20),
          giveUpMs: 2 * fullMs + 5000,
        });
        if (code === null) {
          const state = await readExportState(`${out}.state.json`);
          if (!state?.complete) {
            killedMidway++;
            // Killed unfinished: nothing under the final name, only the temporary one (issue 32).
            expect(existsSync(out)).toBe(false);
            expect(existsSync(`${out}.partial`)).toBe(true);
          }
        } else expect(code).toBe(0);
      }
      // validate and load refuse the unfinished dump (one rule: --allow-partial reads it as it is).
      if (existsSync(`${out}.partial`)) {
        const validate = await runCli(['validate', `${out}.partial`, '--quiet']);
        expect(validate.exitCode, validate.stderr).toBe(2);
        expect(validate.stderr).toContain('is the dump of an export that has not finished');
        expect(validate.stderr).toContain('--allow-partial');
        const load = await runCli([
          'load',
          `${out}.partial`,
          '--endpoint',
          'http://127.0.0.1:9/ds',
          '--graph',
          'https://ex.org/g',
        ]);
        expect(load.exitCode, load.stderr).toBe(2);
        expect(load.stderr).toContain('--allow-partial');
      }
      const final = spawnExport(slow.url, out);
      expect(await final.done).toBe(0);
      expect(killedMidway).toBeGreaterThanOrEqual(3);
      expect(readFileSync(out).equals(readFileSync(reference))).toBe(true);
      const doc = JSON.parse(gunzipSync(readFileSync(out)).toString('utf8')) as { '@graph': unknown[] };
      expect(doc['@graph'].length).toBeGreaterThan(1000);
    } finally {
      await slow.close(100);
    }
  });
});
