// The toolkit against the service as it answers since 2026 (issue 31): `serve` in its default mode and a
// stand-in that answers a query with no hits with the 2026 404 ("No data was found for the given query.").
// An export of a query with no hits, a delta with nothing new and a deep harvest whose date windows include
// empty ones end with exit 0 and the right records; `get` of an unknown DOI is `no-record` (exit 7); a basic
// key with --page-size 100 harvests what --page-size 25 does (one warning); a basic key with year:2015 stops
// before writing anything, naming the field and the basic alternative, and the fixed query then runs without
// --restart; --plan basic refuses it before the first request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleCataloguePath } from '../../src/sample/sampleCatalogue.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import { readExportState } from '../../src/export/ExportState.js';
import { makeRecords, startFakeService, type FakeRecord, type FakeService } from '../client/fakeService.js';
import { riotValidate, runCli, needTools } from './helpers.js';

const BASIC = 'basic-KEY-2026';
const PREMIUM = 'premium-KEY-2026';
let server: RunningServer;
let standIn: FakeService;
let standInRecords: FakeRecord[];
let dir: string;

beforeAll(async () => {
  server = await startServer({
    catalogue: Catalogue.fromFile(sampleCataloguePath()),
    apiKeys: [BASIC, `${PREMIUM}:premium`],
  });
  // Records in January-March and October 2020 only: the months between are empty windows (404s).
  standInRecords = makeRecords(300).filter(
    (r) => r.onlineDate < '2020-04-01' || (r.onlineDate >= '2020-10-01' && r.onlineDate < '2020-11-01'),
  );
  standIn = await startFakeService({ records: standInRecords, apiKey: BASIC, maxPageSize: 25, empty404: true });
  dir = mkdtempSync(join(tmpdir(), 'service2026-int-'));
});

afterAll(async () => {
  await server?.close(100);
  await standIn?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const services = () =>
  [
    ['serve (2026)', server.url],
    ['a stand-in', standIn.url],
  ] as const;

function exportArgs(url: string, query: string, output: string, extra: string[] = []): string[] {
  return ['export', '-q', query, '-o', join(dir, output), '--base-url', url, '--api-key', BASIC, ...extra];
}

/** The DOIs of an N-Triples or N-Quads dump, sorted. */
function doisOf(file: string): string[] {
  return [...readFileSync(join(dir, file), 'utf8').matchAll(/<http:\/\/purl\.org\/ontology\/bibo\/doi> "([^"]+)"/g)]
    .map((m) => m[1]!)
    .sort();
}

describe('an empty result is a result', () => {
  it.each([0, 1])('an export of a query with no hits ends with 0 records and exit 0, and says so (%#)', async (i) => {
    const [name, url] = services()[i]!;
    const r = await runCli(exportArgs(url, 'doi:10.9999/none', `none${i}.nt`));
    expect([name, r.exitCode, r.stderr]).toEqual([
      name,
      0,
      expect.stringContaining('export: the query matches no records'),
    ]);
    expect(readFileSync(join(dir, `none${i}.nt`), 'utf8')).toBe('');
    const state = await readExportState(join(dir, `none${i}.nt.state.json`));
    expect(state).toMatchObject({ complete: true, counts: { records: 0 } });
    // the same export again, and resumed: exit 0 (no state that makes it fail)
    const again = await runCli(exportArgs(url, 'doi:10.9999/none', `none${i}.nt`));
    expect([again.exitCode, again.stderr]).toEqual([
      0,
      expect.stringContaining('export: the query matches no records'),
    ]);
    const resumed = await runCli(exportArgs(url, 'doi:10.9999/none', `none${i}.nt`, ['--resume']));
    expect([resumed.exitCode, resumed.stderr]).toEqual([
      0,
      expect.stringContaining('is already complete (0 records); nothing to do'),
    ]);
  });

  it.each([0, 1])('a delta with nothing new ends with exit 0 and says "nothing new since" (%#)', async (i) => {
    const [name, url] = services()[i]!;
    const r = await runCli(exportArgs(url, 'onlinedatefrom:2000-01-01', `delta${i}.nq`, ['--since', '2026-01-01']));
    expect([name, r.exitCode]).toEqual([name, 0]);
    expect(r.stderr).toContain('export: nothing new since 2026-01-01');
    expect(readFileSync(join(dir, `delta${i}.nq`), 'utf8')).not.toContain('bibo/doi');
  });

  it('a harvest in date windows skips the empty ones: the records of the whole query, exit 0', async () => {
    // serve: 2004-2006 holds 32 records in 36 months; many months are empty
    const whole = await runCli(exportArgs(server.url, 'onlinedatefrom:2004-01-01 onlinedateto:2006-12-31', 'whole.nt'));
    expect(whole.exitCode, whole.stderr).toBe(0);
    const split = await runCli(
      exportArgs(server.url, 'onlinedatefrom:2004-01-01 onlinedateto:2006-12-31', 'split.nt', ['--split-by', 'month']),
    );
    expect(split.exitCode, split.stderr).toBe(0);
    expect(doisOf('split.nt')).toEqual(doisOf('whole.nt'));
    expect(doisOf('whole.nt')).toHaveLength(32);
    // the stand-in: a query deeper than paging reaches is split; April-September 2020 are empty (404s)
    const before = standIn.requests.length;
    const deep = await runCli(
      exportArgs(standIn.url, 'onlinedatefrom:2020-01-01 onlinedateto:2020-12-31', 'deep.nt', ['--max-start', '26']),
    );
    expect(deep.exitCode, deep.stderr).toBe(0);
    expect(doisOf('deep.nt')).toEqual(standInRecords.map((r) => r.doi).sort());
    expect(
      standIn.requests.slice(before).some((u) => /onlinedatefrom:2020-0[4-9]/.test(u.searchParams.get('q') ?? '')),
    ).toBe(true);
    if (needTools('jena')) expect((await riotValidate([join(dir, 'deep.nt')])).ok).toBe(true);
  });

  it.each([0, 1])(
    'get of a DOI the service does not know: no-record, exit 7; of one it knows: its RDF (%#)',
    async (i) => {
      const [name, url] = services()[i]!;
      const r = await runCli(['get', '10.9999/nothing', '--base-url', url, '--api-key', BASIC]);
      expect([name, r.exitCode]).toEqual([name, 7]);
      expect(r.stderr).toContain(
        'error [no-record]: no record with DOI 10.9999/nothing: the service answered that no data was found for it',
      );
      const doi = i === 0 ? doisOf('whole.nt')[0]! : standInRecords[0]!.doi;
      expect((await runCli(['get', doi, '-f', 'ntriples', '--base-url', url, '--api-key', BASIC])).stdout).toContain(
        `"${doi}"`,
      );
    },
  );
});

describe('plans', () => {
  it.each([0, 1])(
    'a basic key with --page-size 100 harvests the same records as --page-size 25, with one warning (%#)',
    async (i) => {
      const [name, url] = services()[i]!;
      const q = 'onlinedatefrom:2015-01-01 onlinedateto:2024-12-31';
      const at25 = await runCli(exportArgs(url, q, `p25-${i}.nt`, ['--page-size', '25']));
      expect([name, at25.exitCode, at25.stderr]).toEqual([name, 0, expect.not.stringContaining('warning')]);
      const at100 = await runCli(exportArgs(url, q, `p100-${i}.nt`, ['--page-size', '100']));
      expect(at100.exitCode, at100.stderr).toBe(0);
      const warnings = at100.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^warning: the service refused 100 records a page as beyond the key's plan \(403: .*premium feature.*\): harvesting 25 a page, the most a basic key allows$/,
      );
      expect(at100.stderr).not.toContain(BASIC);
      expect(readFileSync(join(dir, `p100-${i}.nt`))).toEqual(readFileSync(join(dir, `p25-${i}.nt`)));
      expect(doisOf(`p25-${i}.nt`).length).toBeGreaterThan(25);
      // recorded in the state: a resume keeps it
      const state = await readExportState(join(dir, `p100-${i}.nt.state.json`));
      expect(state?.identity.pageSize).toBe(100);
      expect(state?.cursor.pageSize).toBe(25);
    },
  );

  it('a basic key with year:2015 stops before writing anything, naming the field and the basic alternative; the fixed query needs no --restart', async () => {
    const r = await runCli(exportArgs(server.url, 'year:2015', 'y.nt', ['--rejects', join(dir, 'y.rejects')]));
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      'error [plan-limit]: the query field `year:` (year:2015) needs a premium key; with a basic key use onlinedatefrom:/onlinedateto: or datefrom:/dateto: (e.g. datefrom:2015-01-01 dateto:2015-12-31) (403: Access to this premium feature is restricted',
    );
    expect(r.stderr).not.toContain(BASIC);
    // no dump, and a state of no records (issue 32's rule: such a state is replaced without --restart)
    expect(existsSync(join(dir, 'y.nt'))).toBe(false);
    expect((await readExportState(join(dir, 'y.nt.state.json')))?.counts.records ?? 0).toBe(0);
    const fixed = await runCli(exportArgs(server.url, 'datefrom:2015-01-01 dateto:2015-12-31', 'y.nt'));
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(doisOf('y.nt').length).toBeGreaterThan(0);
    // a premium key may
    const premium = await runCli([
      'export',
      '-q',
      'year:2015',
      '-o',
      join(dir, 'yp.nt'),
      '--base-url',
      server.url,
      '--api-key',
      PREMIUM,
    ]);
    expect(premium.exitCode, premium.stderr).toBe(0);
  });

  it('--plan basic catches it before the first request', async () => {
    const before = standIn.requests.length;
    const r = await runCli(exportArgs(standIn.url, 'year:2015 keyword:x', 'plan.nt', ['--plan', 'basic']));
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      'error [plan-limit]: the query field `year:` (year:2015) needs a premium key; with a basic key use onlinedatefrom:/onlinedateto:',
    );
    expect(r.stderr).toContain('(--plan basic: checked before any request)');
    expect(standIn.requests.length).toBe(before);
    expect(existsSync(join(dir, 'plan.nt'))).toBe(false);
    const search = await runCli([
      'search',
      '-q',
      'subject:Chemistry',
      '--plan',
      'basic',
      '--base-url',
      standIn.url,
      '--api-key',
      BASIC,
    ]);
    expect(search.exitCode).toBe(3);
    expect(standIn.requests.length).toBe(before);
  });
});
