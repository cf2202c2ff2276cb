import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ValidateProgress, validateDump } from '../../src/tasks/validateDump.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'validate-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const r = await runCli(
    ['convert', resolve(import.meta.dirname, '../../data/sample-catalogue.jsonl'), '-o', join(dir, 'd.nt'), '--quiet'],
    { cwd: dir },
  );
  expect(r.code, r.stderr).toBe(0);
  writeFileSync(join(dir, 'd.nt.gz'), gzipSync(readFileSync(join(dir, 'd.nt'))));
});

describe('validateDump onProgress', () => {
  it('reports the bytes of the file as read from disk (a .gz file: its compressed bytes) up to their total, with the records', async () => {
    for (const file of ['d.nt', 'd.nt.gz']) {
      const reports: ValidateProgress[] = [];
      const result = await validateDump({
        files: [file],
        cwd: dir,
        jobs: 1,
        onProgress: (p) => reports.push({ ...p }),
      });
      const size = statSync(join(dir, file)).size;
      const last = reports.at(-1)!;
      expect(last).toMatchObject({ bytesRead: size, totalBytes: size, records: 300, notConforming: 0, file });
      expect(reports.length).toBeGreaterThan(0);
      for (let i = 1; i < reports.length; i++) {
        expect(reports[i]!.bytesRead).toBeGreaterThanOrEqual(reports[i - 1]!.bytesRead);
        expect(reports[i]!.elapsedMs).toBeGreaterThanOrEqual(reports[i - 1]!.elapsedMs);
      }
      expect(result.summary.records).toBe(300);
      expect(result.elapsedMs).toBeGreaterThan(0);
    }
  });

  it('has no total for stdin (its size is not known), and counts its bytes', async () => {
    const text = readFileSync(join(dir, 'd.nt'));
    const reports: ValidateProgress[] = [];
    await validateDump({
      files: ['-'],
      stdin: Readable.from([text]),
      cwd: dir,
      jobs: 1,
      onProgress: (p) => reports.push({ ...p }),
    });
    expect(reports.at(-1)).toMatchObject({ bytesRead: text.length, totalBytes: null, records: 300, file: '-' });
  });

  it('sums the sizes of several inputs', async () => {
    const reports: ValidateProgress[] = [];
    await validateDump({ files: ['d.nt', 'd.nt.gz'], cwd: dir, jobs: 1, onProgress: (p) => reports.push({ ...p }) });
    const total = statSync(join(dir, 'd.nt')).size + statSync(join(dir, 'd.nt.gz')).size;
    expect(reports.at(-1)).toMatchObject({ bytesRead: total, totalBytes: total, records: 600, file: 'd.nt.gz' });
  });
});

describe('validateDump jobs: auto', () => {
  it('looks at the text a .gz file holds (its trailer), not at its compressed size', async () => {
    // 17 MiB of comment lines: a few kilobytes gzipped, nothing to validate.
    const text = `# ${'x'.repeat(1020)}\n`.repeat(17 * 1024);
    writeFileSync(join(dir, 'comments.nt.gz'), gzipSync(text));
    expect(statSync(join(dir, 'comments.nt.gz')).size).toBeLessThan(1024 * 1024);
    const result = await validateDump({ files: ['comments.nt.gz'], cwd: dir });
    expect(result.jobs).toBe(Math.min(8, availableParallelism()));
    const small = await validateDump({ files: ['d.nt.gz'], cwd: dir });
    expect(small.jobs).toBe(1);
  });
});
