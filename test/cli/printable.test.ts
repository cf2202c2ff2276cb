import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printable } from '../../src/cli/printable.js';
import { StatusLine } from '../../src/cli/progress/StatusLine.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tempDir.js';

describe('printable', () => {
  it('keeps lines and visible text, and shows every invisible character as \\uXXXX', () => {
    expect(printable('two\nlines é 𝔸 ok\n')).toBe('two\nlines é 𝔸 ok\n');
    expect(printable('a\x1b[31mred\x1b]0;title\x07')).toBe('a\\u001B[31mred\\u001B]0;title\\u0007');
    expect(printable('cr\rdel\x7fc1\x9b')).toBe('cr\\u000Ddel\\u007Fc1\\u009B');
    expect(printable('bidi\u202Eevil\u2066')).toBe('bidi\\u202Eevil\\u2066');
    expect(printable('lone \uD800 surrogate')).toBe('lone \\uD800 surrogate');
  });
});

describe('StatusLine', () => {
  it('escapes what it writes, its own control sequences aside', () => {
    const written: string[] = [];
    const status = new StatusLine({ write: (t) => written.push(t), tty: true, columns: () => 80 });
    status.draw('reading \x1b[2Jfile');
    status.line('rejected: \x1b]0;pwned\x07');
    const all = written.join('');
    expect(all).not.toMatch(/\x1b\[2J|\x1b\]0|\x07/);
    expect(all).toContain('reading \\u001B[2Jfile');
    expect(all).toContain('rejected: \\u001B]0;pwned\\u0007\n');
  });
});

describe('input bytes in CLI messages', () => {
  it('an error naming a file with escapes in its name shows them escaped', async () => {
    const dir = tempDir('printable-');
    const r = await runCli(['convert', join(dir, 'no\x1b[31mfile.json'), '-o', join(dir, 'out.nt')]);
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('\x1b');
    expect(r.stderr).toContain('no\\u001B[31mfile.json');
  });

  it('a DOI with escapes that `get` cannot find is shown escaped', async () => {
    const r = await runCli(['get', '10.1/\x1b]0;pwned\x07', '--sample']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(/[\x07\x1b]/);
    expect(r.stderr).toContain('10.1/\\u001B]0;pwned\\u0007');
  });
});
