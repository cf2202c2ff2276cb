import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWriteStream } from '../../src/output/openWriteStream.js';
import { writeText } from '../../src/output/writeText.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'open-write-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openWriteStream', () => {
  it('refuses a file in a folder that is not there, before anything is written, naming it', async () => {
    const path = join(dir, 'no', 'report.ttl');
    await expect(openWriteStream(path, { what: 'the report' })).rejects.toMatchObject({
      code: 'io',
      message: `cannot create the report ${path}: its folder does not exist (ENOENT)`,
    });
  });

  it.runIf(existsSync('/dev/full'))(
    'turns a write that fails (a full disk) into an io error naming the file, for writers and for finished()',
    async () => {
      const stream = await openWriteStream('/dev/full', { name: 'out.nt' });
      const text = 'x'.repeat(1 << 20);
      let caught: unknown;
      try {
        for (let i = 0; i < 4; i++) await writeText(stream, text);
      } catch (err) {
        caught = err;
      }
      expect(caught).toMatchObject({
        code: 'io',
        message: 'cannot write out.nt: no space left on the device (ENOSPC)',
      });
      await expect(finished(stream)).rejects.toMatchObject({ code: 'io' });
    },
  );
});
