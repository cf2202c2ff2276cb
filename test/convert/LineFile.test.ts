import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineFile } from '../../src/convert/LineFile.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'line-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LineFile', () => {
  it('refuses a folder that is not there when made, not at its first line (in the middle of a run)', () => {
    const path = join(dir, 'missing', 'rejects.jsonl');
    expect(() => new LineFile(path, new PassThrough())).toThrow(expect.objectContaining({ code: 'io', message: `cannot create ${path}: its folder does not exist (ENOENT)` }));
  });

  it('writes its lines, and no file when there were none', async () => {
    const path = join(dir, 'notes.jsonl');
    const empty = new LineFile(join(dir, 'none.jsonl'), new PassThrough());
    await empty.close();
    const file = new LineFile(path, new PassThrough());
    await file.append('{"a":1}\n');
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(() => readFileSync(join(dir, 'none.jsonl'))).toThrow();
  });
});
