import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/CliContext.js';
import { run } from '../../src/cli/main.js';
import { ToolkitError } from '../../src/errors.js';
import { makeRecords, startFakeService, type FakeService } from '../client/fakeService.js';

const KEY = 'cli-SECRET-key-123';
let dir: string;
let service: FakeService | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[], env: Record<string, string> = {}, tty = false, signal?: AbortSignal) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr, env, cwd: dir, stderrIsTTY: tty };
  const exitCode = await run(argv, io, signal);
  return { exitCode, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

describe('export command', () => {
  it('exports with the key from the environment, logs progress lines and a summary', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const r = await cli(
      ['export', '-q', 'type:Journal', '-o', 'out.nt', '--base-url', service.url, '--page-size', '10'],
      { SCHOLARLY_API_KEY: KEY },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/export: 10\/30 records/);
    expect(r.stderr).toMatch(
      /export: 30 records, [\d,]+ statements \([\d,]+ distinct; shared entities repeat per record\) from 3 pages to out\.nt/,
    );
    expect(readFileSync(join(dir, 'out.nt'), 'utf8')).toContain('<https://doi.org/10.1000/test.29>');
  });

  it('exits 1 and says so when fewer records were harvested than the service reported (a short page)', async () => {
    const records = makeRecords(15);
    service = await startFakeService({
      records,
      apiKey: KEY,
      // The page at s=6 holds 3 of its 5 records.
      fault: ({ url, res }) => {
        if (url.searchParams.get('s') !== '6') return false;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            query: 'x',
            result: [{ total: '15', start: '6', pageLength: '5', recordsDisplayed: '3' }],
            records: records.slice(5, 8),
            facets: [],
            nextPage: `/meta/v2/json?q=x&s=11&p=5&api_key=${KEY}`,
          }),
        );
        return true;
      },
    });
    const r = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'short.nt',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--page-size',
      '5',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the service reported 15 record(s) for the query but 13 were harvested (2 fewer)');
    const full = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'full.nt',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--page-size',
      '5',
      '--max-records',
      '10',
    ]);
    expect(full.exitCode).toBe(0);
  });

  it('refuses a --timeout beyond what a timer can wait, as a usage error', async () => {
    const r = await cli(['search', '--sample', '-q', 'x', '--timeout', '1e9']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--timeout must be a number greater than 0 and at most 2147483, got "1e9"');
  });

  it('--validate moves records that do not conform to the rejects file, their violations as convert writes them', async () => {
    const records = makeRecords(4);
    records[2]!.doi = '10.12/short'; // a registrant code of two digits: srsh:Work-doi
    service = await startFakeService({ records, apiKey: KEY });
    const r = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'v.nt',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--validate',
      '--rejects',
      'v.rejects.jsonl',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('1 record(s) could not be mapped or did not conform to the shapes; see v.rejects.jsonl');
    const [line] = readFileSync(join(dir, 'v.rejects.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(line.code).toBe('validation-failed');
    expect(line.reason).toMatch(/^does not conform to the shapes: Violation srsh:Work-doi /);
    expect(line.violations[0]).toMatchObject({
      severity: 'Violation',
      shape: 'srsh:Work-doi',
      path: 'bibo:doi',
      message: expect.stringMatching(/exactly one bibo:doi/),
    });
    expect(line.record.doi).toBe('10.12/short');
    expect(readFileSync(join(dir, 'v.nt'), 'utf8')).not.toContain('10.12/short');
  });

  it('draws a progress bar on a terminal and nothing with --quiet', async () => {
    service = await startFakeService({ records: makeRecords(20), apiKey: KEY });
    const tty = await cli(
      ['export', '-q', 'x', '-o', 'a.ttl', '--base-url', service.url, '--api-key', KEY, '--page-size', '10'],
      {},
      true,
    );
    expect(tty.stderr).toMatch(/\r\[#+\.*\] 10\/20 records .* ETA .* retries 0/);
    const quiet = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'b.ttl',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--quiet',
    ]);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it("on a terminal, --split-by fills the bar to the query's total (asked apart), and Ctrl-C ends the bar before its message", async () => {
    service = await startFakeService({ records: makeRecords(40), apiKey: KEY });
    const split = await cli(
      [
        'export',
        '-q',
        'x',
        '-o',
        's.ttl',
        '--split-by',
        'year',
        '--base-url',
        service.url,
        '--api-key',
        KEY,
        '--page-size',
        '10',
      ],
      {},
      true,
    );
    expect(split.exitCode, split.stderr).toBe(0);
    expect(split.stderr).toMatch(/\r\[#+\] 40\/40 records 100%/);
    const controller = new AbortController();
    service.close();
    service = await startFakeService({
      records: makeRecords(40),
      apiKey: KEY,
      // The third page stops the run, as Ctrl-C would.
      fault: ({ url }) => {
        if (url.searchParams.get('s') === '21') controller.abort(new ToolkitError('interrupted', 'aborted'));
        return false;
      },
    });
    const stopped = await cli(
      ['export', '-q', 'x', '-o', 'i.ttl', '--base-url', service.url, '--api-key', KEY, '--page-size', '10'],
      {},
      true,
      controller.signal,
    );
    expect(stopped.exitCode).toBe(130);
    // The bar stays as it was, ended by a newline; the message is on a line of its own.
    expect(stopped.stderr).toMatch(
      /\r\[#+\.+\] (10\/40 records 25|20\/40 records 50)%[^\n]*\x1b\[K\nscholarly-rdf: error \[aborted\]: interrupted\n/,
    );
  });

  it('--since: a bad date or --changes-since with it is a usage error naming the flag; a delta to Turtle is refused', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const args = ['export', '-q', 'type:Journal', '-o', 'd.nq', '--base-url', service.url];
    const bad = await cli([...args, '--since', '2024-13-01'], { SCHOLARLY_API_KEY: KEY });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--since must be a date YYYY-MM-DD');
    const both = await cli([...args, '--since', '2024-01-01', '--changes-since'], { SCHOLARLY_API_KEY: KEY });
    expect(both.stderr).toContain('--since DATE and --changes-since');
    const turtle = await cli(
      ['export', '-q', 'type:Journal', '-o', 'd.ttl', '--base-url', service.url, '--since', '2020-01-15'],
      { SCHOLARLY_API_KEY: KEY },
    );
    expect(turtle.stderr).toContain('N-Quads, JSON-LD or TriG output, not Turtle');
    expect(service.requests).toEqual([]);
    const ok = await cli([...args, '--since', '2020-01-15', '--quiet'], { SCHOLARLY_API_KEY: KEY });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(new Set(service.requests.map((u) => u.searchParams.get('q')))).toEqual(
      new Set(['type:Journal onlinedatefrom:2020-01-15']),
    );
  });

  it('writes to stdout without -o', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    const r = await cli(['export', '-q', 'x', '-f', 'jsonld', '--base-url', service.url, '--api-key', KEY, '--quiet']);
    const doc = JSON.parse(r.stdout) as { '@graph': unknown[] };
    expect(doc['@graph'].length).toBeGreaterThanOrEqual(3);
    expect(r.stdout.match(/"10\.1000\/test\.\d+"/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses to start an unfinished export again without --resume (exit 6, nothing changed); --restart starts it again', async () => {
    let broken = true;
    service = await startFakeService({
      records: makeRecords(30),
      apiKey: KEY,
      // The third page fails for good (a 400 is not retried): the export stops with 20 records saved.
      fault: ({ url, res }) => {
        if (!broken || url.searchParams.get('s') !== '21') return false;
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'Fail', message: 'Invalid parameters found' }));
        return true;
      },
    });
    const args = [
      'export',
      '-q',
      'x',
      '-o',
      'u.nt',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--page-size',
      '10',
      '--quiet',
    ];
    expect((await cli(args)).exitCode).toBe(3);
    broken = false;
    const files = ['u.nt.partial', 'u.nt.state.json', 'u.nt.state.json.seen'];
    const before = files.map((f) => readFileSync(join(dir, f)));
    const again = await cli(args);
    expect(again.exitCode).toBe(6);
    expect(again.stderr).toContain(
      `error [state-mismatch]: ${join(dir, 'u.nt.state.json')} holds an unfinished export (20 records of 30); nothing was changed: run it with --resume to continue it, or with --restart to start it again from the beginning (its progress is lost)`,
    );
    expect(files.map((f) => readFileSync(join(dir, f)))).toEqual(before);
    const both = await cli([...args, '--resume', '--restart']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain(
      '--resume (continue the saved export) and --restart (start it again) do not go together',
    );
    const restarted = await cli([...args.filter((a) => a !== '--quiet'), '--restart']);
    expect(restarted.exitCode).toBe(0);
    expect(restarted.stderr).toContain('is started again from the beginning (--restart)');
    expect(readFileSync(join(dir, 'u.nt'), 'utf8')).toContain('<https://doi.org/10.1000/test.29>');
    expect((await cli(['export', '--help'])).stdout).toMatch(/--restart +start again from the beginning/);
  });

  it('without a key says how to get one and mentions --sample', async () => {
    const r = await cli(['export', '-q', 'x', '-o', 'x.ttl']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('--api-key');
    expect(r.stderr).toContain('SCHOLARLY_API_KEY');
    expect(r.stderr).toContain('--sample');
  });

  it('--sample exports the bundled catalogue offline, and search and get use it too', async () => {
    const r = await cli(['export', '--sample', '-q', 'type:Journal', '-o', 'sample.ttl', '--quiet']);
    expect(r.exitCode).toBe(0);
    const ttl = readFileSync(join(dir, 'sample.ttl'), 'utf8');
    const dois = [...ttl.matchAll(/bibo:doi "([^"]+)"/g)].map((m) => m[1]!);
    expect(dois.length).toBeGreaterThan(50);
    const s = await cli(['search', '--sample', '-q', 'type:Journal', '-p', '3']);
    expect(s.exitCode).toBe(0);
    expect(s.stdout).toMatch(/^TITLE\s+DOI\s+DATE/);
    expect(s.stdout).toContain(`records 1-3 of ${dois.length}`);
    expect(s.stdout).toMatch(/^type: Journal \(\d+\)/m);
    const g = await cli(['get', '--sample', dois[0]!, '-f', 'ntriples']);
    expect(g.exitCode).toBe(0);
    expect(g.stdout).toContain(`<http://purl.org/ontology/bibo/doi> "${dois[0]}" .`);
    // The local service answers as the service does since 2026: a DOI it does not know is its "no data" 404.
    const missing = await cli(['get', '--sample', '10.9999/none']);
    expect(missing.exitCode).toBe(7);
    expect(missing.stderr).toContain(
      'error [no-record]: no record with DOI 10.9999/none: the service answered that no data was found for it',
    );
  });

  it('--endpoint openaccess: search, export (20 a page, the open-access records) and get; a larger page size is lowered with a warning', async () => {
    const s = await cli(['search', '--sample', '--endpoint', 'openaccess', '-q', 'type:Journal', '-p', '20']);
    expect(s.exitCode, s.stderr).toBe(0);
    const total = Number(/records 1-20 of (\d+)/.exec(s.stdout)?.[1]);
    expect(total).toBeGreaterThan(20);
    const e = await cli(['export', '--sample', '--endpoint', 'openaccess', '-q', 'type:Journal', '-o', 'oa.nt']);
    expect(e.exitCode, e.stderr).toBe(0);
    const dois = [...readFileSync(join(dir, 'oa.nt'), 'utf8').matchAll(/bibo\/doi> "([^"]+)"/g)].map((m) => m[1]!);
    expect(dois).toHaveLength(total);
    const state = JSON.parse(readFileSync(join(dir, 'oa.nt.state.json'), 'utf8')) as {
      identity: { pageSize: number; endpoint: string };
    };
    expect(state.identity).toMatchObject({ pageSize: 20, endpoint: 'sample:/openaccess/json' });
    const big = await cli([
      'export',
      '--sample',
      '--endpoint',
      'openaccess',
      '-q',
      'type:Journal',
      '-o',
      'oa25.nt',
      '--page-size',
      '25',
    ]);
    expect(big.exitCode, big.stderr).toBe(0);
    expect(big.stderr).toContain(
      'warning: the openaccess endpoint gives any key at most 20 records a page: harvesting 20 a page instead of 25',
    );
    expect(readFileSync(join(dir, 'oa25.nt'))).toEqual(readFileSync(join(dir, 'oa.nt')));
    const g = await cli(['get', '--sample', '--endpoint', 'openaccess', dois[0]!, '-f', 'ntriples']);
    expect([g.exitCode, g.stdout]).toEqual([0, expect.stringContaining(`"${dois[0]}"`)]);
    const plan = await cli(['search', '--sample', '--plan', 'basic', '-q', 'year:2015']);
    expect([plan.exitCode, plan.stderr]).toEqual([
      3,
      expect.stringContaining('error [plan-limit]: the query field `year:` (year:2015) needs a premium key'),
    ]);
  }, 180_000); // five commands against the in-process sample service: generous, never a measure of speed

  it('search --json prints the raw page without the key', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const r = await cli([
      'search',
      '-q',
      'x',
      '--json',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '-s',
      '11',
      '-p',
      '5',
    ]);
    const page = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(page['apiKey']).toBeUndefined();
    expect(page['nextPage']).toContain('s=16');
    expect(r.stdout).not.toContain(KEY);
  });

  it('a wrong key stops with the service message and never shows the key', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    const wrong = 'WRONG-key-987';
    const r = await cli(['export', '-q', 'x', '-o', 'x.ttl', '--base-url', service.url, '--api-key', wrong]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('API key is invalid or missing');
    expect(r.stderr).not.toContain(wrong);
  });

  it('the key appears in no output, state, log or error (a scan)', async () => {
    service = await startFakeService({ records: makeRecords(40), apiKey: KEY });
    const runs = [
      await cli([
        'export',
        '-q',
        'x',
        '-o',
        'o.nq',
        '--meta',
        'meta.ttl',
        '--rejects',
        'rej.jsonl',
        '--base-url',
        service.url,
        '--api-key',
        KEY,
        '--max-records',
        '25',
        '--page-size',
        '10',
      ]),
      await cli(
        ['export', '-q', 'x', '-o', 'e.ttl', '--base-url', service.url, '--page-size', '10'],
        { SCHOLARLY_API_KEY: KEY },
        true,
      ),
      await cli(['export', '-q', 'x', '-o', 'p.ttl', '--base-url', service.url, '--page-size', '500'], {
        SCHOLARLY_API_KEY: KEY,
      }),
      await cli(['export', '-q', 'x', '-o', 'q.ttl', '--base-url', `${service.url}/missing`, '--retries', '0'], {
        SCHOLARLY_API_KEY: KEY,
      }),
      await cli(['search', '-q', 'x', '--base-url', service.url], { SCHOLARLY_API_KEY: KEY }),
      await cli(['search', '-q', 'x', '--json', '--base-url', service.url], { SCHOLARLY_API_KEY: KEY }),
      await cli(['get', '10.1000/test.1', '--base-url', service.url], { SCHOLARLY_API_KEY: KEY }),
      await cli(['get', '10.1000/none', '--base-url', service.url], { SCHOLARLY_API_KEY: KEY }),
    ];
    // A DOI the service does not know: exit 7 (`no-record`), its own status.
    expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 2, 3, 0, 0, 0, 7]);
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(KEY);
      expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(KEY));
    }
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['o.nq', 'o.nq.state.json', 'meta.ttl', 'e.ttl']));
    for (const f of files) expect(readFileSync(join(dir, f)).includes(KEY), f).toBe(false);
  });

  it('counts a DOI harvested again with other content as a conflict: in the summary line, printed, and in --json', async () => {
    const records = makeRecords(12);
    service = await startFakeService({
      records: [...records.slice(0, 6), { ...records[1]!, title: 'Another title' }, ...records.slice(6)],
      apiKey: KEY,
    });
    const r = await cli(
      ['export', '-q', 'x', '-o', 'dup.nt', '--json', '--base-url', service.url, '--api-key', KEY, '--page-size', '5'],
      {},
      true,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout.trim().split('\n').pop()!) as { conflicts: number; conflictNotes: string[] };
    expect(json.conflicts).toBe(1);
    expect(json.conflictNotes[0]).toMatch(
      /^conflict: DOI 10\.1000\/test\.1 has different content in \S+#2 and \S+ result 7 \(dropped/,
    );
    expect(r.stderr).toContain('1 conflicts');
    expect(r.stderr).toContain(`export: ${json.conflictNotes[0]}`);
  });

  it('does not call dropped duplicates short pages: a query whose pages hold a DOI twice ends with 0', async () => {
    const records = makeRecords(12);
    service = await startFakeService({
      records: [...records.slice(0, 6), records[1]!, ...records.slice(6)],
      apiKey: KEY,
    });
    const r = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'dup.nt',
      '--base-url',
      service.url,
      '--api-key',
      KEY,
      '--page-size',
      '5',
    ]);
    expect(r.stderr).not.toContain('came back short');
    expect(r.exitCode).toBe(0);
  });

  it('refuses an api_key pasted into --base-url (exit 2) and writes it nowhere', async () => {
    service = await startFakeService({ records: makeRecords(3), apiKey: KEY });
    const r = await cli([
      'export',
      '-q',
      'x',
      '-o',
      'k.nt',
      '--base-url',
      `${service.url}/?api_key=${KEY}`,
      '--api-key',
      KEY,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--base-url');
    expect(r.stdout + r.stderr).not.toContain(KEY);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes(KEY), f).toBe(false);
  });

  it('a stdout that cannot be written (a full disk) ends with exit 4 and one line, no stack trace', async () => {
    service = await startFakeService({ records: makeRecords(30), apiKey: KEY });
    const full = new Writable({
      write: (_c, _e, cb) => cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
    });
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await run(['export', '-q', 'x', '--base-url', service.url, '--api-key', KEY, '--page-size', '10'], {
      stdin: new PassThrough(),
      stdout: full,
      stderr,
      env: {},
      cwd: dir,
      stderrIsTTY: false,
    });
    expect(code).toBe(4);
    expect(err).toMatch(
      /scholarly-rdf: error \[io\]: cannot write the output stream: no space left on the device \(ENOSPC\)\n$/,
    );
    expect(err).not.toMatch(/internal error|\n\s+at /);
  });

  it('--graph-per-record puts each record in its own graph, refuses formats without graphs, --graph and --load, and says so in --help', async () => {
    service = await startFakeService({ records: makeRecords(7), apiKey: KEY });
    const common = ['export', '-q', 'x', '--base-url', service.url, '--api-key', KEY, '--quiet'];
    const r = await cli([
      ...common,
      '-o',
      'g.nq',
      '--graph-per-record',
      '--meta',
      'g.meta.ttl',
      '--license',
      'https://creativecommons.org/publicdomain/zero/1.0/',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const graphs = new Set(
      [
        ...readFileSync(join(dir, 'g.nq'), 'utf8').matchAll(
          / <(https:\/\/w3id\.org\/scholarly-rdf\/record\/[^>]+)> \.$/gm,
        ),
      ].map((m) => m[1]),
    );
    expect([...graphs].sort()).toEqual(
      makeRecords(7)
        .map((rec) => `https://w3id.org/scholarly-rdf/record/${rec.doi}`)
        .sort(),
    );
    const meta = readFileSync(join(dir, 'g.meta.ttl'), 'utf8');
    expect(meta).toContain('sr:recordGraphPattern "https://w3id.org/scholarly-rdf/record/{doi}"');
    expect(meta).toContain('dcterms:license <https://creativecommons.org/publicdomain/zero/1.0/>');
    const ttl = await cli([...common, '-o', 'g.ttl', '--graph-per-record']);
    expect(ttl.exitCode).toBe(2);
    expect(ttl.stderr).toContain('--graph-per-record needs N-Quads, JSON-LD or TriG output, not Turtle');
    const both = await cli([...common, '-o', 'b.nq', '--graph-per-record', '--graph', 'https://example.org/g']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('do not go together');
    const load = await cli([...common, '-o', 'l.nq', '--graph-per-record', '--load', 'http://127.0.0.1:9/ds']);
    expect(load.exitCode).toBe(2);
    expect(load.stderr).toContain('--graph-per-record and --load do not go together');
    const help = (await cli(['export', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      '--graph-per-record N-Quads, JSON-LD or TriG: put each record in its own named graph <base>record/<doi>',
    );
    expect(help).toContain('--license <iri> the licence of the dump, stated as dcterms:license');
  });
});
