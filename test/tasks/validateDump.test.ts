import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportLock } from '../../src/output/ExportLock.js';
import { validateDump } from '../../src/tasks/validateDump.js';
import { runCli } from '../helpers/cli.js';

const RECORDS = resolve(import.meta.dirname, '../fixtures/shacl/full-records.ttl');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'validate-dump-'));
  copyFileSync(RECORDS, join(dir, 'dump.ttl'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('validateDump', () => {
  it('refuses a report into a folder that is not there before it validates anything (exit 4, not a crash)', async () => {
    const report = join(dir, 'missing', 'report.ttl');
    await expect(validateDump({ files: ['dump.ttl'], cwd: dir, reportPath: report })).rejects.toMatchObject({
      code: 'io',
      message: `cannot create the report ${report}: its folder does not exist (ENOENT)`,
    });
    const r = await runCli(['validate', 'dump.ttl', '--report', 'missing/report.ttl'], { cwd: dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('scholarly-rdf: error [io]: cannot create the report');
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(readdirSync(dir)).toEqual(['dump.ttl']);
  });

  it('runs at most one worker thread per core', async () => {
    const result = await validateDump({ files: ['dump.ttl'], cwd: dir, jobs: availableParallelism() + 3 });
    expect(result.jobs).toBe(availableParallelism());
    expect(result.conforms).toBe(true);
  });

  it('refuses an input an export is still writing (its lock held by a running process), unless told to read it as it is', async () => {
    const lock = await ExportLock.acquire(join(dir, 'dump.ttl.lock'));
    try {
      await expect(validateDump({ files: ['dump.ttl'], cwd: dir })).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringContaining(
          `${join(dir, 'dump.ttl')} is still being written by an export (process ${process.pid}`,
        ),
      });
      expect((await validateDump({ files: ['dump.ttl'], cwd: dir, ignoreExportLock: true })).conforms).toBe(true);
    } finally {
      await lock.release();
    }
    // A lock its process left behind (killed) is no export running.
    writeFileSync(join(dir, 'dump.ttl.lock'), '999999999\n');
    expect((await validateDump({ files: ['dump.ttl'], cwd: dir })).conforms).toBe(true);
    expect(existsSync(join(dir, 'dump.ttl.lock'))).toBe(true);
  });
});
