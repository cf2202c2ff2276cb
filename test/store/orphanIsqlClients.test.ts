import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ISQL_MARK } from '../../src/store/VirtuosoIsql.js';
import { orphanIsqlClients } from '../../src/store/orphanIsqlClients.js';

describe('orphanIsqlClients', () => {
  it.runIf(process.platform === 'linux')(
    'finds a client whose starting process is gone by the mark in its environment; not one of a running process',
    async () => {
      const gone = spawnSync('true').pid!; // exited: its pid names a process that no longer runs
      const orphan = spawn('sleep', ['30'], { env: { ...process.env, [ISQL_MARK]: String(gone) }, stdio: 'ignore' });
      const ours = spawn('sleep', ['30'], {
        env: { ...process.env, [ISQL_MARK]: String(process.pid) },
        stdio: 'ignore',
      });
      const started = Promise.all(
        [orphan, ours].map((child) => new Promise((resolve) => child.once('spawn', resolve))),
      );
      try {
        await started;
        const found = orphanIsqlClients();
        expect(found).toContainEqual({ pid: orphan.pid, startedBy: gone });
        expect(found.map((o) => o.pid)).not.toContain(ours.pid);
      } finally {
        orphan.kill();
        ours.kill();
      }
    },
  );

  it('finds none where there is no /proc', () => {
    expect(orphanIsqlClients('/nonexistent-proc')).toEqual([]);
  });
});
