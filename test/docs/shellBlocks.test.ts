import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/cli/options/optionTable.js';
import { docFiles, fencedBlocks } from './docSnippets.js';
import { tempDir } from '../helpers/tempDir.js';

const ROOT = join(import.meta.dirname, '../..');

/** What a shell block may need that a test does not have; a block marked with none of these runs. */
const MARKS = ['needs-key', 'needs-store', 'needs-network', 'needs-files', 'runs-server'];

const blocks = docFiles().flatMap((file) =>
  fencedBlocks(readFileSync(join(ROOT, file), 'utf8'))
    .filter((b) => /^(sh|bash|shell)\b/.test(b.info))
    .map((b) => ({ where: `${file}:${b.line}`, code: b.code, marks: b.info.split(/\s+/).slice(1) })),
);

/** The words of a shell command (quotes taken off; no expansion). */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Each `scholarly-rdf …` command of a block: continuation lines joined, comments and what pipes or chains around it cut off. */
function cliCommands(code: string): string[][] {
  const lines = code.replace(/\\\n/g, ' ').split('\n').map((l) => l.replace(/(^|\s)#.*$/, ''));
  return lines
    .flatMap((l) => l.split(/&&|\|\||[|;&]|[<>]\s*\S+/))
    .map((segment) => words(segment.trim()).filter((w, i, all) => !(/^[A-Z_]+=/.test(w) && all.slice(0, i).every((x) => /^[A-Z_]+=/.test(x)))))
    .map((argv) => (argv[0] === 'npx' ? argv.slice(1) : argv))
    .filter((argv) => argv[0] === 'scholarly-rdf')
    .map((argv) => argv.slice(1));
}

/** The flags a command takes in the docs' words (its earlier spellings are not for docs). */
function flagsOf(command: string): Set<string> {
  const specs = OPTION_TABLE[command as keyof typeof OPTION_TABLE];
  const flags = new Set(['-h', '--help']);
  for (const spec of specs ?? []) {
    if (spec.deprecatedFor) continue;
    const opt = new Option(spec.flags);
    if (opt.short) flags.add(opt.short);
    if (opt.long) flags.add(opt.long);
  }
  return flags;
}

describe('the shell blocks of README.md and docs/', () => {
  it('name commands and flags that exist, in their current spelling', () => {
    const wrong: string[] = [];
    let commands = 0;
    for (const block of blocks) {
      for (const argv of cliCommands(block.code)) {
        commands++;
        const [command, ...rest] = argv;
        if (command === undefined || command === '--help' || command === '--version') continue;
        if (!(command in OPTION_TABLE)) {
          wrong.push(`${block.where}: no command ${command}`);
          continue;
        }
        const flags = flagsOf(command);
        for (const word of rest.filter((w) => /^--?[a-zA-Z]/.test(w))) {
          const flag = word.split('=')[0]!;
          if (!flags.has(flag)) wrong.push(`${block.where}: ${command} has no ${flag}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(commands).toBeGreaterThan(50);
  });

  it('are marked with what they need, or run', () => {
    for (const block of blocks) for (const mark of block.marks) expect(MARKS, block.where).toContain(mark);
    expect(blocks.filter((b) => b.marks.length === 0).length).toBeGreaterThanOrEqual(3);
  });

  // The blocks that need nothing the test lacks: each runs in a folder of its own (the sample's records as
  // records.jsonl), `scholarly-rdf` being this checkout's bin/ (built), with no key in the environment.
  for (const block of blocks.filter((b) => b.marks.length === 0)) {
    it(`${block.where} runs offline`, () => {
      const dir = tempDir('doc-shell-');
      const bin = join(dir, '.bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'scholarly-rdf'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/scholarly-rdf.js')}" "$@"\n`);
      writeFileSync(join(bin, 'npx'), '#!/bin/sh\nexec "$@"\n');
      chmodSync(join(bin, 'scholarly-rdf'), 0o755);
      chmodSync(join(bin, 'npx'), 0o755);
      copyFileSync(join(ROOT, 'data/sample-catalogue.jsonl'), join(dir, 'records.jsonl'));
      const env = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, SCHOLARLY_API_KEY: '', SPRINGERNATURE_API_KEY: '' };
      const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', block.code], { cwd: dir, env, encoding: 'utf8', timeout: 240_000 });
      expect(r.status, `${block.where}:\n${r.stderr}`).toBe(0);
    }, 300_000);
  }
});
