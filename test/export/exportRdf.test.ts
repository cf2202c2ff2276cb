import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { exportRdf, type ExportOptions } from '../../src/export/exportRdf.js';
import { readExportState } from '../../src/export/ExportState.js';
import { ToolkitError } from '../../src/errors.js';
import { makeRecords, randomFaults, startFakeService, type FakeService } from '../client/fakeService.js';
import type { FormatName } from '../../src/serialize/QuadSerializer.js';

const KEY = 'K3y-Of-Test/+=';
let service: FakeService | undefined;
let dir: string;
const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-test-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function base(extra: Partial<ExportOptions> = {}): ExportOptions {
  return { query: 'type:Journal', baseUrl: service!.url, apiKey: KEY, pageSize: 10, concurrency: 2, now: fixedNow, retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra };
}

const EXT: Record<FormatName, string> = { turtle: 'ttl', ntriples: 'nt', nquads: 'nq', jsonld: 'jsonld', rdfxml: 'rdf' };

/** Runs an export, aborting it after `stopAfterPages` pages (like a crash between pages). */
async function interrupted(options: ExportOptions, stopAfterPages: number): Promise<void> {
  const controller = new AbortController();
  let pages = 0;
  await expect(
    exportRdf({ ...options, signal: controller.signal, onProgress: () => { if (++pages === stopAfterPages) controller.abort(); } }),
  ).rejects.toBeInstanceOf(ToolkitError);
}

describe('exportRdf', () => {
  it('writes each record once, in query order, with a final summary', async () => {
    service = await startFakeService({ records: makeRecords(45), apiKey: KEY });
    const out = join(dir, 'out.nt');
    const summary = await exportRdf(base({ output: out }));
    const text = readFileSync(out, 'utf8');
    const works = [...text.matchAll(/^<https:\/\/doi\.org\/(10\.1000\/test\.\d+)> <http:\/\/purl\.org\/ontology\/bibo\/doi>/gm)].map((m) => m[1]);
    expect(works).toEqual(makeRecords(45).map((r) => r.doi));
    expect(summary.counts).toMatchObject({ records: 45, pages: 5, rejects: 0, duplicates: 0 });
    expect(summary.counts.triples).toBe(text.trim().split('\n').length);
    const state = await readExportState(`${out}.state.json`);
    expect(state?.complete).toBe(true);
    expect(existsSync(`${out}.state.json.seen`)).toBe(false);
  });

  for (const format of ['turtle', 'jsonld', 'rdfxml', 'nquads'] as FormatName[]) {
    it(`resumes a ${format} export after an interruption to the same bytes as an uninterrupted one`, async () => {
      service = await startFakeService({ records: makeRecords(53), apiKey: KEY });
      const full = join(dir, `full.${EXT[format]}`);
      await exportRdf(base({ output: full }));
      const part = join(dir, `part.${EXT[format]}`);
      await interrupted(base({ output: part }), 2);
      const state = await readExportState(`${part}.state.json`);
      expect(state?.complete).toBe(false);
      expect(state?.counts.records).toBe(20);
      // a killed process may have written part of a page after the checkpoint
      appendFileSync(part, 'half a page of garbage');
      const summary = await exportRdf(base({ output: part, resume: true }));
      expect(summary.resumed).toBe(true);
      expect(summary.counts.records).toBe(53);
      expect(readFileSync(part)).toEqual(readFileSync(full));
    });
  }

  it('says so when a run without resume starts an unfinished export again', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const out = join(dir, 'again.nt');
    await interrupted(base({ output: out }), 2);
    const warnings: string[] = [];
    const summary = await exportRdf(base({ output: out, onWarning: (w) => warnings.push(w) }));
    expect(summary.counts.records).toBe(35);
    expect(warnings).toEqual([expect.stringMatching(/^an unfinished export \(20 records\) in .*again\.nt\.state\.json is started again from the beginning; --resume would have continued it$/)]);
    const quiet: string[] = [];
    await exportRdf(base({ output: out, onWarning: (w) => quiet.push(w) }));
    expect(quiet).toEqual([]); // the state of a finished export says nothing
  });

  it('makes .gz output resumable (one gzip member per page)', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const full = join(dir, 'full.nt.gz');
    await exportRdf(base({ output: full }));
    const part = join(dir, 'part.nt.gz');
    await interrupted(base({ output: part }), 2);
    appendFileSync(part, Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2]));
    await exportRdf(base({ output: part, resume: true }));
    expect(gunzipSync(readFileSync(part)).toString()).toBe(gunzipSync(readFileSync(full)).toString());
    expect(gunzipSync(readFileSync(full)).toString().trim().split('\n').length).toBeGreaterThan(35 * 5);
  });

  it('refuses to resume when the output was changed, or the options differ', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const out = join(dir, 'out.ttl');
    await interrupted(base({ output: out }), 1);
    const bytes = readFileSync(out);
    bytes[5] = bytes[5]! ^ 1;
    writeFileSync(out, bytes);
    await expect(exportRdf(base({ output: out, resume: true }))).rejects.toMatchObject({ code: 'state-mismatch' });
    await expect(exportRdf(base({ output: out, resume: true, query: 'other' }))).rejects.toMatchObject({ code: 'state-mismatch', message: expect.stringContaining('query') });
  });

  it('resuming a finished export does nothing', async () => {
    service = await startFakeService({ records: makeRecords(12), apiKey: KEY });
    const out = join(dir, 'out.ttl');
    await exportRdf(base({ output: out }));
    const before = service.requests.length;
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.alreadyComplete).toBe(true);
    expect(service.requests.length).toBe(before);
  });

  it('de-duplicates by DOI across pages and writes rejects', async () => {
    const records = makeRecords(20);
    const withDupes = [...records.slice(0, 10), records[2]!, { ...records[0]!, doi: 'not-a-doi', identifier: 'x', title: 'bad' }, ...records.slice(10)];
    service = await startFakeService({ records: withDupes as never, apiKey: KEY });
    const out = join(dir, 'out.nt');
    const rejectsPath = join(dir, 'rejects.jsonl');
    const warnings: string[] = [];
    const summary = await exportRdf(base({ output: out, rejectsPath, onWarning: (w) => warnings.push(w) }));
    expect(summary.counts).toMatchObject({ records: 20, duplicates: 1, rejects: 1 });
    const rejects = readFileSync(rejectsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { reason: string; record: { doi: string } });
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.record.doi).toBe('not-a-doi');
    expect(warnings.some((w) => w.includes('rejected'))).toBe(true);
  });

  it('rejects records that a validator finds violations in (--validate)', async () => {
    service = await startFakeService({ records: makeRecords(10), apiKey: KEY });
    const out = join(dir, 'out.nt');
    const rejectsPath = join(dir, 'rejects.jsonl');
    const summary = await exportRdf(
      base({
        output: out,
        rejectsPath,
        validateRecord: async (quads) => (quads.some((q) => q.object.value === '10.1000/test.4') ? ['Violation srsh:Work <x>: bad'] : []),
      }),
    );
    expect(summary.counts).toMatchObject({ records: 9, rejects: 1 });
    expect(readFileSync(out, 'utf8')).not.toContain('test.4>');
    const line = JSON.parse(readFileSync(rejectsPath, 'utf8')) as { code: string; violations: string[] };
    expect(line).toMatchObject({ code: 'validation-failed', violations: ['Violation srsh:Work <x>: bad'] });
    const state = await readExportState(`${out}.state.json`);
    expect(state?.identity.validate).toBe(true);
  });

  it('gives the same output under injected faults', async () => {
    service = await startFakeService({ records: makeRecords(60), apiKey: KEY });
    const clean = join(dir, 'clean.nt');
    await exportRdf(base({ output: clean }));
    await service.close();
    service = await startFakeService({ records: makeRecords(60), apiKey: KEY, fault: randomFaults(3, { error5xx: 0.1, tooMany: 0.05, truncated: 0.05, dropped: 0.05 }) });
    const faulty = join(dir, 'faulty.nt');
    const summary = await exportRdf(base({ output: faulty, retries: 8 } as Partial<ExportOptions>));
    expect(readFileSync(faulty)).toEqual(readFileSync(clean));
    expect(summary.counts.retries).toBeGreaterThan(0);
  });

  it('does not advise --resume after an error that running again cannot cure (a 400 on a deep page)', async () => {
    service = await startFakeService({ records: makeRecords(35), apiKey: KEY, maxStart: 10 });
    const out = join(dir, 'deep.nt');
    const err = (await exportRdf(base({ output: out, concurrency: 1 })).catch((e: unknown) => e)) as ToolkitError;
    expect(err.code).toBe('http-status');
    expect(err.message).toMatch(/progress is saved in .*: the same command would fail the same way/);
    expect(err.message).not.toContain('with --resume to continue');
  });

  it('stops cleanly when the quota runs out, saving state, and resumes later', async () => {
    let quotaGone = false;
    let served = 0;
    service = await startFakeService({
      records: makeRecords(40),
      apiKey: KEY,
      fault: ({ res }) => {
        if (!quotaGone && ++served > 2) quotaGone = true;
        if (!quotaGone) return false;
        res.writeHead(429, { 'retry-after': '86400' });
        res.end(`{"message":"Daily limit exceeded for ${KEY}"}`);
        return true;
      },
    });
    const out = join(dir, 'out.ttl');
    const err = (await exportRdf(base({ output: out, concurrency: 1 })).catch((e: unknown) => e)) as ToolkitError;
    expect(err.code).toBe('quota');
    expect(err.message).toContain('--resume');
    expect(err.message).not.toContain(KEY);
    const state = await readExportState(`${out}.state.json`);
    expect(state?.counts.records).toBe(20);
    quotaGone = false;
    served = -1000;
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.counts.records).toBe(40);
  });

  it('never writes the key into output, state, side files, rejects, meta, logs or errors', async () => {
    service = await startFakeService({ records: makeRecords(25), apiKey: KEY });
    const out = join(dir, 'out.nq');
    const logs: string[] = [];
    await interrupted(base({ output: out, metaPath: join(dir, 'meta.ttl'), rejectsPath: join(dir, 'r.jsonl'), onWarning: (w) => logs.push(w) }), 1);
    await exportRdf(base({ output: out, resume: true, metaPath: join(dir, 'meta.ttl'), rejectsPath: join(dir, 'r.jsonl'), onWarning: (w) => logs.push(w), onProgress: (p) => logs.push(JSON.stringify(p)) }));
    const bad = await exportRdf(base({ output: join(dir, 'bad.nt'), pageSize: 100, baseUrl: `${service.url}/nowhere` })).catch((e: Error) => e);
    logs.push(String((bad as Error).message), JSON.stringify((bad as ToolkitError).details));
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(KEY), file).toBe(false);
      expect(bytes.includes(encodeURIComponent(KEY)), file).toBe(false);
    }
    expect(logs.join('\n')).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(encodeURIComponent(KEY));
  });

  it('writes provenance: a --meta file and, in N-Quads, a metadata graph, deterministic apart from times', async () => {
    service = await startFakeService({ records: makeRecords(15), apiKey: KEY });
    const a = join(dir, 'a.nq');
    const meta = join(dir, 'meta.ttl');
    const summary = await exportRdf(base({ output: a, metaPath: meta }));
    const text = readFileSync(meta, 'utf8');
    expect(text).toContain('prov:Activity');
    expect(text).toContain('"This JSON was provided by Springer Nature"');
    expect(text).toMatch(/void:triples (\d+)/);
    expect(Number(/void:triples (\d+)/.exec(text)![1])).toBe(summary.counts.triples);
    expect(text).toContain(`prov:used <${service.url}/meta/v2/json>`);
    expect(text).toContain('sr:query "type:Journal"');
    const nq = readFileSync(a, 'utf8');
    expect(nq).toContain(`<http://www.w3.org/ns/prov#wasGeneratedBy> <${summary.dataset}#export> <${summary.dataset}> .`);
    const b = join(dir, 'b.nq');
    await exportRdf(base({ output: b, now: () => new Date('2030-01-01T00:00:00Z') }));
    const strip = (s: string) => s.split('\n').filter((l) => !/AtTime>/.test(l)).join('\n');
    expect(strip(readFileSync(b, 'utf8'))).toBe(strip(nq));
  });

  it('splits into date windows with --split-by and tracks them in the state across a resume', async () => {
    service = await startFakeService({ records: makeRecords(120, { startYear: 2024 }), apiKey: KEY });
    const full = join(dir, 'full.nt');
    await exportRdf(base({ output: full, splitBy: 'month', query: 'type:Journal onlinedatefrom:2024-01-01 onlinedateto:2024-12-31' }));
    const part = join(dir, 'part.nt');
    const opts = base({ output: part, splitBy: 'month', query: 'type:Journal onlinedatefrom:2024-01-01 onlinedateto:2024-12-31' });
    await interrupted(opts, 4);
    const state = await readExportState(`${part}.state.json`);
    expect(state?.cursor.windows?.length).toBeGreaterThan(0);
    await exportRdf({ ...opts, resume: true });
    expect(readFileSync(part)).toEqual(readFileSync(full));
    expect(readFileSync(full, 'utf8').match(/<http:\/\/purl\.org\/ontology\/bibo\/doi>/g)).toHaveLength(120);
  });
});
