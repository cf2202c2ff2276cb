import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWritable, assertWritableFolder } from '../../src/output/assertWritable.js';
import { ToolkitError } from '../../src/errors.js';
import { tempDir } from '../helpers/tempDir.js';

describe('assertWritableFolder / assertWritable (the one check before a run writes)', () => {
  const dir = tempDir('writable-');

  it('passes a file in a folder that is there', () => {
    expect(() => assertWritableFolder(join(dir, 'out.ttl'))).not.toThrow();
    expect(() => assertWritable(join(dir, 'out.ttl'))).not.toThrow();
  });

  it('refuses a missing folder or a file in the place of one, naming the path and what it is', () => {
    const missing = join(dir, 'nope', 'report.ttl');
    expect(() => assertWritableFolder(missing, 'the report')).toThrow(ToolkitError);
    expect(() => assertWritableFolder(missing, 'the report')).toThrow(/the report/);
    expect(() => assertWritableFolder(missing)).toThrow(missing);
    writeFileSync(join(dir, 'file'), '');
    const underFile = join(dir, 'file', 'x.ttl');
    expect(() => assertWritable(underFile)).toThrow(/not a folder|ENOTDIR/);
  });

  it('refuses a folder where the file should be', () => {
    mkdirSync(join(dir, 'sub'));
    expect(() => assertWritable(join(dir, 'sub'))).toThrow(/it is a directory/);
  });
});
