import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBytes } from '../../src/cli/options/optionValues.js';
import type { ShardManifest } from '../../src/output/ShardManifest.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { makeRecords, startFakeService } from '../client/fakeService.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
let input: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-shards-'));
  input = join(dir, 'records.jsonl');
  writeFileSync(input, [...generateRecords(12, 5)].map((r) => `${JSON.stringify(r)}\n`).join(''));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('convert --shard-records / --shard-size', () => {
  it('writes the shards and the manifest, and says where', async () => {
    const r = await runCli(['convert', input, '-o', join(dir, 'd.nt.gz'), '--shard-records', '5']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote the shards listed in ${join(dir, 'd.manifest.json')}`);
    const manifest = JSON.parse(readFileSync(join(dir, 'd.manifest.json'), 'utf8')) as ShardManifest;
    expect(manifest.shards.map((s) => [s.file, s.records])).toEqual([
      ['d.00001.nt.gz', 5],
      ['d.00002.nt.gz', 5],
      ['d.00003.nt.gz', 2],
    ]);
    expect(manifest).toMatchObject({ format: 'ntriples', compression: 'gzip', shardRecords: 5, shardBytes: null });
  });

  it('gives the manifest in --json', async () => {
    const r = await runCli(['convert', input, '-o', join(dir, 'j.ttl'), '--shard-size', '20K', '--json', '--quiet']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ manifestPath: join(dir, 'j.manifest.json') });
  });

  it('refuses shards to standard output, and a bad number', async () => {
    const r = await runCli(['convert', input, '--shard-records', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shard-records needs -o FILE');
    expect(r.stdout).toBe('');
    const bad = await runCli(['convert', input, '-o', join(dir, 'b.nt'), '--shard-records', '0']);
    expect(bad.code).toBe(2);
    expect(existsSync(join(dir, 'b.00001.nt'))).toBe(false);
  });

  it('lists the flags in --help', async () => {
    const r = await runCli(['convert', '--help']);
    expect(r.stdout).toContain('--shard-records <n>');
    expect(r.stdout).toContain('--shard-size <bytes>');
  });
});

describe('export --shard-records', () => {
  it('writes the shards, the manifest in --json, and refuses standard output', async () => {
    const KEY = 'cli-shards-KEY';
    const service = await startFakeService({ records: makeRecords(23), apiKey: KEY });
    try {
      const args = [
        'export',
        '-q',
        'type:Journal',
        '--base-url',
        service.url,
        '--page-size',
        '10',
        '--shard-records',
        '10',
      ];
      const r = await runCli([...args, '-o', 'e.nq', '--json', '--quiet'], {
        env: { SCHOLARLY_API_KEY: KEY },
        cwd: dir,
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        manifestPath: join(dir, 'e.manifest.json'),
        counts: { records: 23 },
      });
      expect(['e.00001.nq', 'e.00002.nq', 'e.00003.nq'].every((n) => existsSync(join(dir, n)))).toBe(true);
      const out = await runCli(args, { env: { SCHOLARLY_API_KEY: KEY }, cwd: dir });
      expect(out.code).toBe(2);
      expect(out.stderr).toContain('--shard-records needs -o FILE');
      const help = await runCli(['export', '--help']);
      expect(help.stdout).toContain('--shard-records <n>');
      expect(help.stdout).toContain('--shard-size <bytes>');
    } finally {
      await service.close();
    }
  });

  it('refuses --meta or --rejects named like a shard or the manifest', async () => {
    const r = await runCli(
      ['export', '-q', 'x', '--sample', '-o', 'm.nt', '--shard-records', '5', '--meta', 'm.manifest.json'],
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('are one file');
    const s = await runCli(
      ['export', '-q', 'x', '--sample', '-o', 'm.nt', '--shard-records', '5', '--rejects', 'm.00003.nt'],
      { cwd: dir },
    );
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('are one file');
  });
});

describe('parseBytes', () => {
  it('reads bytes, K, M and G', () => {
    expect([parseBytes('x', '100'), parseBytes('x', '2K'), parseBytes('x', '512M'), parseBytes('x', '1GiB')]).toEqual([
      100,
      2048,
      512 * 1024 ** 2,
      1024 ** 3,
    ]);
    expect(() => parseBytes('--shard-size', '0')).toThrow('--shard-size must be');
    expect(() => parseBytes('--shard-size', '1.5M')).toThrow('--shard-size must be');
  });
});
