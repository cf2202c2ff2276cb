import { describe, expect, it } from 'vitest';
import { makeRecords, startFakeService } from '../client/fakeService.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tempDir.js';

describe('--verbose', () => {
  it('says each request (URL, status, time), the key never in it, for export, search and get', async () => {
    const service = await startFakeService({ records: makeRecords(30), apiKey: 'sekret-key-123' });
    const dir = tempDir('verbose-');
    try {
      const common = ['--base-url', service.url, '--verbose'];
      const env = { SCHOLARLY_API_KEY: 'sekret-key-123' };
      const exported = await runCli(['export', '-q', 'x', '--page-size', '10', '-o', 'd.nt', '--quiet', ...common], {
        env,
        cwd: dir,
      });
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stderr.split('\n').filter((l) => l.startsWith('request: '));
      expect(lines.length).toBe(service.requests.length);
      expect(lines[0]).toMatch(
        /^request: GET http:\/\/127\.0\.0\.1:\d+\/meta\/v2\/json\?q=x&s=1&p=10&api_key=\*\*\* -> 200 \(\d+ ms\)$/,
      );
      const search = await runCli(['search', '-q', 'x', ...common], { env });
      expect(search.stderr).toMatch(/^request: GET .*&api_key=\*\*\* -> 200 \(\d+ ms\)\n$/);
      const wrong = await runCli(['search', '-q', 'x', ...common, '--retries', '0'], {
        env: { SCHOLARLY_API_KEY: 'wrong-key-456' },
      });
      expect(wrong.stderr).toMatch(/request: GET .* -> 401 /);
      for (const r of [exported, search, wrong]) {
        expect(r.stderr).not.toContain('sekret-key-123');
        expect(r.stderr).not.toContain('wrong-key-456');
      }
      expect((await runCli(['search', '-q', 'x', '--base-url', service.url], { env })).stderr).toBe('');
    } finally {
      await service.close();
    }
  });
});
