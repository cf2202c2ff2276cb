/**
 * `--json` of every command, parsed: one object on one line, on stdout, or
 * (when stdout carries the data: a dump, a term, a record) the last line of
 * stderr; a failure adds `error`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/CliContext.js';
import { run } from '../../src/cli/main.js';
import { loadLogPath } from '../../src/tasks/loadDump.js';
import { runCli } from '../helpers/cli.js';
import { GspTestServer } from '../store/GspTestServer.js';

const dir = mkdtempSync(join(tmpdir(), 'json-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SAMPLE = resolve(import.meta.dirname, '../../data/sample-catalogue.jsonl');

/** The one JSON line of a text (stdout: the whole of it). */
function onlyLine(text: string): Record<string, unknown> {
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** The last line of stderr, as JSON. */
function lastLine(text: string): Record<string, unknown> {
  return JSON.parse(text.trimEnd().split('\n').pop()!) as Record<string, unknown>;
}

const cli = (argv: string[]) => runCli(argv, { cwd: dir });

describe('--json', () => {
  it('export -o: the summary on stdout (counts, paths, timings)', async () => {
    const r = await cli(['export', '--sample', '-q', 'type:Journal', '--max-records', '30', '-o', 'e.nt', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = onlyLine(r.stdout);
    expect(j).toMatchObject({
      command: 'export',
      exitCode: 0,
      output: join(dir, 'e.nt'),
      format: 'ntriples',
      statePath: join(dir, 'e.nt.state.json'),
      total: 218,
      resumed: false,
      alreadyComplete: false,
    });
    expect(j['counts']).toMatchObject({ records: 30, rejects: 0, duplicates: 0 });
    expect(j['elapsedMs']).toEqual(expect.any(Number));
    expect(readFileSync(join(dir, 'e.nt'), 'utf8').length).toBeGreaterThan(1000);
  });

  it('export to stdout: the dump on stdout, the summary the last line of stderr; --split-by still knows the total', async () => {
    const r = await cli([
      'export',
      '--sample',
      '-q',
      'type:Journal',
      '--split-by',
      'year',
      '-f',
      'nt',
      '--json',
      '--quiet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<https:\/\/doi\.org\//);
    expect(lastLine(r.stderr)).toMatchObject({
      command: 'export',
      output: null,
      total: 218,
      counts: expect.objectContaining({ records: 218 }),
    });
  });

  it('convert -o: on stdout; convert to stdout: on stderr', async () => {
    const file = await cli(['convert', SAMPLE, '-o', join(dir, 'c.ttl'), '--json', '--quiet']);
    expect(file.code, file.stderr).toBe(0);
    expect(onlyLine(file.stdout)).toMatchObject({
      command: 'convert',
      exitCode: 0,
      inputs: [SAMPLE],
      read: 300,
      mapped: 300,
      rejected: 0,
      format: 'turtle',
      output: join(dir, 'c.ttl'),
    });
    const stream = await cli(['convert', SAMPLE, '-f', 'nt', '--json']);
    expect(stream.stdout).toMatch(/^<https:/);
    expect(lastLine(stream.stderr)).toMatchObject({
      command: 'convert',
      mapped: 300,
      output: null,
      elapsedMs: expect.any(Number),
    });
  });

  it('validate: on stdout instead of the text summary; a failure adds the error', async () => {
    await cli(['export', '--sample', '-q', 'type:Journal', '--max-records', '20', '-o', 'v.nt', '--quiet']);
    const r = await cli(['validate', 'v.nt', '--json', '--report', 'v.report.ttl']);
    expect(r.code, r.stderr).toBe(0);
    const j = onlyLine(r.stdout);
    expect(j).toMatchObject({
      command: 'validate',
      exitCode: 0,
      files: ['v.nt'],
      conforms: true,
      records: 20,
      conforming: 20,
      notConforming: 0,
      reportPath: join(dir, 'v.report.ttl'),
      jobs: 1,
    });
    expect(j['byShape']).toEqual([]);
    const missing = await cli(['validate', 'missing.nt', '--json']);
    expect(missing.code).toBe(4);
    expect(onlyLine(missing.stdout)).toMatchObject({
      command: 'validate',
      exitCode: 4,
      error: { code: 'io', message: expect.stringContaining('missing.nt: no such file') },
    });
  });

  it('validate of records that do not conform: the counts by shape and the examples', async () => {
    writeFileSync(
      join(dir, 'bad.nt'),
      '<https://doi.org/10.1007/s1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/ScholarlyArticle> .\n',
    );
    const r = await cli(['validate', 'bad.nt', '--json']);
    expect(r.code).toBe(1);
    const j = onlyLine(r.stdout);
    expect(j).toMatchObject({ command: 'validate', exitCode: 1, conforms: false, records: 1, notConforming: 1 });
    expect((j['byShape'] as { severity: string }[])[0]).toMatchObject({
      severity: 'Violation',
      count: expect.any(Number),
    });
    expect((j['examples'] as { record: string; shape: string }[])[0]).toMatchObject({
      record: expect.any(String),
      shape: expect.stringMatching(/^srsh:/),
    });
  });

  it('load: on stdout (the graph, counts, whether the count is as expected); the store URL without its secrets', async () => {
    const server = await new GspTestServer().start();
    try {
      writeFileSync(
        join(dir, 'l.nt'),
        '<urn:x:a> <urn:x:p> "1" .\n<urn:x:b> <urn:x:p> "2" .\n<urn:x:c> <urn:x:p> "3" .\n',
      );
      const endpoint = server.dataset.replace('http://', 'http://loader:s3cret-pw@');
      const r = await cli([
        'load',
        'l.nt',
        '--endpoint',
        endpoint,
        '--graph',
        'urn:x:g',
        '--replace',
        '--chunk-triples',
        '2',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('s3cret-pw');
      expect(onlyLine(r.stdout)).toMatchObject({
        command: 'load',
        exitCode: 0,
        graph: 'urn:x:g',
        graphStore: `${server.dataset}/data?graph=urn%3Ax%3Ag`,
        triples: 3,
        chunks: 2,
        count: 3,
        countOk: true,
        statePath: loadLogPath(['l.nt'], undefined, dir, 'urn:x:g'),
        durationMs: expect.any(Number),
      });
    } finally {
      await server.stop();
    }
  });

  it('term: on stderr when the term goes to stdout, on stdout with -o and with --check (instead of its report)', async () => {
    const printed = await cli(['term', '--offline', '--json', '-f', 'nt']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/^</);
    expect(lastLine(printed.stderr)).toMatchObject({
      command: 'term',
      name: 'pagination',
      via: 'shipped',
      triples: expect.any(Number),
      output: null,
      outputFormat: 'ntriples',
    });
    const written = await cli(['term', '--offline', '--json', '-o', 't.ttl']);
    expect(onlyLine(written.stdout)).toMatchObject({
      command: 'term',
      output: join(dir, 't.ttl'),
      outputFormat: 'jsonld',
    });
    const checked = await cli(['term', '--offline', '--check', '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    const j = onlyLine(checked.stdout);
    expect(j).toMatchObject({
      command: 'term',
      exitCode: 0,
      agree: true,
      failed: 0,
      servedAsAsked: true,
      sameAsShipped: true,
    });
    expect(j['formats']).toHaveLength(4);
  });

  it('get: the record on stdout, the summary the last line of stderr', async () => {
    const r = await cli(['get', '--sample', '10.1007/s10265-015-0000-7', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('10.1007/s10265-015-0000-7');
    expect(lastLine(r.stderr)).toMatchObject({
      command: 'get',
      exitCode: 0,
      doi: '10.1007/s10265-015-0000-7',
      format: 'turtle',
      statements: expect.any(Number),
      bytes: Buffer.byteLength(r.stdout),
    });
  });

  it('search: the page as the service sent it (its data is the summary)', async () => {
    const r = await cli(['search', '--sample', '-q', 'type:Journal', '-p', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const page = JSON.parse(r.stdout) as { result: { total: string }[]; records: unknown[] };
    expect(page.result[0]!.total).toBe('218');
    expect(page.records).toHaveLength(3);
  });

  it('serve: where it listens, on stdout once it listens', async () => {
    const stdout = new PassThrough();
    let out = '';
    const controller = new AbortController();
    const io: CliIo = {
      stdin: Readable.from([]),
      stdout,
      stderr: new PassThrough(),
      env: {},
      cwd: dir,
      stderrIsTTY: false,
    };
    const done = run(['serve', '--port', '0', '--json'], io, controller.signal);
    const line = await new Promise<string>((resolveLine) => {
      stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolveLine(out.split('\n')[0]!);
      });
    });
    const j = JSON.parse(line) as { url: string; port: number };
    expect(j).toMatchObject({
      command: 'serve',
      exitCode: 0,
      host: '127.0.0.1',
      records: 300,
      sampleKey: 'sample',
      vocabPath: '/vocab',
    });
    expect(j.url).toBe(`http://127.0.0.1:${j.port}`);
    expect((await fetch(`${j.url}/meta/v2/json?q=type:Journal&p=1&api_key=sample`)).status).toBe(200);
    controller.abort();
    expect(await done).toBe(0);
    expect(out.trimEnd().split('\n')).toHaveLength(1); // nothing more at the end
  });
});
