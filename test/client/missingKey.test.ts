import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient, exportDump, harvest } from '../../src/index.js';
import { tempDir } from '../helpers/tempDir.js';

describe('a missing key', () => {
  it('is refused by every public function that asks the service, before any request and before any file is written', async () => {
    const dir = tempDir('missing-key-');
    let requests = 0;
    const fetch: typeof globalThis.fetch = async () => {
      requests++;
      return new Response('{}', { status: 401 });
    };
    const refused = { code: 'auth', message: expect.stringContaining('no API key: pass `apiKey`') as unknown };
    expect(() => new ApiClient({ fetch })).toThrow(expect.objectContaining(refused));
    expect(() => new ApiClient({ apiKey: '', fetch })).toThrow(expect.objectContaining(refused));
    await expect(exportDump({ query: 'type:Journal', output: join(dir, 'd.nt'), fetch })).rejects.toMatchObject(
      refused,
    );
    await expect(
      (async () => {
        for await (const _ of harvest('type:Journal', { fetch })) break;
      })(),
    ).rejects.toMatchObject(refused);
    expect(requests).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    // Another service (a local copy, a test double) may take no key: asked as it is.
    expect(() => new ApiClient({ baseUrl: 'http://127.0.0.1:9', fetch })).not.toThrow();
  });
});
