/**
 * The built binary stopped by Ctrl-C or SIGTERM while it waits on a server
 * that never answers: it ends with 130 and a sentence, not with Node's
 * "Unhandled 'error' event" (the interruption is also sent to stdin, which
 * these commands do not read).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');
const dir = mkdtempSync(join(tmpdir(), 'scholarly-signals-'));
let server: Server;
let base = '';

beforeAll(async () => {
  // Accepts every request and never answers it.
  server = createServer(() => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(join(dir, 'one.nt'), '<http://example.org/s> <http://example.org/p> "o" .\n');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the binary, waits until the server has its request, sends the signal, returns exit code and stderr. */
async function interrupt(args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const requested = new Promise<void>((r) => server.once('request', () => r()));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await requested;
  child.kill(signal);
  const timedOut = new Promise<string>((r) => setTimeout(() => r('still running'), 10_000));
  const code = await Promise.race([exited, timedOut]);
  if (code === 'still running') child.kill('SIGKILL');
  return { code: code === 'still running' ? -1 : code, stderr };
}

describe('interrupted while waiting on the network', () => {
  it('load: Ctrl-C ends it with 130, saying nothing was sent', async () => {
    const { code, stderr } = await interrupt(
      [
        'load',
        'one.nt',
        '--endpoint',
        `${base}/ds`,
        '--graph',
        'http://example.org/g',
        '--state',
        join(dir, 'a.state.json'),
      ],
      'SIGINT',
    );
    expect(stderr).not.toContain('Unhandled');
    expect(stderr).toContain('interrupted');
    expect(code).toBe(130);
  });

  it('term: SIGTERM ends it with 130', async () => {
    const { code, stderr } = await interrupt(
      ['term', '--vocab-url', base, '--accept', 'text/turtle', '--no-fallback'],
      'SIGTERM',
    );
    expect(stderr).not.toContain('Unhandled');
    expect(code).toBe(130);
  });
});

describe('a reader that goes away (`| head`)', () => {
  /** Runs the binary with its stdout read for one line only, then closed: the exit code, or -1 when it did not end within 10 s. */
  async function firstLineOnly(args: string[]): Promise<{ code: number | null; line: string; stderr: string }> {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((r) =>
      child.stdout.once('data', (c: Buffer) => r(c.toString().split('\n')[0]!)),
    );
    child.stdout.destroy();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timedOut = new Promise<'still running'>((r) => setTimeout(() => r('still running'), 10_000));
    const code = await Promise.race([exited, timedOut]);
    if (code === 'still running') child.kill('SIGKILL');
    return { code: code === 'still running' ? -1 : code, line, stderr };
  }

  for (const format of ['nt', 'ttl', 'jsonld']) {
    it(`export --sample -f ${format} ends with status 0, the in-process service closed`, async () => {
      const { code, line, stderr } = await firstLineOnly([
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-f',
        format,
        '--quiet',
      ]);
      expect(line.length).toBeGreaterThan(0);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    });
  }

  it('convert of the bundled sample ends with status 0', async () => {
    const { code, stderr } = await firstLineOnly([
      'convert',
      resolve(ROOT, 'data/sample-catalogue.jsonl'),
      '-f',
      'nt',
      '--quiet',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  /** Runs the binary with its stdout closed before it writes anything: exit code and stderr. */
  async function readerGone(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    return { code, stderr };
  }

  // Help and the version are written as the run ends: the failed write is told after main() returned, when its
  // listener was gone ("Unhandled 'error' event", exit 1, for `scholarly-rdf export --help | head`).
  for (const args of [['--help'], ['export', '--help'], ['--version'], ['serve', '--help']]) {
    it(`${args.join(' ')} ends with status 0 and nothing on stderr`, async () => {
      const { code, stderr } = await readerGone(args);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    });
  }
});
