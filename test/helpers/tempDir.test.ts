import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './tempDir.js';

describe('tempDir', () => {
  let inTest = '';
  let inFailedTest = '';

  it('makes a directory in the temp directory', () => {
    inTest = tempDir('temp-dir-');
    expect(dirname(inTest)).toBe(tmpdir());
    expect(inTest).toMatch(/temp-dir-[^/\\]{6}$/);
    writeFileSync(join(inTest, 'file'), 'x');
  });

  it('removed it when the test that made it finished', () => {
    expect(inTest).not.toBe('');
    expect(existsSync(inTest)).toBe(false);
  });

  it.fails('removes it when the test fails too', () => {
    inFailedTest = tempDir('temp-dir-failed-');
    throw new Error('this test fails');
  });

  it('removed the failed test directory', () => {
    expect(inFailedTest).not.toBe('');
    expect(existsSync(inFailedTest)).toBe(false);
  });

  let inSuite = '';
  describe('called at suite level', () => {
    inSuite = tempDir('temp-dir-suite-');

    it('keeps it through the suite', () => {
      expect(existsSync(inSuite)).toBe(true);
    });
  });

  it('removed it after the suite', () => {
    expect(inSuite).not.toBe('');
    expect(existsSync(inSuite)).toBe(false);
  });
});
