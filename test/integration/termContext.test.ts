/**
 * Issue 34: the vocabulary term served in JSON-LD reads correctly in Python rdflib (Debian's, and the
 * SCHOLARLY_PYTHON venv's rdflib 7.x), which gets the document from the local service and may fetch nothing
 * else: the @context is inline and defines every prefix the document uses (owl: included).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/startServer.js';
import { expectIsomorphic, parseNTriples } from '../helpers/rdf.js';
import { vocabFile } from '../vocabulary/vocabServer.js';
import { needTools } from './helpers.js';

const run = promisify(execFile);

// Reads the URL with rdflib; any fetch of another URL than the local service's fails the run.
const SCRIPT = `
import sys, urllib.request
from rdflib import Graph
allowed = sys.argv[2]
real = urllib.request.OpenerDirector.open
def guarded(self, req, *a, **k):
    url = req if isinstance(req, str) else req.full_url
    if not url.startswith(allowed):
        raise SystemExit("fetch outside the local service: " + url)
    return real(self, req, *a, **k)
urllib.request.OpenerDirector.open = guarded
g = Graph()
g.parse(sys.argv[1], format="json-ld")
sys.stdout.write(g.serialize(format="nt"))
`;

const PYTHONS = ['/usr/bin/python3', ...(process.env['SCHOLARLY_PYTHON'] ? [process.env['SCHOLARLY_PYTHON']] : [])];

let service: RunningServer;
beforeAll(async () => {
  service = await startServer();
});
afterAll(() => service.close(0));

describe('the served term in JSON-LD, read by Python rdflib', () => {
  it.each(PYTHONS)(
    '%s: the shipped graph, no prefix read as an IRI, nothing fetched but the local service',
    async (python) => {
      if (!needTools('rdflib')) return;
      if (process.env['CI'] && !process.env['SCHOLARLY_PYTHON']) throw new Error('SCHOLARLY_PYTHON is not set');
      const url = `${service.url}/vocab/pagination`;
      // rdflib asks with its own Accept header; the service answers JSON-LD for it (its default representation).
      const { stdout } = await run(python, ['-c', SCRIPT, url, `${service.url}/`], { timeout: 120_000 });
      expect(stdout).not.toMatch(/<owl:|<rdf:|<schema:|<dcterms:/);
      expectIsomorphic(parseNTriples(stdout), parseNTriples(vocabFile('pagination.nt')), `rdflib of ${python}`);
    },
    180_000,
  );
});
