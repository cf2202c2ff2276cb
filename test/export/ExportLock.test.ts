import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportLock } from '../../src/export/ExportLock.js';
import { exportRdf } from '../../src/export/exportRdf.js';
import { makeRecords, startFakeService } from '../client/fakeService.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ExportLock', () => {
  it('is held by one export at a time, and free again once released', async () => {
    const path = join(dir, 'out.nt.lock');
    const lock = await ExportLock.acquire(path);
    await expect(ExportLock.acquire(path)).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining(`process ${process.pid}`) });
    await lock.release();
    expect(existsSync(path)).toBe(false);
    await (await ExportLock.acquire(path)).release();
  });

  it('takes over a lock whose process no longer runs', async () => {
    const path = join(dir, 'stale.lock');
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(path, `${gone}\n`);
    await (await ExportLock.acquire(path)).release();
  });

  it('keeps a second export from writing the same output while the first runs', async () => {
    const service = await startFakeService({ records: makeRecords(30), latencyMs: 50 });
    try {
      const output = join(dir, 'same.nt');
      const options = { query: 'x', baseUrl: service.url, pageSize: 5, output };
      const first = exportRdf(options);
      await new Promise((r) => setTimeout(r, 100));
      await expect(exportRdf(options)).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('another export') });
      // Another state file, the same output: still refused; so is the same output named through a link.
      await expect(exportRdf({ ...options, statePath: join(dir, 'other-state.json') })).rejects.toMatchObject({ code: 'usage' });
      symlinkSync(output, join(dir, 'link.nt'));
      await expect(exportRdf({ ...options, output: join(dir, 'link.nt') })).rejects.toMatchObject({ code: 'usage' });
      expect((await first).counts.records).toBe(30);
      expect(existsSync(`${output}.lock`)).toBe(false);
    } finally {
      await service.close();
    }
  });
});
