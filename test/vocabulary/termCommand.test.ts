/** `scholarly-rdf term`, run in-process with run(). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';
import { startVocabServer, vocabFile, type VocabServer } from './vocabServer.js';

const SHIPPED = parseNTriples(vocabFile('pagination.nt'));
let server: VocabServer;
const dir = mkdtempSync(join(tmpdir(), 'term-'));
beforeAll(async () => {
  server = await startVocabServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function term(...argv: string[]): Promise<CliResult> {
  return runCli(['term', ...argv], { cwd: dir });
}

/** Parses CLI output with parsers that are not ours. */
async function parseOutput(text: string, format: string): Promise<RDF.Quad[]> {
  switch (format) {
    case 'turtle':
      return parseTurtle(text);
    case 'ntriples':
      return parseNTriples(text);
    case 'nquads':
      return parseNQuads(text);
    case 'rdfxml':
      return parseRdfXml(text);
    default:
      return parseJsonLd(text);
  }
}

describe('term', () => {
  describe('against a server that negotiates vocab/ (as the local service does): all 16 pairs', () => {
    const accepts = ['application/ld+json', 'application/n-triples', 'text/turtle', 'application/rdf+xml'];
    const formats = ['jsonld', 'ntriples', 'turtle', 'rdfxml'];
    for (const accept of accepts) {
      for (const format of formats) {
        it(`--accept ${accept} -f ${format}`, async () => {
          const r = await term('--vocab-url', `${server.url}/vocab`, '--accept', accept, '-f', format);
          expect(r.code, r.stderr).toBe(0);
          expect(server.seen.at(-1)!.accept).toBe(accept);
          expectIsomorphic(await parseOutput(r.stdout, format), SHIPPED);
        });
      }
    }
  });

  it('prints the body as received without -f', async () => {
    const r = await term('pagination', '--vocab-url', `${server.url}/vocab`, '--accept', 'text/turtle');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(vocabFile('pagination.ttl'));
    expect(r.stderr).toMatch(/10 triples \(Turtle\)/);
  });

  it('writes N-Quads and to a file with -o', async () => {
    const r = await term('--vocab-url', `${server.url}/vocab`, '-f', 'nquads', '-o', 'out.nq');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expectIsomorphic(parseNQuads(readFileSync(join(dir, 'out.nq'), 'utf8')), SHIPPED);
  });

  it('--offline prints the shipped copy without a network', async () => {
    const r = await term('--offline');
    expect(r.code).toBe(0);
    // Both: which one was meant? A usage error rather than a silent choice.
    expect((await term('--offline', '--vocab-url', 'http://127.0.0.1:9/unused')).code).toBe(2);
    expect(r.stdout).toBe(vocabFile('pagination.jsonld'));
    const x = await term('--offline', '--accept', 'application/rdf+xml', '-f', 'turtle');
    expectIsomorphic(parseTurtle(x.stdout), SHIPPED);
    const y = await term('--offline', '--accept', 'text/turtle;q=0.9, */*;q=0.1');
    expect(y.stdout).toBe(vocabFile('pagination.ttl'));
    const z = await term('--offline', '--accept', 'nt');
    expect(z.stdout).toBe(vocabFile('pagination.nt'));
  });

  it('reads the JSON-LD of an HTML page and converts it', async () => {
    const r = await term('--vocab-url', `${server.url}/html`, '-f', 'ntriples');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<http://schema.org/Chapter>');
    expect(r.stderr).toMatch(/embedded JSON-LD/);
  });

  describe('--check', () => {
    it('reports the four formats as the same graph as the shipped copy (exit 0)', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/vocab`);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/application\/rdf\+xml\s+10 triples/);
      expect(r.stdout).toContain('formats agree: yes');
      expect(r.stdout).toContain('same as the shipped copy (vocab/pagination): yes');
    });

    it('works offline on the shipped files', async () => {
      const r = await term('--check', '--offline');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('formats agree: yes');
    });

    it('lists the triples that differ from the shipped copy and exits 1 (the live schema.org term)', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/html`);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('formats agree: yes');
      expect(r.stdout).toContain('same as the shipped copy (vocab/pagination): no');
      expect(r.stdout).toContain(
        '+ <http://schema.org/pagination> <http://schema.org/domainIncludes> <http://schema.org/Chapter> .',
      );
      expect(r.stdout).toMatch(/- <http:\/\/schema\.org\/pagination> <http:\/\/purl\.org\/dc\/terms\/source> /);
    });

    it('fails (exit 1) when the service serves another format than asked: that format was never checked', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/always-turtle`);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        'content negotiation: 3 of 4 format(s) not served as asked (application/ld+json, application/n-triples, application/rdf+xml)',
      );
    });

    it('compares every format with the shipped copy, not only the first', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/extra-nt`);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('formats agree: no');
      expect(r.stdout).toContain('same as the shipped copy (vocab/pagination): no (application/n-triples)');
    });

    it('reports every format that does not parse, each with its error, and exits 1', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/all-broken`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout.match(/ error: /g)).toHaveLength(4);
      expect(r.stdout).toContain('formats agree: no (4 failed)');
    });

    it('lists a format that fails and exits 1', async () => {
      const r = await term('--check', '--vocab-url', `${server.url}/only-turtle`, '--no-fallback');
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /application\/ld\+json\s+error: GET .*only-turtle\/pagination \(Accept: application\/ld\+json\): 406/,
      );
      expect(r.stdout).toMatch(/text\/turtle\s+10 triples/);
      expect(r.stdout).toContain('formats agree: yes (3 failed)');
    });
  });

  describe('errors', () => {
    it('404: exit 3, the message names the URL', async () => {
      const r = await term('nosuchterm', '--vocab-url', `${server.url}/vocab`, '--no-fallback');
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`error [not-found]: GET ${server.url}/vocab/nosuchterm`);
    });

    it('usage errors exit 2', async () => {
      expect((await term('--offline', '-f', 'csv')).code).toBe(2);
      expect((await term('--check', '-f', 'turtle')).code).toBe(2);
      expect((await term('--timeout', 'soon')).code).toBe(2);
      expect((await term('--timeout', '1e9')).code).toBe(2); // beyond what a timer can wait
    });

    it('a term that is not shipped, offline: not-found', async () => {
      const r = await term('nosuchterm', '--offline');
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/not shipped/);
    });
  });
});
