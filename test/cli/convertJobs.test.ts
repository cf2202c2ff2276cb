import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tempDir.js';

const SAMPLE = 'data/sample-catalogue.jsonl';

describe('convert --jobs', () => {
  it.each(['nt', 'ttl', 'jsonld', 'rdf', 'nq'])(
    'writes the same bytes with two worker threads as with one (.%s), notes and rejects too',
    async (ext) => {
      const dir = tempDir('convert-jobs-');
      const bad = join(dir, 'in.jsonl');
      // The sample, a bad line and a duplicate DOI: every path of the pipeline.
      const sample = readFileSync(SAMPLE, 'utf8');
      const first = sample.split('\n')[0]!;
      writeFileSync(bad, `${sample.trimEnd()}\n{not json\n${first}\n`);
      const one = await runCli([
        'convert',
        bad,
        '-o',
        join(dir, `one.${ext}`),
        '--jobs',
        '1',
        '--notes',
        join(dir, 'one.notes.jsonl'),
        '--rejects',
        join(dir, 'one.rejects.jsonl'),
        '--quiet',
      ]);
      const two = await runCli([
        'convert',
        bad,
        '-o',
        join(dir, `two.${ext}`),
        '--jobs',
        '2',
        '--notes',
        join(dir, 'two.notes.jsonl'),
        '--rejects',
        join(dir, 'two.rejects.jsonl'),
        '--quiet',
      ]);
      expect(two.code).toBe(one.code);
      expect(one.code).toBe(1); // records rejected
      expect(readFileSync(join(dir, `two.${ext}`), 'utf8')).toBe(readFileSync(join(dir, `one.${ext}`), 'utf8'));
      expect(readFileSync(join(dir, 'two.notes.jsonl'), 'utf8')).toBe(
        readFileSync(join(dir, 'one.notes.jsonl'), 'utf8'),
      );
      expect(readFileSync(join(dir, 'two.rejects.jsonl'), 'utf8')).toBe(
        readFileSync(join(dir, 'one.rejects.jsonl'), 'utf8'),
      );
    },
  );

  it('is refused with --validate and with shards, naming the flags', async () => {
    const dir = tempDir('convert-jobs-');
    const withValidate = await runCli(['convert', SAMPLE, '-o', join(dir, 'v.nt'), '--jobs', '2', '--validate']);
    expect(withValidate.code).toBe(2);
    expect(withValidate.stderr).toMatch(/--jobs.*--validate|--validate.*--jobs/);
    const withShards = await runCli([
      'convert',
      SAMPLE,
      '-o',
      join(dir, 's.nt'),
      '--jobs',
      '2',
      '--shard-records',
      '5',
    ]);
    expect(withShards.code).toBe(2);
    expect(withShards.stderr).toMatch(/--jobs/);
    expect(withShards.stderr).toMatch(/--shard-records/);
  });
});
