import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeOf, libraryOptions, longFlag } from '../../../src/cli/options/CliOption.js';
import { OPTION_TABLE, flagOf } from '../../../src/cli/options/optionTable.js';
import { runCli } from '../../helpers/cli.js';

const SRC = join(import.meta.dirname, '../../../src');

/** The TypeScript files under a folder, relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => p.split('\\').join('/'))
    .filter((p) => p.endsWith('.ts'));
}

describe('the option table', () => {
  it('is the only place a flag is declared', () => {
    const declaring = /\.(option|requiredOption|addOption)\s*\(|new\s+Option\s*\(/;
    const outside = sources()
      .filter((p) => !p.startsWith('cli/options/'))
      .filter((p) => declaring.test(readFileSync(join(SRC, p), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('declares each flag of a command once', () => {
    for (const [command, specs] of Object.entries(OPTION_TABLE)) {
      const keys = specs.map(attributeOf);
      expect(
        keys.filter((k, i) => keys.indexOf(k) !== i),
        command,
      ).toEqual([]);
    }
  });

  it('is what --help lists, flag for flag', async () => {
    for (const [command, specs] of Object.entries(OPTION_TABLE)) {
      const help = (await runCli([command, '--help'])).stdout;
      const listed = [...help.matchAll(/^ {2}(-[^\s,]+(?:, --[^\s]+)?)/gm)]
        .map((m) => m[1]!)
        .filter((f) => f !== '-h, --help');
      const declared = specs
        .filter((s) => !s.hidden && !s.deprecatedFor)
        .map((s) => s.flags.split(' <')[0]!.split(' [')[0]!);
      expect(listed, command).toEqual(declared);
    }
  });

  it('names library options by their flags', () => {
    expect(flagOf('statePath')).toBe('--state');
    expect(flagOf('shardBytes')).toBe('--shard-size');
    expect(flagOf('output')).toBe('-o');
    expect(flagOf('notAnOption')).toBeUndefined();
  });

  it('gives each value to the library under its name, parsed and converted', () => {
    const specs = OPTION_TABLE.export;
    const options = libraryOptions(
      specs,
      { query: 'q', output: 'd.nt', state: '/abs/s.json', shardSize: 1024, quiet: true, pageSize: 25 },
      '/work',
    );
    expect(options).toEqual({
      query: 'q',
      output: '/work/d.nt',
      statePath: '/abs/s.json',
      shardBytes: 1024,
      pageSize: 25,
    });
    expect(specs.map(longFlag)).toContain('--query');
  });
});
