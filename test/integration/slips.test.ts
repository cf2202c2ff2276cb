/**
 * No slip loses work (issue 20), tried with the built binary as a person
 * would slip: an unfinished export run again without --resume is refused and
 * nothing changes; every output named over an input (or over another output),
 * by its path, a symbolic or a hard link, is refused before anything is
 * written, and no byte of any input changes; `export --sample` stopped by
 * Ctrl-C resumes with --resume to the bytes of an uninterrupted export.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExportState } from '../../src/export/ExportState.js';
import { ROOT } from './helpers.js';

const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');
const dir = mkdtempSync(join(tmpdir(), 'scholarly-slips-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the binary in `cwd` to its end. */
function run(args: string[], cwd = dir): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stderr: r.stderr };
}

/** Every file under a folder (links as what they point to) with the SHA-256 of its bytes. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile())) {
      out[path] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  }
  return out;
}

/** The sample export of these tests: slowed down (at most 4 pages a second) so that it can be stopped half-way. */
const EXPORT = ['export', '--sample', '-q', 'type:Journal', '--page-size', '10'];

describe('Ctrl-C, a rerun without --resume, then --resume (export --sample)', () => {
  const work = join(dir, 'resume');
  const part = join(work, 'part.ttl');
  let stoppedAt: Record<string, string>;

  beforeAll(() => {
    mkdirSync(work);
  });

  it('an uninterrupted export, for comparison', () => {
    const r = run([...EXPORT, '-o', 'full.ttl', '--quiet'], work);
    expect(r.code, r.stderr).toBe(0);
  });

  it('Ctrl-C half-way ends with 130 and leaves a state that says unfinished', async () => {
    const child = spawn(process.execPath, [BIN, ...EXPORT, '-o', 'part.ttl', '--rate', '4', '--quiet'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Wait until three pages are saved, then interrupt.
    for (let i = 0; i < 600; i++) {
      const state = await readExportState(`${part}.state.json`).catch(() => undefined);
      if (state && state.counts.records >= 30) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    const state = await readExportState(`${part}.state.json`);
    expect(state).toMatchObject({ complete: false, identity: { endpoint: 'sample:/meta/v2/json' } });
    expect(state!.counts.records).toBeGreaterThanOrEqual(30);
    expect(state!.counts.records).toBeLessThan(state!.total!);
    stoppedAt = snapshot(work);
  });

  it('the same export again without --resume is refused (exit 6), and no file changes', () => {
    const r = run([...EXPORT, '-o', 'part.ttl'], work);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /part\.ttl\.state\.json holds an unfinished export \(\d+ records of \d+\); nothing was changed: run it with --resume to continue it/,
    );
    expect(snapshot(work)).toEqual(stoppedAt);
    // Other options over the same output: refused too.
    const other = run(['export', '--sample', '-q', 'type:Book', '--page-size', '10', '-o', 'part.ttl'], work);
    expect(other.code).toBe(6);
    expect(other.stderr).toContain('it is another export (query (saved "type:Journal", now "type:Book"))');
    expect(snapshot(work)).toEqual(stoppedAt);
  });

  it('--resume (a new sample service, on another port) finishes it: the same bytes as the uninterrupted export', () => {
    const r = run([...EXPORT, '-o', 'part.ttl', '--resume', '--quiet'], work);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(part)).toEqual(readFileSync(join(work, 'full.ttl')));
  });
});

describe('an output named over an input, or over another output: refused (exit 2) before anything is written', () => {
  const work = join(dir, 'pairs');
  const SHIPPED_TERM = resolve(ROOT, 'vocab/pagination.jsonld');

  beforeAll(() => {
    mkdirSync(work);
    copyFileSync(
      resolve(ROOT, 'test/fixtures/service/metadata-json-article-metabolomics-2017.json'),
      join(work, 'p.json'),
    );
    const dump = run(
      ['export', '--sample', '-q', 'type:Journal', '--max-records', '30', '-o', 'd.ttl', '--quiet'],
      work,
    );
    expect(dump.code, dump.stderr).toBe(0);
    rmSync(join(work, 'd.ttl.state.json'));
    copyFileSync(join(work, 'd.ttl'), join(work, 's.nt')); // not N-Triples: never read, the load is refused first
    writeFileSync(join(work, 'shapes.ttl'), readFileSync(resolve(ROOT, 'shapes/work.ttl')));
    symlinkSync(join(work, 'd.ttl'), join(work, 'd-link.ttl'));
    linkSync(join(work, 'p.json'), join(work, 'p-hard.json'));
    symlinkSync(SHIPPED_TERM, join(work, 'term-link.jsonld'));
    mkdirSync(join(work, 'sub'));
    symlinkSync(join(work, 'sub'), join(work, 'alias'));
  });

  const PAIRS: [string, string[], RegExp][] = [
    ['convert -o its input', ['convert', 'p.json', '-o', 'p.json'], /-o \(p\.json\) would overwrite the input p\.json/],
    [
      'convert -o a hard link of its input',
      ['convert', 'p.json', '-o', 'p-hard.json', '-f', 'turtle'],
      /-o \(p-hard\.json\) would overwrite the input p\.json/,
    ],
    [
      'convert --rejects its input',
      ['convert', 'p.json', '-o', 'o.ttl', '--rejects', 'p.json'],
      /--rejects \(p\.json\) would overwrite the input/,
    ],
    [
      'convert --notes its input',
      ['convert', 'p.json', '-o', 'o.ttl', '--notes', 'p-hard.json'],
      /--notes \(p-hard\.json\) would overwrite the input p\.json/,
    ],
    [
      'convert --notes over -o',
      ['convert', 'p.json', '-o', 'o.ttl', '--notes', 'o.ttl'],
      /-o \(o\.ttl\) and --notes \(o\.ttl\) are one file/,
    ],
    [
      'convert --rejects over -o',
      ['convert', 'p.json', '-o', 'o.ttl', '--rejects', 'alias/../o.ttl'],
      /-o \(o\.ttl\) and --rejects \(alias\/\.\.\/o\.ttl\) are one file/,
    ],
    [
      'convert --notes over --rejects',
      ['convert', 'p.json', '-o', 'o.ttl', '--rejects', 'sub/r.jsonl', '--notes', 'alias/r.jsonl'],
      /--rejects \(sub\/r\.jsonl\) and --notes \(alias\/r\.jsonl\) are one file/,
    ],
    [
      'convert --notes over its shapes',
      ['convert', 'p.json', '-o', 'o.ttl', '--validate', '--shapes', 'shapes.ttl', '--notes', 'shapes.ttl'],
      /--notes \(shapes\.ttl\) would overwrite the input .*shapes\.ttl/,
    ],
    [
      'validate --report its input',
      ['validate', 'd.ttl', '--report', 'd.ttl'],
      /the report \(.*d\.ttl\) would overwrite the input .*d\.ttl/,
    ],
    [
      'validate --report a link to its input',
      ['validate', 'd.ttl', '--report', 'd-link.ttl'],
      /the report \(.*d-link\.ttl\) would overwrite the input .*d\.ttl/,
    ],
    [
      'validate --report its shapes',
      ['validate', 'd.ttl', '--shapes', 'shapes.ttl', '--report', 'shapes.ttl'],
      /the report \(.*shapes\.ttl\) would overwrite the input .*shapes\.ttl/,
    ],
    [
      'load --state its input',
      ['load', 's.nt', '--endpoint', 'http://127.0.0.1:9/ds', '--state', 's.nt'],
      /the load log \(.*s\.nt\) would overwrite the input .*s\.nt/,
    ],
    [
      'export --state over -o',
      ['export', '--sample', '-q', 'type:Journal', '-o', 'e.ttl', '--state', 'e.ttl'],
      /-o \(.*e\.ttl\) and --state \(.*e\.ttl\) are one file/,
    ],
    [
      'export --meta over the state',
      ['export', '--sample', '-q', 'type:Journal', '-o', 'e.ttl', '--meta', 'e.ttl.state.json'],
      /--state \(.*e\.ttl\.state\.json\) and --meta \(.*\) are one file/,
    ],
    [
      'export --rejects over --meta',
      ['export', '--sample', '-q', 'type:Journal', '-o', 'e.ttl', '--meta', 'm.ttl', '--rejects', 'alias/../m.ttl'],
      /--meta \(.*m\.ttl\) and --rejects \(.*\) are one file/,
    ],
    [
      'export -o over an existing dump through a link, --meta the dump',
      ['export', '--sample', '-q', 'type:Journal', '-o', 'd-link.ttl', '--meta', 'd.ttl'],
      /-o \(.*d-link\.ttl\) and --meta \(.*d\.ttl\) are one file/,
    ],
    [
      'term -o its shipped copy',
      ['term', 'pagination', '--offline', '-o', SHIPPED_TERM],
      /-o \(.*pagination\.jsonld\) would overwrite the input .*vocab\/pagination\.jsonld/,
    ],
    [
      'term -o a link to its shipped copy',
      ['term', 'pagination', '--offline', '-o', 'term-link.jsonld'],
      /-o \(.*term-link\.jsonld\) would overwrite the input/,
    ],
  ];

  for (const [name, args, message] of PAIRS) {
    it(name, () => {
      const before = { ...snapshot(work), shipped: readFileSync(SHIPPED_TERM, 'utf8') };
      const r = run(args, work);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect({ ...snapshot(work), shipped: readFileSync(SHIPPED_TERM, 'utf8') }).toEqual(before);
    });
  }
});
