import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient, recordRdf, sampleCatalogueOptions, startServer } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';

const FIRST_DOI = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../data/sample-catalogue.jsonl'), 'utf8').split('\n')[0]!) as {
    doi: string;
  }
).doi;

describe('recordRdf (what get prints)', () => {
  it("is one record's document, the same as the CLI's, and no-record for a DOI the service lacks", async () => {
    const server = await startServer({ ...sampleCatalogueOptions(), host: '127.0.0.1', port: 0 });
    try {
      const client = new ApiClient({ baseUrl: server.url, apiKey: 'sample' });
      const got = await recordRdf(`doi:${FIRST_DOI}`, { client, format: 'ntriples' });
      expect(got.doi).toBe(FIRST_DOI);
      expect(got.text.trim().split('\n')).toHaveLength(got.statements);
      expect(got.text).toContain(`<https://doi.org/${FIRST_DOI}>`);
      const cli = await runCli(['get', FIRST_DOI, '--sample', '-f', 'ntriples']);
      expect(cli.stdout).toBe(got.text);
      await expect(recordRdf('10.9999/none', { client })).rejects.toMatchObject({ code: 'no-record' });
    } finally {
      await server.close();
    }
  });
});
