import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './tempDir.js';
import { createTempRoot, removeTempRoot, TEMP_ROOT_PREFIX, TEMP_ROOT_VARIABLE } from './tempRoot.js';

describe('tempRoot', () => {
  it('runs this suite in the run temp directory', () => {
    const root = process.env[TEMP_ROOT_VARIABLE];
    expect(root).toBeDefined();
    expect(basename(root!)).toMatch(new RegExp(`^${TEMP_ROOT_PREFIX}`));
    expect(dirname(tempDir('temp-root-'))).toBe(root);
  });

  it('is the first global setup of every vitest config', async () => {
    const configs = [
      'vitest.config.ts',
      'vitest.fuzz.config.ts',
      'vitest.spec.config.ts',
      'vitest.integration.config.ts',
    ];
    for (const name of configs) {
      const config = ((await import(`../../${name}`)) as { default: { test?: { globalSetup?: string[] } } }).default;
      expect(config.test?.globalSetup?.[0], name).toBe('test/helpers/tempRoot.ts');
    }
  });

  it('creates the directory once and points the temp variables at it', () => {
    const parent = tempDir('temp-root-parent-');
    const env: NodeJS.ProcessEnv = {};
    const dir = createTempRoot(env, parent);
    expect(dir).toBeDefined();
    expect(dirname(dir!)).toBe(parent);
    expect(existsSync(dir!)).toBe(true);
    expect(env).toEqual({ [TEMP_ROOT_VARIABLE]: dir, TMPDIR: dir, TMP: dir, TEMP: dir });
    expect(createTempRoot(env, parent)).toBeUndefined(); // a second project's setup
    expect(env[TEMP_ROOT_VARIABLE]).toBe(dir);
  });

  it('names what was left in it, then removes it', () => {
    const dir = tempDir('temp-root-left-');
    mkdirSync(join(dir, 'b-dir'));
    writeFileSync(join(dir, 'b-dir', 'inner'), 'x');
    writeFileSync(join(dir, 'a-file'), 'y');
    const written: string[] = [];
    removeTempRoot(dir, (text) => written.push(text));
    expect(existsSync(dir)).toBe(false);
    expect(written.join('')).toMatch(/left 2 entries[^\n]*\n {2}a-file\n {2}b-dir\n$/);
  });

  it('says nothing when nothing was left', () => {
    const dir = tempDir('temp-root-empty-');
    const written: string[] = [];
    removeTempRoot(dir, (text) => written.push(text));
    expect(existsSync(dir)).toBe(false);
    expect(written).toEqual([]);
  });
});
