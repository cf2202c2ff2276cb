import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTempFile, removeTempFiles, unregisterTempFile } from '../src/tempFiles.js';
import { tempDir } from './helpers/tempDir.js';

describe('tempFiles', () => {
  it('removes the temporary files and directories still registered, and only those', () => {
    const dir = tempDir('temp-files-');
    const file = join(dir, 'a.partial');
    const kept = join(dir, 'b.partial');
    writeFileSync(file, 'x');
    writeFileSync(kept, 'y');
    registerTempFile(file);
    registerTempFile(kept);
    unregisterTempFile(kept);
    registerTempFile(join(dir, 'sub'));
    removeTempFiles();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(kept)).toBe(true);
    removeTempFiles(); // nothing left to do
  });
});
