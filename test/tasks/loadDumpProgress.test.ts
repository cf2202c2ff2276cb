import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type LoadProgress, loadDump } from '../../src/tasks/loadDump.js';
import { GspTestServer } from '../store/GspTestServer.js';

const dir = mkdtempSync(join(tmpdir(), 'load-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadDump onProgress', () => {
  it('reports the bytes of the file as read from disk (compressed), the triples read and those the store acknowledged', async () => {
    const server = await new GspTestServer().start();
    try {
      const lines = [...Array(5).keys()].map((i) => `<urn:x:s${i}> <urn:x:p> "${i}" .\n`).join('');
      writeFileSync(join(dir, 'd.nt.gz'), gzipSync(lines));
      const reports: LoadProgress[] = [];
      const chunks: number[] = [];
      const summary = await loadDump({
        files: ['d.nt.gz'],
        cwd: dir,
        endpoint: server.dataset,
        graph: 'urn:x:g',
        chunkTriples: 2,
        onChunk: (e) => chunks.push(e.chunk),
        onProgress: (p) => reports.push({ ...p }),
      });
      expect(summary.triples).toBe(5);
      expect(chunks).toEqual([1, 2, 3]); // the caller's onChunk is still told
      const size = statSync(join(dir, 'd.nt.gz')).size;
      expect(reports.at(-1)).toMatchObject({
        bytesRead: size,
        totalBytes: size,
        triplesRead: 5,
        triplesAcked: 5,
        chunksAcked: 3,
      });
      // One report at least at each acknowledged chunk, in order.
      expect(reports.map((r) => r.chunksAcked).filter((c, i, all) => c !== all[i - 1])).toEqual([
        ...(reports[0]!.chunksAcked === 0 ? [0] : []),
        1,
        2,
        3,
      ]);
    } finally {
      await server.stop();
    }
  });
});
