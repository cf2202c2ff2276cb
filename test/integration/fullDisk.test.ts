/**
 * The built binary on a full disk: a small tmpfs (mounted here, as root)
 * under export, convert, validate and load, and stdout on /dev/full. Each
 * ends with exit 4 and one line naming the file (no stack trace, no
 * "internal error"), with the advice that fits; after space is freed,
 * `export --resume` gives the bytes of an export that never failed, and
 * `load --resume` completes the graph.
 *
 * Mounting needs root (CAP_SYS_ADMIN): without it the tmpfs cases are
 * skipped, except in CI (`CI` set), where that is a failure, as a missing
 * tool is (see helpers.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GspTestServer } from '../store/GspTestServer.js';
import { ROOT } from './helpers.js';

const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');
const SAMPLE = resolve(ROOT, 'data/sample-catalogue.jsonl');
const BROKEN = resolve(ROOT, 'test/fixtures/shacl/broken-records.ttl');
const work = mkdtempSync(join(tmpdir(), 'scholarly-full-disk-'));
const disk = join(work, 'disk');
const disk2 = join(work, 'disk2');

/** Whether a tmpfs can be mounted here; in CI its absence is a failure, elsewhere a skip. */
function canMountTmpfs(): boolean {
  mkdirSync(disk, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk], { stdio: 'pipe' });
    execFileSync('umount', [disk], { stdio: 'pipe' });
    return true;
  } catch (err) {
    const why = `cannot mount a tmpfs for the full-disk tests (needs root): ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`;
    if (process.env['CI']) throw new Error(why, { cause: err });
    console.warn(`skipping: ${why}`);
    return false;
  }
}

function mount(size: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk]);
}

/** Frees space: the tmpfs grows, its files kept. */
function grow(size: string): void {
  execFileSync('mount', ['-o', `remount,size=${size}`, disk]);
}

function unmount(): void {
  try {
    execFileSync('umount', [disk], { stdio: 'pipe' });
  } catch {
    // not mounted
  }
}

/** Fills a disk to the last byte with one file (removed to free the space). */
function fill(on = disk): string {
  const filler = join(on, 'filler');
  const fd = openSync(filler, 'w');
  const block = Buffer.alloc(1 << 16, 0x61);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    for (;;) {
      try {
        writeSync(fd, block, 0, 1);
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the binary (asynchronously: a server of this process may be answering it). */
function bin(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd ?? work, env: { ...process.env, ...options.env }, maxBuffer: 1 << 28, encoding: 'buffer' },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? -1) : 0;
        done({ code: typeof code === 'number' ? code : -1, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

/** Exit 4, one error line naming `path`, nothing of a crash. */
function expectIoError(r: Run, path: string): void {
  expect(r.code, r.stderr).toBe(4);
  expect(r.stderr).toMatch(
    new RegExp(
      `scholarly-rdf: error \\[io\\]: cannot (write|create) [^\\n]*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*: no space left on the device \\(ENOSPC\\)`,
    ),
  );
  expect(r.stderr).not.toMatch(/internal error|\n\s+at |Unhandled|RangeError/);
}

afterAll(() => {
  unmount();
  rmSync(work, { recursive: true, force: true });
});

describe('stdout on a full disk (/dev/full)', () => {
  it.runIf(existsSync('/dev/full'))(
    'convert and export end with exit 4 and one line, not an uncaught exception (exit 1)',
    () => {
      for (const args of [
        ['convert', SAMPLE, '--quiet'],
        ['export', '--sample', '-q', 'type:Journal', '--quiet'],
      ]) {
        const r = execStdoutToFull(args);
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toBe(
          'scholarly-rdf: error [io]: cannot write to stdout: no space left on the device (ENOSPC)\n',
        );
      }
    },
  );
});

describe('stderr on a full disk (/dev/full)', () => {
  it.runIf(existsSync('/dev/full'))(
    'the messages are lost, not the run: the exit status still says how it ended',
    () => {
      const out = join(work, 'stderr-full.nt');
      // A run that succeeds still exits 0 (it used to die of the unhandled write error, with exit 1).
      expect(execStderrToFull(['convert', SAMPLE, '-o', out])).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain('<http://schema.org/');
      // A run that fails still exits with its own status (4: a missing input), not 1.
      expect(execStderrToFull(['convert', join(work, 'missing.json'), '-o', join(work, 'never.nt')])).toBe(4);
      // Records rejected: exit 1, as documented.
      expect(execStderrToFull(['validate', BROKEN])).toBe(1);
    },
  );
});

/** Runs the binary with its stderr on /dev/full; its exit status. */
function execStderrToFull(args: string[]): number {
  const err = openSync('/dev/full', 'w');
  try {
    execFileSync(process.execPath, [BIN, ...args], { cwd: work, stdio: ['ignore', 'ignore', err] });
    return 0;
  } catch (caught) {
    return (caught as { status?: number }).status ?? -1;
  } finally {
    closeSync(err);
  }
}

/** Runs the binary with its stdout on /dev/full. */
function execStdoutToFull(args: string[]): Run {
  const out = openSync('/dev/full', 'w');
  try {
    execFileSync(process.execPath, [BIN, ...args], { cwd: work, stdio: ['ignore', out, 'pipe'] });
    return { code: 0, stdout: '', stderr: '' };
  } catch (err) {
    const e = err as { status?: number; stderr?: Buffer };
    return { code: e.status ?? -1, stdout: '', stderr: e.stderr?.toString() ?? '' };
  } finally {
    closeSync(out);
  }
}

describe.runIf(canMountTmpfs())('a full disk (a small tmpfs)', () => {
  afterEach(() => unmount());

  it('export: exit 4 naming the file, the --resume advice, and after freeing space --resume gives the same bytes', async () => {
    const clean = join(work, 'clean');
    mkdirSync(clean, { recursive: true });
    for (const f of ['s.nt', 's.ttl.gz']) {
      const first = await bin([
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-o',
        join(clean, f),
        '--rejects',
        join(clean, `${f}.rejects.jsonl`),
        '--quiet',
      ]);
      expect(first.code, first.stderr).toBe(0);
    }
    for (const f of ['s.nt', 's.ttl.gz']) {
      // Room for part of the dump (2.6 MB of N-Triples, 130 kB of gzipped Turtle).
      mount(f.endsWith('.gz') ? '64k' : '512k');
      const out = join(disk, f);
      const failed = await bin([
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-o',
        out,
        '--rejects',
        join(disk, `${f}.rejects.jsonl`),
        '--quiet',
      ]);
      expectIoError(failed, disk);
      expect(failed.stderr).toContain(
        `progress is saved in ${out}.state.json: once space is freed, run the same export again with --resume to continue`,
      );
      grow('16m');
      const resumed = await bin([
        'export',
        '--sample',
        '-q',
        'type:Journal',
        '-o',
        out,
        '--rejects',
        join(disk, `${f}.rejects.jsonl`),
        '--quiet',
        '--resume',
      ]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(readFileSync(out).equals(readFileSync(join(clean, f))), f).toBe(true);
      unmount();
    }
  });

  it('export --meta: a description that did not fit (its disk full) is written by --resume', async () => {
    mount('16m');
    mkdirSync(disk2, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk2]);
    try {
      const out = join(disk, 's.nt');
      const meta = join(disk2, 'meta.ttl');
      const filler = fill(disk2);
      const args = ['export', '--sample', '-q', 'type:Journal', '-o', out, '--meta', meta, '--quiet'];
      const failed = await bin(args);
      expectIoError(failed, meta);
      expect(failed.stderr).toContain('run the same export again with --resume to continue');
      rmSync(filler);
      const resumed = await bin([...args, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const state = JSON.parse(readFileSync(`${out}.state.json`, 'utf8')) as { endedAt: string; metaWritten: string };
      expect(state.metaWritten).toBe(meta);
      expect(readFileSync(meta, 'utf8')).toContain(`prov:endedAtTime "${state.endedAt}"^^xsd:dateTime`);
    } finally {
      execFileSync('umount', [disk2]);
    }
  });

  it('convert: exit 4 naming the output, no partial file left; gzip and the rejects and notes files too', async () => {
    // Room for part of the output (3.6 MB of N-Triples, 170 kB of gzipped Turtle).
    mount('64k');
    for (const args of [
      ['-o', join(disk, 'c.nt')],
      ['-o', join(disk, 'c.ttl.gz')],
    ]) {
      const r = await bin(['convert', SAMPLE, ...args, '--quiet']);
      expectIoError(r, args[1]!);
      expect(readdirSync(disk)).toEqual([]);
    }
    fill();
    const notes = await bin([
      'convert',
      SAMPLE,
      '-o',
      join(work, 'c.nt'),
      '--notes',
      join(disk, 'notes.jsonl'),
      '--quiet',
    ]);
    expectIoError(notes, join(disk, 'notes.jsonl'));
    // An error of a side file never costs the main output (issue 33): it is written whole, and the message says so.
    expect(notes.stderr).toContain('the output itself is written whole');
    const whole = await bin(['convert', SAMPLE, '-o', join(work, 'ref.nt'), '-q']);
    expect(whole.code).toBe(0);
    expect(readFileSync(join(work, 'c.nt')).equals(readFileSync(join(work, 'ref.nt')))).toBe(true);
  });

  it('validate --report: exit 4 naming the report, none left; --regroup with its temporary files on the full disk: exit 4', async () => {
    mount('256k');
    fill();
    const r = await bin(['validate', BROKEN, '--report', join(disk, 'report.ttl')]);
    expectIoError(r, join(disk, 'report.ttl'));
    expect(existsSync(join(disk, 'report.ttl'))).toBe(false);
    const regroup = await bin(['validate', BROKEN, '--regroup'], { env: { TMPDIR: disk } });
    expect(regroup.code, regroup.stderr).toBe(4);
    expect(regroup.stderr).toMatch(
      /error \[io\]: cannot write the temporary files of --regroup .*: no space left on the device \(ENOSPC\)/,
    );
    expect(regroup.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('load: a load log that cannot be written mid-load: exit 4, the --resume advice, and --resume completes the graph', async () => {
    const store = await new GspTestServer().start();
    try {
      const dump = join(work, 'dump.nt');
      const made = await bin(['convert', SAMPLE, '-o', dump, '--quiet']);
      expect(made.code, made.stderr).toBe(0);
      mount('256k');
      // The disk fills up while the store takes the third chunk: the load log cannot record it.
      store.faultFor = (write) => {
        if (write === 3) fill();
        return undefined;
      };
      const log = join(disk, 'load.json');
      const args = [
        'load',
        dump,
        '--endpoint',
        `${store.baseUrl}/ds`,
        '--graph',
        'http://example.org/g',
        '--chunk-triples',
        '5000',
        '--state',
        log,
      ];
      const failed = await bin(args);
      expectIoError(failed, log);
      expect(failed.stderr).toContain(`load log:  ${log}\n`);
      expect(failed.stderr).toContain(
        'the chunks acknowledged are in the load log: run again with --resume to continue',
      );
      store.faultFor = undefined;
      rmSync(join(disk, 'filler'));
      const resumed = await bin([...args, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const triples = new Set(
        readFileSync(dump, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== ''),
      );
      expect(store.graphs.get('http://example.org/g')?.size).toBe(triples.size);
    } finally {
      await store.stop();
    }
  });
});
