/**
 * The hostile-input corpus (hostileCorpus.ts) through the built CLI, one
 * process per command as a user runs it. `npm run test:fuzz` runs every case
 * on a build of the sources made for it; `npm test` runs the light ones (small
 * files, a second or two a command) on the project's own build (`dist/`, as
 * the README's commands do), and every case when `CI` is `true` (as .ci/run
 * has it: the deep and huge ones add about 30 s), so none can rot unseen;
 * the unit tests of test/parse and test/record cover the limits in-process. For every file and command: the exit code and message
 * the case says, never an exit code of 70 or more (a crash, a heap out of
 * memory is 134), never a stack trace, no raw control character and at most
 * a few kilobytes on stderr. Time and memory are bounded as outcomes: each
 * process gets a heap of {@link DEFAULT_HEAP_MIB} MiB (or the case's) and is
 * killed after {@link DEADLINE_MS}.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNightly } from './fuzzConfig.js';
import { DEFAULT_HEAP_MIB, HOSTILE_CASES, type HostileCase, type HostileRun } from './hostileCorpus.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** Longest a command may take on one file (all of them take about a second; the deep inputs took minutes before). */
const DEADLINE_MS = 120_000;
/** Most of stderr kept (a message that quotes a 20 MB token must not). */
const MAX_STDERR = 16_384;

let build: string;
let work: string;

/** Whether every case runs: the nightly run and CI; a laptop's `npm test` takes the light ones. */
const everyCase = isNightly || process.env['CI'] === 'true';
/** The cases this run takes. */
const cases = HOSTILE_CASES.filter((c) => everyCase || c.light);

beforeAll(() => {
  if (!isNightly) {
    build = ROOT;
    work = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
    return;
  }
  // A root like the package's: the sources built into dist/, beside the files the CLI reads.
  build = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  work = join(build, 'work');
  mkdirSync(work);
  for (const x of ['data', 'vocab', 'shapes', 'package.json', 'node_modules'])
    symlinkSync(join(ROOT, x), join(build, x));
  cpSync(join(ROOT, 'bin'), join(build, 'bin'), { recursive: true });
  try {
    execFileSync(
      join(ROOT, 'node_modules/.bin/tsc'),
      ['-p', join(ROOT, 'tsconfig.json'), '--outDir', join(build, 'dist')],
      { stdio: 'pipe' },
    );
  } catch (err) {
    // Type errors still emit; only a missing CLI is fatal.
    if (!existsSync(join(build, 'dist/cli/main.js'))) throw err;
  }
}, 300_000);
afterAll(() => {
  if (work) rmSync(build === ROOT ? work : build, { recursive: true, force: true });
});

function write(path: string, pieces: Iterable<string | Buffer>): void {
  const fd = openSync(path, 'w');
  try {
    for (const piece of pieces) writeSync(fd, typeof piece === 'string' ? Buffer.from(piece) : piece);
  } finally {
    closeSync(fd);
  }
}

/** Runs the built CLI on a file: its exit code (`null` when killed at the deadline) and the start of its stderr. */
async function runBuilt(
  c: HostileCase,
  run: HostileRun,
  file: string,
): Promise<{ code: number | null; signal: string | null; stderr: string; stderrBytes: number }> {
  const args = [
    `--max-old-space-size=${c.heapMiB ?? DEFAULT_HEAP_MIB}`,
    join(build, 'bin/scholarly-rdf.js'),
    ...run.args(run.stdin ? '-' : file),
  ];
  const child = spawn(process.execPath, args, {
    cwd: work,
    stdio: [run.stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    timeout: DEADLINE_MS,
    killSignal: 'SIGKILL',
  });
  if (run.stdin)
    createReadStream(join(work, file))
      .pipe(child.stdin!)
      .on('error', () => undefined);
  let stderr = '';
  let stderrBytes = 0;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrBytes += chunk.length;
    if (stderr.length < MAX_STDERR) stderr += chunk.toString('utf8');
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((done) =>
    child.on('close', (c2, s) => done([c2, s])),
  );
  return { code, signal, stderr, stderrBytes };
}

describe('hostile inputs through the built CLI: a clear error or a clear rejection, in bounded time and memory', () => {
  for (const c of cases) {
    it(
      `${c.name}: ${c.what}`,
      async () => {
        write(join(work, c.name), c.generate());
        try {
          for (const run of c.runs) {
            const label = `${run.args(run.stdin ? '-' : c.name).join(' ')}${run.stdin ? ` < ${c.name}` : ''}`;
            const r = await runBuilt(c, run, c.name);
            expect(
              r.signal,
              `${label}: killed (deadline ${DEADLINE_MS} ms or heap ${c.heapMiB ?? DEFAULT_HEAP_MIB} MiB)\n${r.stderr}`,
            ).toBeNull();
            expect(r.code, `${label}\n${r.stderr}`).toBe(run.exit);
            expect(r.code).toBeLessThan(70);
            expect(r.stderr, label).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
            expect(r.stderr, label).not.toMatch(/internal error|heap out of memory|RangeError/);
            expect(r.stderr, label).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F]/);
            expect(r.stderrBytes, label).toBeLessThan(8192);
            for (const line of run.stderr) expect(r.stderr, label).toMatch(line);
          }
        } finally {
          rmSync(join(work, c.name), { force: true });
        }
      },
      DEADLINE_MS * 4,
    );
  }
});
