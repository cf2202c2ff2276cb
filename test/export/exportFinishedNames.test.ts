/**
 * Issue 32/33: a dump in one file is written as `<output>.partial` and gets its name when the export has
 * finished (a stopped run leaves the final name absent, or the previous finished dump there); validate and
 * load refuse the dump of an unfinished export unless `allowPartial`; an export over the finished dump of
 * another query is refused unless `force`; a state that saved no record is replaced without `restart`.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRdf, type ExportOptions } from '../../src/export/exportRdf.js';
import { readExportState, writeExportState } from '../../src/export/ExportState.js';
import { validateDump } from '../../src/tasks/validateDump.js';
import { loadDump } from '../../src/tasks/loadDump.js';
import { makeRecords, startFakeService, type FakeService } from '../client/fakeService.js';
import { interrupted } from './exportHarness.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'K3y-Of-Test/+=';
let service: FakeService;
let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-names-'));
  service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
});
afterEach(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

function base(extra: Partial<ExportOptions> = {}): ExportOptions {
  return {
    query: 'type:Journal',
    baseUrl: service.url,
    apiKey: KEY,
    pageSize: 10,
    concurrency: 1,
    retryPolicy: { baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  };
}

describe('a dump in one file gets its name when finished', () => {
  it('a stopped export leaves no file under the final name; the resume finishes it there', async () => {
    const out = join(dir, 'a.nt');
    await interrupted(base({ output: out }), 2);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(true);
    expect((await readExportState(`${out}.state.json`))?.output.partial).toBe(true);
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.counts.records).toBe(35);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(readFileSync(out, 'utf8')).toContain('<https://doi.org/10.1000/test.34>');
  });

  it('a stopped run over a finished dump leaves that dump as it was until it finishes', async () => {
    const out = join(dir, 'b.nt');
    await exportRdf(base({ output: out }));
    const finished = readFileSync(out);
    await interrupted(base({ output: out, restart: true }), 1);
    expect(readFileSync(out)).toEqual(finished);
    // validate and load read the finished dump; the partial file is refused without allowPartial.
    expect((await validateDump({ files: [out] })).conforms).toBe(true);
    await expect(validateDump({ files: [`${out}.partial`] })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('or pass `allowPartial` to validate it as it is'),
    });
  });

  it('a state of an earlier version, its unfinished dump under the final name: validate and load refuse it, allowPartial reads it; a resume goes on from it', async () => {
    const out = join(dir, 'c.nt');
    await interrupted(base({ output: out }), 2);
    // As an earlier version wrote it: the unfinished dump under its name, the state without `partial`.
    renameSync(`${out}.partial`, out);
    const state = (await readExportState(`${out}.state.json`))!;
    delete state.output.partial;
    await writeExportState(`${out}.state.json`, state);
    const refused = await validateDump({ files: [out] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'usage',
      message: expect.stringContaining(
        `${out} is the dump of an export that has not finished (20 records of 35 so far; ${out}.state.json says unfinished)`,
      ),
    });
    await expect(
      loadDump({ files: [out], endpoint: 'http://127.0.0.1:9/ds', graph: 'https://ex.org/g' }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('pass `allowPartial` to load it') });
    expect((await validateDump({ files: [out], allowPartial: true })).conforms).toBe(true);
    const summary = await exportRdf(base({ output: out, resume: true }));
    expect(summary.counts.records).toBe(35);
    expect(existsSync(out)).toBe(true);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('what an export may replace', () => {
  it('the finished dump of another query: refused, nothing changed; force replaces it; the same query again replaces its own', async () => {
    const out = join(dir, 'd.nt');
    await exportRdf(base({ output: out }));
    const before = readFileSync(out);
    const state = readFileSync(`${out}.state.json`);
    await expect(exportRdf(base({ output: out, query: 'other' }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining(
        `${out} holds the finished dump of another export (query (saved "type:Journal", now "other")); nothing was changed: pass \`force\``,
      ),
    });
    expect(readFileSync(out)).toEqual(before);
    expect(readFileSync(`${out}.state.json`)).toEqual(state);
    expect((await exportRdf(base({ output: out }))).counts.records).toBe(35);
    expect((await exportRdf(base({ output: out, query: 'other', force: true }))).counts.records).toBe(35);
    expect((await readExportState(`${out}.state.json`))?.identity.query).toBe('other');
  });

  it('a file no export state describes (a convert output, a deleted state): refused, nothing changed; force replaces it; an empty file is no loss', async () => {
    const out = join(dir, 'f.nt');
    writeFileSync(out, '<https://ex.org/s> <https://ex.org/p> "written by convert" .\n');
    const before = readFileSync(out);
    await expect(exportRdf(base({ output: out }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: `${out} already exists (${before.length} bytes) and no export state describes it; nothing was changed: pass \`force\` to replace it, or choose another \`output\``,
    });
    expect(readFileSync(out)).toEqual(before);
    expect(existsSync(`${out}.state.json`)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect((await exportRdf(base({ output: out, force: true }))).counts.records).toBe(35);
    expect(readFileSync(out, 'utf8')).not.toContain('written by convert');
    // Its own finished dump, state and all, is replaced by the same export again.
    expect((await exportRdf(base({ output: out }))).counts.records).toBe(35);
    const empty = join(dir, 'g.nt');
    writeFileSync(empty, '');
    expect((await exportRdf(base({ output: empty }))).counts.records).toBe(35);
  });

  it('the CLI names the file and --force', async () => {
    const out = join(dir, 'h.ttl');
    writeFileSync(out, '# mine\n');
    const run = await runCli(['export', '-q', 'type:Journal', '-o', out, '--base-url', service.url], {
      env: { SPRINGERNATURE_API_KEY: KEY },
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain(`${out} already exists (7 bytes) and no export state describes it`);
    expect(run.stderr).toContain('--force');
    expect(readFileSync(out, 'utf8')).toBe('# mine\n');
  });

  it('a state that saved no record (the query was refused) is replaced without restart', async () => {
    const out = join(dir, 'e.nt');
    const refusing = await startFakeService({
      records: makeRecords(5),
      apiKey: KEY,
      fault: ({ res }) => (
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'Fail', message: 'Invalid query' })),
        true
      ),
    });
    try {
      await expect(exportRdf({ ...base({ output: out }), baseUrl: refusing.url })).rejects.toMatchObject({
        code: expect.any(String),
      });
    } finally {
      await refusing.close();
    }
    expect((await readExportState(`${out}.state.json`))?.counts.records).toBe(0);
    expect((await exportRdf(base({ output: out }))).counts.records).toBe(35);
  });
});

describe('a resume that finds fewer records than before', () => {
  it('says records disappeared from the service (exit 1), not that pages came back short', async () => {
    const out = join(dir, 'f.nt');
    const records = makeRecords(35);
    const changing = await startFakeService({ records, apiKey: KEY });
    try {
      await interrupted({ ...base({ output: out }), baseUrl: changing.url }, 2);
      // The service loses its last 10 records meanwhile.
      records.splice(25);
      const r = await runCli(
        [
          'export',
          '-q',
          'type:Journal',
          '-o',
          out,
          '--resume',
          '--base-url',
          changing.url,
          '--api-key',
          KEY,
          '--page-size',
          '10',
          '--concurrency',
          '1',
          '--quiet',
        ],
        { cwd: dir },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        'records disappeared from the service: it reported 35 record(s) for the query when the export began and 25 now (10 fewer); 25 were harvested',
      );
      expect(r.stderr).not.toContain('short');
    } finally {
      await changing.close();
    }
  });
});
