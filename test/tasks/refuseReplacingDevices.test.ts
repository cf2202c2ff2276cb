import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportDump } from '../../src/tasks/exportDump.js';
import { refuseReplacingDevices } from '../../src/tasks/refuseReplacingDevices.js';
import { tempDir } from '../helpers/tempDir.js';

describe('refuseReplacingDevices', () => {
  it('refuses a pipe, naming it and what it is; passes files, folders and paths not there yet', () => {
    const dir = tempDir('refuse-devices-');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'file.ttl'), '');
    const ok = [
      { path: join(dir, 'file.ttl'), what: '`output`' },
      { path: dir, what: 'a folder' },
      { path: join(dir, 'new.ttl'), what: '`metaPath`' },
    ];
    expect(() => refuseReplacingDevices(ok)).not.toThrow();
    expect(() => refuseReplacingDevices([...ok, { path: fifo, what: '`statePath`' }])).toThrow(
      expect.objectContaining({
        code: 'usage',
        message: expect.stringMatching(/^`statePath` \(.*pipe\) is a device or a pipe/),
      }),
    );
  });

  // A pipe, not /dev/null: should the check go, the export would replace the pipe, not the machine's /dev/null.
  it('refuses an export into a pipe before anything is written: the pipe stays a pipe, nothing beside it', async () => {
    const dir = tempDir('refuse-devices-');
    const fifo = join(dir, 'dump.ttl');
    execFileSync('mkfifo', [fifo]);
    await expect(
      exportDump({ query: 'type:Journal', sample: true, maxRecords: 5, output: fifo }),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('`output` (' + fifo + ') is a device or a pipe'),
    });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['dump.ttl']);
  });
});
