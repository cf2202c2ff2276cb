/**
 * `convert` of every real service response in test/fixtures/service/ to the
 * six formats, judged by tools that are not ours: Apache Jena's riot, Debian's
 * 4.5 and 5.6 from `$SCHOLARLY_JENA_LIB` (--validate: errors and warnings,
 * ill-typed literals included; 5.6 reads JSON-LD 1.1, with no jsonld10
 * workaround), rapper (all but JSON-LD) and Python rdflib (all six); then the
 * six outputs must hold the same graph (read back by riot 4.5, by riot 5.6 for
 * JSON-LD, and by rdflib, compared with rdf-isomorphic: our output has no blank
 * nodes). And the bundled sample catalogue in every format, each read by
 * Jena 5.6 riot into the same graph.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, termToId } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  needTools,
  rapperParse,
  rdflibCount,
  rdflibNTriples,
  riot5NTriples,
  riot5Validate,
  riotNTriples,
  riotValidate,
  runCli,
  type RapperSyntax,
} from './helpers.js';

const FIXTURES = resolve(ROOT, 'test/fixtures/service');
/** Files that hold records (or an empty page of them); the 401 error body is not a record file. */
const INPUTS = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json') && !f.startsWith('error-'))
  .sort();

const FORMATS: { format: string; ext: string; rapper?: RapperSyntax; rdflib: string }[] = [
  { format: 'turtle', ext: 'ttl', rapper: 'turtle', rdflib: 'turtle' },
  { format: 'ntriples', ext: 'nt', rapper: 'ntriples', rdflib: 'ntriples' },
  { format: 'nquads', ext: 'nq', rapper: 'nquads', rdflib: 'nquads' },
  { format: 'jsonld', ext: 'jsonld', rdflib: 'jsonld' },
  { format: 'rdfxml', ext: 'rdf', rapper: 'rdfxml', rdflib: 'rdfxml' },
  { format: 'trig', ext: 'trig', rapper: 'trig', rdflib: 'trig' },
];

/**
 * The triples of an N-Triples (or N-Quads) text, graphs dropped, each once: a graph is a set, and a dump
 * repeats the triples of shared entities (a journal, a publisher) in every record that names them.
 */
function triplesOf(ntriples: string): RDF.Quad[] {
  const quads = new Parser({ format: 'application/n-quads', factory: DataFactory }).parse(ntriples) as RDF.Quad[];
  const unique = new Map<string, RDF.Quad>();
  for (const q of quads) {
    const triple = DataFactory.quad(q.subject, q.predicate, q.object);
    unique.set(termToId(triple.subject) + ' ' + termToId(triple.predicate) + ' ' + termToId(triple.object), triple);
  }
  return [...unique.values()];
}

const work = mkdtempSync(join(tmpdir(), 'scholarly-convert-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.runIf(needTools('jena', 'jena5', 'rapper', 'rdflib'))(
  'convert output judged by Jena 4.5 and 5.6, rapper and rdflib',
  () => {
    it('has fixtures to convert', () => {
      expect(INPUTS.length).toBeGreaterThanOrEqual(4);
    });

    describe.each(INPUTS)('%s', (input) => {
      const outputs = new Map<string, string>();

      it.each(FORMATS)(
        'converts to $format: accepted by riot, rapper and rdflib',
        async ({ format, ext, rapper, rdflib }) => {
          const out = join(work, `${input.replace(/\.json$/, '')}.${ext}`);
          const result = await runCli(['convert', join(FIXTURES, input), '-f', format, '-o', out]);
          expect(result.exitCode, result.stderr).toBe(0);
          expect(statSync(out).isFile()).toBe(true); // an empty page gives an empty N-Triples file, which is valid
          outputs.set(format, out);

          const riot = await riotValidate([out]);
          expect(riot.ok, `riot --validate ${out}:\n${riot.output}`).toBe(true);
          if (rapper) {
            const r = await rapperParse(out, rapper);
            expect(r.ok, `rapper -i ${rapper} -c ${out}:\n${r.output}`).toBe(true);
          }
          const count = await rdflibCount(out, rdflib);
          expect(count).toBeGreaterThanOrEqual(0);
        },
      );

      it('gives the same graph in all the formats', async () => {
        expect([...outputs.keys()].sort(), 'every format converted').toEqual(FORMATS.map((f) => f.format).sort());
        const riot5 = await riot5Validate([...outputs.values()]);
        expect(riot5.ok, `Jena 5.6 riot --validate:\n${riot5.output}`).toBe(true);
        const reference = triplesOf(await riotNTriples(outputs.get('ntriples')!));
        const jsonldByRiot5 = triplesOf(await riot5NTriples(outputs.get('jsonld')!));
        expect(
          isomorphic(jsonldByRiot5, reference),
          'JSON-LD read by Jena 5.6 riot (JSON-LD 1.1) is isomorphic to the N-Triples output',
        ).toBe(true);
        for (const { format } of FORMATS) {
          const file = outputs.get(format)!;
          const byRiot = format === 'jsonld' ? undefined : triplesOf(await riotNTriples(file));
          const byRdflib = triplesOf(await rdflibNTriples(file, format));
          if (byRiot) {
            expect(byRiot.length, `${format} read by riot: triple count`).toBe(reference.length);
            expect(isomorphic(byRiot, reference), `${format} read by riot is isomorphic to the N-Triples output`).toBe(
              true,
            );
          }
          expect(byRdflib.length, `${format} read by rdflib: triple count`).toBe(reference.length);
          expect(
            isomorphic(byRdflib, reference),
            `${format} read by rdflib is isomorphic to the N-Triples output`,
          ).toBe(true);
        }
      });
    });
  },
);

describe.runIf(needTools('jena5'))('the sample catalogue in every format, read by Jena 5.6 riot', () => {
  it('each format parses with no error or warning and holds the same graph', async () => {
    const sample = resolve(ROOT, 'data/sample-catalogue.jsonl');
    const files = new Map<string, string>();
    for (const { format, ext } of FORMATS) {
      const out = join(work, `sample.${ext}`);
      const r = await runCli(['convert', sample, '-f', format, '-o', out, '--quiet']);
      expect(r.exitCode, r.stderr).toBe(0);
      files.set(format, out);
    }
    const validated = await riot5Validate([...files.values()]);
    expect(validated.ok, validated.output).toBe(true);
    const reference = triplesOf(await riot5NTriples(files.get('ntriples')!));
    expect(reference.length).toBeGreaterThan(10_000);
    for (const [format, file] of files) {
      if (format === 'ntriples') continue;
      const read = triplesOf(await riot5NTriples(file));
      expect(read.length, `${format}: triple count`).toBe(reference.length);
      expect(isomorphic(read, reference), `${format} read by Jena 5.6 riot is isomorphic to the N-Triples output`).toBe(
        true,
      );
    }
  });
});

describe('the convert process stopped by Ctrl-C', () => {
  it('Ctrl-C while it waits on stdin ends it (130) at once, with no temporary file left beside the output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'convert-sigint-'));
    try {
      const { spawn } = await import('node:child_process');
      const bin = resolve(fileURLToPath(new URL('../../bin/scholarly-rdf.js', import.meta.url)));
      const child = spawn(process.execPath, [bin, 'convert', '-', '-o', join(dir, 'out.ttl')], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      // stdin stays open and sends nothing: the run waits on it, its partial output in place.
      const partial = async () => readdirSync(dir).some((f) => f.endsWith('.partial'));
      for (let i = 0; i < 100 && !(await partial()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await partial()).toBe(true);
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      // One Ctrl-C ends it though stdin stays open (the wait on stdin fails with the interruption).
      child.kill('SIGINT');
      const timedOut = new Promise<string>((r) => setTimeout(() => r('still running'), 5000));
      expect(await Promise.race([exited, timedOut])).toBe(130);
      expect(readdirSync(dir)).toEqual([]);
      child.stdin.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the convert process writing to a pipe that closes early (| head)', () => {
  it('ends quietly, without an internal error', async () => {
    const { spawn } = await import('node:child_process');
    const bin = resolve(fileURLToPath(new URL('../../bin/scholarly-rdf.js', import.meta.url)));
    const sample = resolve(fileURLToPath(new URL('../../data/sample-catalogue.jsonl', import.meta.url)));
    const child = spawn(process.execPath, [bin, 'convert', sample, sample, sample, '-f', 'ntriples'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Read a little, then close the pipe, as `head -2` does.
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    child.stdout.destroy();
    const code = await exited;
    expect(stderr).not.toContain('internal error');
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
