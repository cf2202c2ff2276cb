import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertFiles, type ConvertProgress } from '../../src/index.js';
import { tempDir } from '../helpers/tempDir.js';

const SAMPLE = join(import.meta.dirname, '../../data/sample-catalogue.jsonl');

describe('convertFiles onProgress', () => {
  it("reports the bytes read of the inputs' known size, the records and statements, ending with all of them", async () => {
    const dir = tempDir('convert-progress-');
    const seen: ConvertProgress[] = [];
    const summary = await convertFiles({
      inputs: [SAMPLE, SAMPLE],
      output: join(dir, 'd.nt'),
      onProgress: (p) => seen.push(p),
    });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      bytesRead: 2 * statSync(SAMPLE).size,
      totalBytes: 2 * statSync(SAMPLE).size,
      records: summary.read,
      rejected: summary.rejected,
      statements: summary.statements,
    });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.bytesRead).toBeGreaterThanOrEqual(seen[i - 1]!.bytesRead);
  });

  it('has no total for stdin', async () => {
    const { Readable } = await import('node:stream');
    const { readFileSync } = await import('node:fs');
    const seen: ConvertProgress[] = [];
    await convertFiles({
      inputs: ['-'],
      stdin: Readable.from([readFileSync(SAMPLE)]),
      stream: new (await import('node:stream')).PassThrough().resume(),
      onProgress: (p) => seen.push(p),
    });
    expect(seen.at(-1)).toMatchObject({ totalBytes: null, bytesRead: statSync(SAMPLE).size });
  });
});
