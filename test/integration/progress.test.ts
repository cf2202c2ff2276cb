/**
 * Progress people can read (issue 20), captured from a pseudo-terminal
 * (`script` of util-linux gives the built binary a terminal): the bars of
 * export, validate and load with done/total, percentage, rate and an ETA once
 * a few seconds are in; a Ctrl-C that ends the bar before its message; and,
 * off a terminal, timestamped lines with total, percentage and ETA.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');
const dir = mkdtempSync(join(tmpdir(), 'scholarly-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the binary on a pseudo-terminal of 120 columns; what the terminal received, and the exit status. */
function onTerminal(
  args: string[],
  options: { interruptWhen?: (screen: string) => boolean } = {},
): Promise<{ code: number | null; screen: string }> {
  const command = `stty cols 120 rows 40; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let interrupted = false;
  const received = (c: Buffer) => {
    screen += c.toString();
    // Ctrl-C typed on the terminal once it shows what the test waits for (never
    // after a fixed time: a busy machine may not have drawn anything yet): the
    // terminal sends SIGINT to the program.
    if (!interrupted && options.interruptWhen?.(screen)) {
      interrupted = true;
      child.stdin.write('\x03');
    }
  };
  child.stdout.on('data', received);
  child.stderr.on('data', received);
  return new Promise((done) => child.on('close', (code) => done({ code, screen })));
}

/** The states of the bar the terminal showed (each drawn from the start of the line). */
function bars(screen: string): string[] {
  return screen
    .split('\r')
    .map((s) => s.replace(/\x1b\[K/g, '').replace(/\n[\s\S]*$/, ''))
    .filter((s) => s.startsWith('['));
}

/** A bar that shows done/total with units, a percentage, a rate and an ETA in figures. */
const WITH_ETA = (done: string) => new RegExp(`^\\[#+\\.*\\] ${done} \\d+%  [\\d.]+ [\\w/]+  ETA \\d+:\\d\\d`);

/** A dump of many records (the sample's, under other DOIs) in N-Triples, and gzipped. */
beforeAll(async () => {
  const lines = readFileSync(resolve(ROOT, 'data/sample-catalogue.jsonl'), 'utf8').trim().split('\n');
  const copies = [...Array(16).keys()].flatMap((k) => lines.map((l) => l.replace(/10\.(\d{4,5})\//g, `10.$1/c${k}-`)));
  writeFileSync(join(dir, 'many.jsonl'), `${copies.join('\n')}\n`);
  const convert = spawn(process.execPath, [BIN, 'convert', 'many.jsonl', '-o', 'many.nt', '-q'], {
    cwd: dir,
    stdio: 'inherit',
  });
  expect(await new Promise((done) => convert.on('close', done))).toBe(0);
  writeFileSync(join(dir, 'many.nt.gz'), gzipSync(readFileSync(join(dir, 'many.nt'))));
}, 120_000);

describe('on a terminal', () => {
  it('export: records/total, percentage, rate, ETA, retries; the summary replaces the bar', async () => {
    // 218 records in pages of 10 at 3 pages a second: about 7 s.
    const { code, screen } = await onTerminal([
      'export',
      '--sample',
      '-q',
      'type:Journal',
      '-o',
      'e.ttl',
      '--page-size',
      '10',
      '--rate',
      '3',
    ]);
    expect(code, screen).toBe(0);
    const shown = bars(screen);
    expect(shown[0]).toMatch(/^\[#*\.+\] 10\/218 records 4%  ETA --:--  retries 0$/);
    expect(
      shown.some((b) => WITH_ETA('\\d+\\/218 records').test(b)),
      shown.join('\n'),
    ).toBe(true);
    expect(shown.at(-1)).toMatch(/^\[#+\] 218\/218 records 100%/);
    expect(screen).toMatch(
      /\r\x1b\[Kexport: 218 records, [\d,]+ statements \([\d,]+ distinct; shared entities repeat per record\) from 22 pages to e\.ttl in [\d.]+ s; /,
    );
  });

  it('export: Ctrl-C leaves the bar where it stopped and prints its message on a line of its own', async () => {
    const { code, screen } = await onTerminal(
      ['export', '--sample', '-q', 'type:Journal', '-o', 'c.ttl', '--page-size', '10', '--rate', '3'],
      // Once the bar has shown a few pages (of 22, at 3 a second).
      { interruptWhen: (screen) => /\] [3-9]\d\/218 records/.test(screen) },
    );
    expect(code).toBe(130);
    // The terminal echoes ^C after the bar; the message starts at the beginning of the next line.
    expect(screen).toMatch(
      /\] \d+\/218 records \d+%[^\r\n]*\x1b\[K(\^C)?\r?\n\r?scholarly-rdf: error \[aborted\]: interrupted/,
    );
  });

  it('validate: bytes of a gzipped dump as read from disk, over their total, with the records', async () => {
    const size = statSync(join(dir, 'many.nt.gz')).size;
    const started = Date.now();
    const { code, screen } = await onTerminal(['validate', 'many.nt.gz', '--jobs', '1']);
    const seconds = (Date.now() - started) / 1000;
    expect(code, screen).toBe(0);
    const shown = bars(screen);
    const total = (size / 2 ** 20).toFixed(2).replace(/\.?0+$/, '');
    expect(shown[0]).toMatch(new RegExp(`^\\[\\.*#*\\.*\\] [\\d.]+ (B|KiB|MiB)\\/${total}\\d* MiB \\d+%`));
    // An ETA in figures once the warm-up (5 s) is past, when the run lasts long enough to show one.
    if (seconds > 8)
      expect(
        shown.some((b) => WITH_ETA('[\\d.]+ (KiB|MiB)\\/[\\d.]+ MiB').test(b) && / [\d,]+ records$/.test(b)),
        shown.join('\n'),
      ).toBe(true);
    expect(shown.at(-1)).toMatch(/^\[#+\] [\d.]+ MiB\/[\d.]+ MiB 100%/);
    // The bar is cleared before the lines after it: the mode validation ran in, then the summary.
    expect(screen).toMatch(
      /\x1b\[Kvalidated record by record: [^\r\n]*\r?\n[\s\S]*records: 4800, conforming: 4800, not conforming: 0/,
    );
  });

  it('load: bytes of the input read over their total, the triples read and loaded', async () => {
    // A store that takes a quarter of a second for each chunk.
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(204).end(), 250));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ds`;
      const { code, screen } = await onTerminal([
        'load',
        'many.nt',
        '--endpoint',
        url,
        '--graph',
        'urn:x:g',
        '--no-check',
        '--chunk-triples',
        '10000',
        '--state',
        'l.json',
      ]);
      expect(code, screen).toBe(0);
      const shown = bars(screen);
      expect(
        shown.some(
          (b) => WITH_ETA('[\\d.]+ MiB\\/[\\d.]+ MiB').test(b) && / [\d,]+ triples read, [\d,]+ loaded$/.test(b),
        ),
        shown.join('\n'),
      ).toBe(true);
      expect(screen).toMatch(/\r\x1b\[Kgraph: +<urn:x:g>/);
    } finally {
      server.close();
    }
  });
});

describe('off a terminal', () => {
  it('validate writes timestamped lines with the total, percentage and ETA every few seconds', async () => {
    // 3 × 4,800 records: a few seconds of work, long enough to be held several times (below).
    const lines = readFileSync(join(dir, 'many.jsonl'), 'utf8').trim().split('\n');
    const copies = [0, 1, 2].flatMap((k) => lines.map((l) => l.replace(/10\.(\d{4,5})\//g, `10.$1/v${k}-`)));
    writeFileSync(join(dir, 'more.jsonl'), `${copies.join('\n')}\n`);
    const convert = spawn(process.execPath, [BIN, 'convert', 'more.jsonl', '-o', 'more.nt', '-q'], {
      cwd: dir,
      stdio: 'inherit',
    });
    expect(await new Promise((done) => convert.on('close', done))).toBe(0);
    const child = spawn(process.execPath, [BIN, 'validate', 'more.nt', '--jobs', '1'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise((done) => child.on('close', done));
    // A line comes 5 s after the last: a machine that validates faster than that would show none. So the run is
    // held (SIGSTOP) 5.5 s at a time and let go 1 s between: each time it goes on, a line is due, however fast the
    // machine and whatever its load; tied to the child's progress, not to its speed.
    let running = true;
    void closed.then(() => (running = false));
    const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
    const holding = (async () => {
      await pause(300);
      while (running) {
        child.kill('SIGSTOP');
        await pause(5500);
        child.kill('SIGCONT');
        await pause(1000);
      }
    })();
    expect(await closed, stderr).toBe(0);
    await holding;
    // Progress lines, then the line that says which mode validation ran in.
    const all = stderr.trim().split('\n');
    expect(all.at(-1)).toMatch(/^validated record by record: /);
    const progress = all.slice(0, -1);
    expect(progress.length, stderr).toBeGreaterThan(0);
    for (const line of progress)
      expect(line).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ validate: [\d.]+ (KiB|MiB)\/[\d.]+ MiB \d+%(  [\d.]+ (KiB|MiB)\/s)?(  ETA \d+:\d\d)?  [\d,]+ records$/,
      );
    // The rate once two samples are in (a line written as the run goes on after its first hold may come before).
    expect(
      progress.some((l) => / [\d.]+ (KiB|MiB)\/s /.test(l)),
      stderr,
    ).toBe(true);
    // An ETA once the first seconds are past: a line after the first comes 5 s later, past the warm-up (a fast
    // machine may finish before a second line, and then shows none: nothing to estimate).
    if (progress.length > 1)
      expect(
        progress.slice(1).some((l) => / ETA \d+:\d\d /.test(l)),
        stderr,
      ).toBe(true);
    expect(stderr).not.toContain('\r');
  }, 300_000);
});
