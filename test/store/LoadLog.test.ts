import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadLog, type LoadIdentity } from '../../src/store/LoadLog.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'load-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LoadLog', () => {
  it('keeps no key of the endpoint URL, and still knows the load when resumed', async () => {
    const identity: LoadIdentity = {
      graphStore: 'http://store.example/ds/data?apikey=K3y-of-the-proxy&graph=http%3A%2F%2Fexample.org%2Fg',
      graph: 'http://example.org/g',
      chunkTriples: 10,
      chunkFormat: 'ntriples',
      inputs: [{ path: 'dump.nt', size: 10, mtimeMs: 1 }],
    };
    const path = join(dir, 'dump.nt.load-state.json');
    const log = await LoadLog.create(path, identity, 0);
    await log.ack(10);
    expect(readFileSync(path, 'utf8')).not.toContain('K3y-of-the-proxy');
    expect(readFileSync(path, 'utf8')).toContain('apikey=***');
    const again = await LoadLog.open(path);
    expect(() => again!.assertSameLoad(identity)).not.toThrow();
    expect(() => again!.assertSameLoad({ ...identity, graphStore: 'http://other.example/ds/data?apikey=x' })).toThrow(
      /different load/,
    );
  });

  it('fails with an io error naming the log when it cannot be written', async () => {
    const log = await LoadLog.create(
      join(dir, 'gone', 'log.json'),
      { graphStore: 'http://s/ds/data', graph: 'http://g', chunkTriples: 1, chunkFormat: 'ntriples', inputs: [] },
      0,
    ).catch((e: Error) => e);
    expect(log).toMatchObject({
      code: 'io',
      message: expect.stringMatching(/^cannot write the load log .*log\.json: /),
    });
  });
});
