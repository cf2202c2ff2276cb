/**
 * Issue 5 acceptance, with the real judge: against the local service, `term --accept X -f Y`
 * for all 16 pairs writes a file that Jena `riot --validate` accepts and that holds the
 * shipped graph (compared as sorted N-Triples written by riot: the term has no blank nodes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/startServer.js';
import { ROOT, riotNTriples, riotValidate, runCli } from './helpers.js';
import { tempDir } from '../helpers/tempDir.js';

const ACCEPT = ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml'];
const FORMATS: Record<string, string> = { jsonld: 'jsonld', ntriples: 'nt', turtle: 'ttl', rdfxml: 'rdf' };
const sorted = (nt: string) =>
  nt
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();

let service: RunningServer;
const dir = tempDir('term-int-');
beforeAll(async () => {
  service = await startServer();
});
afterAll(() => service.close(0));

describe('term against the local service, judged by Jena', () => {
  it('writes all 16 accept/format pairs as valid RDF holding the shipped graph', async () => {
    const shipped = sorted(await riotNTriples(join(ROOT, 'vocab/pagination.nt')));
    expect(shipped).toHaveLength(10);
    const files: string[] = [];
    for (const accept of ACCEPT) {
      for (const [format, ext] of Object.entries(FORMATS)) {
        const out = join(dir, `${accept.replace(/\W/g, '_')}.${ext}`);
        const r = await runCli([
          'term',
          'pagination',
          '--vocab-url',
          `${service.url}/vocab`,
          '--accept',
          accept,
          '-f',
          format,
          '-o',
          out,
        ]);
        expect(r.exitCode, `${accept} -> ${format}: ${r.stderr}`).toBe(0);
        files.push(out);
        const got = sorted(await riotNTriples(out, ext === 'jsonld' ? 'jsonld10' : undefined));
        expect(got, `${accept} -> ${format}`).toEqual(shipped);
      }
    }
    const validation = await riotValidate(files);
    expect(validation.ok, validation.output).toBe(true);
    expect(readFileSync(files[0]!, 'utf8').length).toBeGreaterThan(0);
  });
});
