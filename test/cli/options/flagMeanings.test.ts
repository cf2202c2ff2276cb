import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { longFlag } from '../../../src/cli/options/CliOption.js';
import { OPTION_TABLE } from '../../../src/cli/options/optionTable.js';
import { makeRecords, startFakeService } from '../../client/fakeService.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tempDir.js';

const SAMPLE = join(import.meta.dirname, '../../../data/sample-catalogue.jsonl');

describe('flags that mean one thing everywhere', () => {
  it('gives each short flag one meaning across commands (earlier spellings aside)', () => {
    const meanings = new Map<string, Set<string>>();
    for (const specs of Object.values(OPTION_TABLE)) {
      for (const spec of specs.filter((s) => !s.deprecatedFor)) {
        const short = new Option(spec.flags).short;
        if (short !== undefined) meanings.set(short, (meanings.get(short) ?? new Set()).add(longFlag(spec)));
      }
    }
    const pinned = Object.fromEntries([...meanings].map(([short, longs]) => [short, [...longs]]));
    expect(pinned).toEqual({
      '-q': ['--query'],
      '-f': ['--format'],
      '-o': ['--output'],
      '-j': ['--jobs'],
      '-s': ['--start'],
      '-p': ['--page-size'],
    });
  });

  it('names the input format apart from the output format', () => {
    const validate = OPTION_TABLE.validate.filter((s) => !s.deprecatedFor).map(longFlag);
    expect(validate).toContain('--input-format');
    expect(validate).not.toContain('--format');
  });

  it('ends every --help with the exit codes and the environment variables the command reads, defaults printed one way', async () => {
    for (const command of Object.keys(OPTION_TABLE)) {
      const help = (await runCli([command, '--help'])).stdout;
      expect(help, command).toMatch(/\nExit codes:\n {2}0 .*\n( {2}\d+ .*\n)+\nEnvironment:\n( {2}\S.*\n)+$/);
      expect(help, command).not.toMatch(/\(default: "/);
      expect(help, command).not.toMatch(/default [^(:]*stdout|\(default [^:]/);
    }
    const exportHelp = (await runCli(['export', '--help'])).stdout;
    for (const name of ['SCHOLARLY_API_KEY', 'SPRINGERNATURE_API_KEY', 'HTTPS_PROXY', 'SCHOLARLY_STORE_PASSWORD'])
      expect(exportHelp).toContain(name);
  });

  it('keeps the earlier spellings working, each with a deprecation line', async () => {
    const dir = tempDir('flag-meanings-');
    const quiet = await runCli(['convert', SAMPLE, '-q', '-o', join(dir, 'a.nt')]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('scholarly-rdf: -q is deprecated here: use --quiet\n');
    const validate = await runCli(['validate', join(dir, 'a.nt'), '-f', 'ntriples', '-q']);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toContain('scholarly-rdf: -f, --format is deprecated here: use --input-format\n');
    expect(validate.stderr).toContain('scholarly-rdf: -q is deprecated here: use --quiet\n');
    expect(validate.stdout.trim().split('\n')).toHaveLength(1);
    const timeout = await runCli([
      'load',
      '--endpoint',
      'http://127.0.0.1:9',
      '--timeout',
      '5',
      '--bulk',
      '--store',
      'virtuoso',
    ]);
    expect(timeout.stderr).toContain('--timeout is deprecated here: use --request-timeout');
    expect(readFileSync(join(dir, 'a.nt'), 'utf8')).toMatch(/^<https:/);
  });

  it('refuses an empty query before any request (exit 2)', async () => {
    for (const command of ['export', 'search']) {
      const r = await runCli(
        [command, '--sample', '-q', '', '--quiet'].filter((a) => command === 'export' || a !== '--quiet'),
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('--query must be a non-empty text, got ""');
    }
  });

  it('reads the key from SPRINGERNATURE_API_KEY as from SCHOLARLY_API_KEY, and hides it', async () => {
    const service = await startFakeService({ records: makeRecords(3), apiKey: 'official-key' });
    try {
      const r = await runCli(['search', '-q', 'x', '--base-url', service.url, '--json'], {
        env: { SPRINGERNATURE_API_KEY: 'official-key' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(service.requests[0]!.searchParams.get('api_key')).toBe('official-key');
      expect(r.stdout).not.toContain('official-key');
      const both = await runCli(['search', '-q', 'x', '--base-url', service.url], {
        env: { SCHOLARLY_API_KEY: 'wrong', SPRINGERNATURE_API_KEY: 'official-key' },
      });
      expect(both.code).toBe(3); // SCHOLARLY_API_KEY comes first
    } finally {
      await service.close();
    }
  });
});
