/**
 * An export whose files cannot be written (a full disk, simulated by names
 * linked to /dev/full, where every write fails with ENOSPC): an `io` error
 * naming the file, with the `resume` advice; the state stays consistent, so
 * that after "freeing space" a resume gives the bytes of an export that never
 * failed. The real full disk (a small tmpfs) is in the integration suite.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRdf, type ExportOptions } from '../../src/export/exportRdf.js';
import { readExportState } from '../../src/export/ExportState.js';
import { makeRecords, startFakeService, type FakeService } from '../client/fakeService.js';

const KEY = 'K3y-Of-Disk-Test';
const FULL = '/dev/full';
let service: FakeService | undefined;
let dir: string;
const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-full-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function base(extra: Partial<ExportOptions> = {}): ExportOptions {
  return {
    query: 'type:Journal',
    baseUrl: service!.url,
    apiKey: KEY,
    pageSize: 5,
    concurrency: 1,
    now: fixedNow,
    retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  };
}

/** 20 records, the 8th without a DOI (a reject). */
function recordsWithAReject() {
  const records = makeRecords(20);
  return [...records.slice(0, 7), { ...records[7]!, doi: 'not-a-doi', identifier: 'x' }, ...records.slice(8)];
}

describe.runIf(existsSync(FULL))('exportRdf on a full disk', () => {
  it('a rejects file that cannot be written: io naming it, resume advice, and after freeing space the same bytes', async () => {
    service = await startFakeService({ records: recordsWithAReject() as never, apiKey: KEY });
    const clean = join(dir, 'clean.nt');
    await exportRdf(base({ output: clean, rejectsPath: join(dir, 'clean.rejects.jsonl') }));

    const out = join(dir, 'out.nt');
    const rejectsPath = join(dir, 'rejects.jsonl');
    symlinkSync(FULL, rejectsPath);
    const err = await exportRdf(base({ output: out, rejectsPath })).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: 'io' });
    expect(err!.message).toBe(
      `cannot write ${rejectsPath}: no space left on the device (ENOSPC)\nprogress is saved in ${out}.state.json: once space is freed, run the same export again with \`resume\` to continue`,
    );
    // The state points at what was committed before the failure (the first page), not past it.
    expect((await readExportState(`${out}.state.json`))!.counts.records).toBe(5);

    unlinkSync(rejectsPath); // space freed
    await exportRdf(base({ output: out, rejectsPath, resume: true }));
    expect(readFileSync(out)).toEqual(readFileSync(clean));
    expect(readFileSync(rejectsPath)).toEqual(readFileSync(join(dir, 'clean.rejects.jsonl')));
  });

  it('a description (--meta) that cannot be written: the resume writes it, the same as it would have been', async () => {
    service = await startFakeService({ records: makeRecords(12), apiKey: KEY });
    await exportRdf(base({ output: join(dir, 'clean.nq'), metaPath: join(dir, 'clean.ttl') }));

    const out = join(dir, 'out.nq');
    const meta = join(dir, 'meta.ttl');
    symlinkSync(FULL, `${meta}.tmp`);
    const err = await exportRdf(base({ output: out, metaPath: meta })).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toMatchObject({
      code: 'io',
      message: expect.stringContaining(
        `cannot write the description (\`metaPath\`) ${meta}: no space left on the device (ENOSPC)`,
      ),
    });
    expect(err!.message).toContain('run the same export again with `resume`');
    expect(existsSync(`${meta}.tmp`)).toBe(false);
    expect(existsSync(meta)).toBe(false);

    // Later, another clock: the description still says when the export ended.
    const summary = await exportRdf(
      base({ output: out, metaPath: meta, resume: true, now: () => new Date('2030-01-01T00:00:00Z') }),
    );
    expect(summary.alreadyComplete).toBe(true);
    expect(readFileSync(meta, 'utf8')).toBe(readFileSync(join(dir, 'clean.ttl'), 'utf8'));
    expect(readFileSync(out)).toEqual(readFileSync(join(dir, 'clean.nq')));
    expect((await readExportState(`${out}.state.json`))!.metaWritten).toBe(meta);
    // Written once: a second resume leaves it as it is.
    await exportRdf(base({ output: out, metaPath: meta, resume: true }));
    expect(readFileSync(meta, 'utf8')).toBe(readFileSync(join(dir, 'clean.ttl'), 'utf8'));
  });

  it('refuses a --meta into a folder that is not there before harvesting anything', async () => {
    service = await startFakeService({ records: makeRecords(5), apiKey: KEY });
    const meta = join(dir, 'no', 'such', 'meta.ttl');
    await expect(exportRdf(base({ output: join(dir, 'out.nt'), metaPath: meta }))).rejects.toMatchObject({
      code: 'io',
      message: `cannot create ${meta}: its folder does not exist (ENOENT)`,
    });
    expect(service.requests).toHaveLength(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a dump stream that fails (stdout on a full disk): io naming it, not a crash', async () => {
    service = await startFakeService({ records: makeRecords(12), apiKey: KEY });
    const stream = new Writable({
      write: (_chunk, _enc, cb) =>
        cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
    });
    await expect(exportRdf(base({ stream, streamName: 'stdout' }))).rejects.toMatchObject({
      code: 'io',
      message: 'cannot write stdout: no space left on the device (ENOSPC)',
    });
  });
});
