import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExportLock } from '../../src/output/ExportLock.js';
import { exportRdf } from '../../src/export/exportRdf.js';
import { makeRecords, startFakeService } from '../client/fakeService.js';
import { bundleForChild } from '../helpers/bundleForChild.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ExportLock', () => {
  it('is held by one export at a time, and free again once released', async () => {
    const path = join(dir, 'out.nt.lock');
    const lock = await ExportLock.acquire(path);
    await expect(ExportLock.acquire(path)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining(`process ${process.pid}`),
    });
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

  it('a takeover removes the markers of earlier takeovers (exports killed in turn leave no file behind)', async () => {
    const path = join(dir, 'out.nt.lock');
    const gone = Number(
      spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim(),
    );
    // An export took over the lock of 'aaaa' (its marker) and was killed in turn: its lock 'bbbb' is stale.
    writeFileSync(`${path}.aaaa.takeover`, 'old');
    writeFileSync(`${path}.notes.takeover.txt`, 'not a marker');
    writeFileSync(path, `${JSON.stringify({ pid: gone, token: 'bbbb' })}\n`);
    const lock = await ExportLock.acquire(path);
    expect(readdirSync(dir).sort()).toEqual([
      'out.nt.lock',
      'out.nt.lock.bbbb.takeover',
      'out.nt.lock.notes.takeover.txt',
    ]);
    await lock.release();
    expect(readdirSync(dir)).toEqual(['out.nt.lock.notes.takeover.txt']);
  });

  it('keeps a second export from writing the same output while the first runs', async () => {
    const service = await startFakeService({ records: makeRecords(30), latencyMs: 50 });
    try {
      const output = join(dir, 'same.nt');
      const options = { query: 'x', baseUrl: service.url, pageSize: 5, output };
      const first = exportRdf(options);
      await new Promise((r) => setTimeout(r, 100));
      await expect(exportRdf(options)).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringContaining('another export'),
      });
      // Another state file, the same output: still refused; so is the same output named through a link.
      await expect(exportRdf({ ...options, statePath: join(dir, 'other-state.json') })).rejects.toMatchObject({
        code: 'usage',
      });
      symlinkSync(output, join(dir, 'link.nt'));
      await expect(exportRdf({ ...options, output: join(dir, 'link.nt') })).rejects.toMatchObject({ code: 'usage' });
      expect((await first).counts.records).toBe(30);
      expect(existsSync(`${output}.lock`)).toBe(false);
    } finally {
      await service.close();
    }
  });
});

describe('ExportLock under a race', () => {
  let bundleDir: string;
  let child: string;
  beforeAll(async () => {
    bundleDir = mkdtempSync(join(tmpdir(), 'export-lock-bundle-'));
    const lockModule = await bundleForChild(resolve(import.meta.dirname, '../../src/output/ExportLock.ts'), bundleDir);
    // A process that, at a given time, tries to take the lock `tries` times at once, says what it got,
    // and keeps it until its stdin ends (a winner that ended would leave a stale lock, rightly taken over).
    child = join(bundleDir, 'child.mjs');
    writeFileSync(
      child,
      `import { ExportLock } from ${JSON.stringify(lockModule)};
const [path, at, tries] = process.argv.slice(2);
await new Promise((r) => setTimeout(r, Math.max(0, Number(at) - Date.now())));
const results = await Promise.allSettled(Array.from({ length: Number(tries) }, () => ExportLock.acquire(path)));
console.log(JSON.stringify(results.map((r) => (r.status === 'fulfilled' ? 'won' : r.reason.code))));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
`,
    );
  });
  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

  /** 200 attempts to take one lock at the same instant: `processes` processes of `200 / processes` attempts each. What they got. */
  async function race(path: string, processes = 10): Promise<string[]> {
    const at = Date.now() + 2500;
    const children = Array.from({ length: processes }, () =>
      spawn(process.execPath, [child, path, String(at), String(200 / processes)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outcomes = await Promise.all(
      children.map((p) => {
        let out = '';
        return new Promise<string[]>((r) => {
          p.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            if (out.endsWith('\n')) r(JSON.parse(out) as string[]);
          });
          p.on('close', () => r([]));
        });
      }),
    );
    // Every process has said what it got while the winner still holds the lock: now they may end.
    await Promise.all(children.map((p) => new Promise((r) => (p.on('close', r), p.stdin.end()))));
    return outcomes.flat();
  }

  it('gives the lock to exactly one of 200 simultaneous starts in 10 processes', async () => {
    const outcomes = await race(join(dir, 'race.nt.lock'));
    expect(outcomes).toHaveLength(200);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'won').every((o) => o === 'usage')).toBe(true);
    // The lock names its holder (process and start time) and nothing is left beside it but the lock.
    expect(JSON.parse(readFileSync(join(dir, 'race.nt.lock'), 'utf8'))).toMatchObject({
      pid: expect.any(Number),
      token: expect.any(String),
    });
    expect(readdirSync(dir)).toEqual(['race.nt.lock']);
  }, 60_000);

  it('gives a stale lock to exactly one of 200 simultaneous starts', async () => {
    const path = join(dir, 'stale.nt.lock');
    const gone = Number(
      spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim(),
    );
    writeFileSync(path, `${JSON.stringify({ pid: gone, token: 'deadbeef' })}\n`);
    const outcomes = await race(path);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).not.toBe(gone);
  }, 60_000);

  it('takes over a lock whose process id now names another process (started at another time), and never one of a live export', async () => {
    const path = join(dir, 'reused.lock');
    writeFileSync(path, `${JSON.stringify({ pid: process.pid, start: '1', token: 'abc' })}\n`);
    const lock = await ExportLock.acquire(path);
    await expect(ExportLock.acquire(path)).rejects.toMatchObject({ code: 'usage' });
    expect(await ExportLock.holder(path)).toMatchObject({ pid: process.pid });
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
    expect(await ExportLock.holder(path)).toBeUndefined();
  });
});
