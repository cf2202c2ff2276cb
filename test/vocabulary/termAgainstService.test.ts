/**
 * Acceptance of issue 5: against the local service (`scholarly-rdf serve`,
 * src/server/), `term --accept X -f Y` works for all 16 pairs and each output
 * is the shipped graph. Run in-process with run().
 */
import type * as RDF from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { startServer, type RunningServer } from '../../src/server/startServer.js';
import { expectIsomorphic, parseJsonLd, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';
import { vocabFile } from './vocabServer.js';

const SHIPPED = parseNTriples(vocabFile('pagination.nt'));
let service: RunningServer;
beforeAll(async () => {
  service = await startServer();
});
afterAll(() => service.close(0));

async function term(...argv: string[]): Promise<CliResult> {
  return runCli(['term', ...argv]);
}

const PARSE: Record<string, (text: string) => RDF.Quad[] | Promise<RDF.Quad[]>> = {
  jsonld: parseJsonLd,
  ntriples: parseNTriples,
  turtle: parseTurtle,
  rdfxml: parseRdfXml,
};

describe('term against the local service (serve)', () => {
  for (const accept of ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml']) {
    for (const format of Object.keys(PARSE)) {
      it(`--accept ${accept} -f ${format}`, async () => {
        const r = await term('--vocab-url', `${service.url}/vocab`, '--accept', accept, '-f', format, '--no-fallback');
        expect(r.code, r.stderr).toBe(0);
        // The service answered in the asked format itself (no fallback, no sniffing detour).
        const label = {
          'application/ld+json': 'JSON-LD',
          'application/n-triples': 'N-Triples',
          'text/turtle': 'Turtle',
          'application/rdf+xml': 'RDF/XML',
        }[accept];
        expect(r.stderr).toContain(`${service.url}/vocab/pagination: 10 triples (${label})`);
        expectIsomorphic(await PARSE[format]!(r.stdout), SHIPPED);
      });
    }
  }

  it('--check against the service: the four formats and the shipped copy agree', async () => {
    const r = await term('--check', '--vocab-url', `${service.url}/vocab`);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('formats agree: yes');
    expect(r.stdout).toContain('same as the shipped copy (vocab/pagination): yes');
  });
});
