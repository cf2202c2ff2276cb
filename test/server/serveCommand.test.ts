import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/CliContext.js';
import { run } from '../../src/cli/main.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { tempDir } from '../helpers/tempDir.js';

/** Starts `serve` in-process; resolves with the URL it prints, the output so far and a stop function. */
async function startServe(args: string[], cwd = process.cwd()) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const controller = new AbortController();
  const io: CliIo = { stdin: Readable.from([]), stdout, stderr, env: {}, cwd, stderrIsTTY: false };
  const done = run(['serve', '--port', '0', ...args], io, controller.signal);
  const url = await new Promise<string>((resolve, reject) => {
    stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(line!);
    });
    done.then((code) => reject(new Error(`serve exited with ${code}: ${err}`)), reject);
  });
  return {
    url,
    stderr: () => err,
    stop: async () => {
      controller.abort();
      return done;
    },
  };
}

describe('scholarly-rdf serve', () => {
  it('prints the URL of a free port, serves the bundled sample with the key sample, and stops with exit 0', async () => {
    const s = await startServe([]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s.url}/meta/v2/json?q=type:Journal&p=100&api_key=sample`);
    expect(res.status).toBe(200);
    expect(Number(((await res.json()) as { result: { total: string }[] }).result[0]!.total)).toBeGreaterThan(100);
    expect(s.stderr()).toMatch(/loaded 300 records/);
    expect(s.stderr()).toMatch(/accepting the key 'sample'/);
    expect(await s.stop()).toBe(0);
    expect(s.stderr()).toMatch(/stopped/);
    await expect(fetch(`${s.url}/meta/v2/json?q=x&api_key=sample`)).rejects.toThrow();
  });

  it('takes a catalogue, keys, a rate and faults from options, and never prints a key', async () => {
    const dir = tempDir('serve-');
    writeFileSync(join(dir, 'c.jsonl'), [...generateRecords(12, 4)].map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(join(dir, 'keys'), 'secret-two:premium\n');
    const s = await startServe(
      [
        '--catalogue',
        'c.jsonl',
        '--api-key',
        'secret-one',
        '--keys-file',
        'keys',
        '--rate',
        '1000',
        '--seed',
        '3',
        '--latency',
        '1',
      ],
      dir,
    );
    const body = (await (
      await fetch(`${s.url}/meta/v2/json?q=${encodeURIComponent('NOT year:1900')}&p=50&api_key=secret-two`)
    ).json()) as { result: { total: string }[] };
    expect(body.result[0].total).toBe('12');
    expect((await fetch(`${s.url}/meta/v2/json?q=x&p=50&api_key=secret-one`)).status).toBe(403);
    expect((await fetch(`${s.url}/meta/v2/json?q=x&api_key=sample`)).status).toBe(401);
    expect(s.stderr()).toMatch(/injecting faults \(seed 3\): latencyMs=1/);
    expect(await s.stop()).toBe(0);
    expect(s.stderr()).not.toMatch(/secret/);
  });

  it('answers as the service does since 2026 by default, and as in 2024 with --compat 2024', async () => {
    const none = `/meta/v2/json?q=${encodeURIComponent('doi:10.9999/none')}&api_key=basic`;
    const year = `/meta/v2/json?q=year:2015&api_key=basic`;
    const now = await startServe(['--api-key', 'basic']);
    expect([(await fetch(now.url + none)).status, (await fetch(now.url + year)).status]).toEqual([404, 403]);
    expect((await fetch(`${now.url}/openaccess/json?q=type:Journal&p=20&api_key=basic`)).status).toBe(200);
    expect(await now.stop()).toBe(0);
    const then = await startServe(['--api-key', 'basic', '--compat', '2024']);
    expect([(await fetch(then.url + none)).status, (await fetch(then.url + year)).status]).toEqual([200, 200]);
    expect(await then.stop()).toBe(0);
  });

  it('rejects bad options with exit code 2', async () => {
    for (const args of [
      ['--port', '70000'],
      ['--fail-rate', '2'],
      ['--rate', 'fast'],
      ['--api-key', 'a b'],
      ['--compat', '2025'],
    ]) {
      const stderr = new PassThrough();
      let err = '';
      stderr.on('data', (c: Buffer) => (err += c.toString()));
      const io: CliIo = {
        stdin: Readable.from([]),
        stdout: new PassThrough(),
        stderr,
        env: {},
        cwd: process.cwd(),
        stderrIsTTY: false,
      };
      expect(await run(['serve', ...args], io)).toBe(2);
      expect(err).toMatch(/usage/);
    }
  });

  it('reports a catalogue it cannot read', async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const io: CliIo = {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr,
      env: {},
      cwd: process.cwd(),
      stderrIsTTY: false,
    };
    expect(await run(['serve', '--catalogue', '/nonexistent/c.jsonl'], io)).toBe(4);
    expect(err).toMatch(/cannot read the catalogue/);
  });
});
