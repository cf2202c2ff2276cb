import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineFile } from '../../src/output/LineFile.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'line-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LineFile', () => {
  it('refuses a folder that is not there when made, not at its first line (in the middle of a run)', () => {
    const path = join(dir, 'missing', 'rejects.jsonl');
    expect(() => new LineFile(path, new PassThrough())).toThrow(
      expect.objectContaining({ code: 'io', message: `cannot create ${path}: its folder does not exist (ENOENT)` }),
    );
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

  it('refuses a folder at its path when made, naming the path as given', () => {
    mkdirSync(join(dir, 'rejects.jsonl'));
    expect(() => new LineFile(join(dir, 'rejects.jsonl'), new PassThrough())).toThrow(
      expect.objectContaining({ code: 'io', message: `cannot write ${join(dir, 'rejects.jsonl')}: it is a directory` }),
    );
  });

  it('a write that fails does not stop the run: later lines are counted, close() says what was not kept', async () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const file = new LineFile(join(sub, 'rejects.jsonl'), new PassThrough());
    // The folder goes away after the run began (a disk unmounted, a full disk): the first line cannot be written.
    rmSync(sub, { recursive: true });
    await file.append('{"a":1}\n');
    await file.append('{"b":2}\n');
    expect(file.lines).toBe(2);
    await expect(file.close()).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(
        /rejects\.jsonl.*; its 2 line\(s\) are not kept \(the output itself is written whole\)$/,
      ),
    });
  });
});
