/**
 * The same properties through the CLI a user runs (`convert`, in-process):
 * records read = mapped + rejected (summary line, rejects file, one stderr
 * line per rejection), exit code 1 exactly when something was rejected, and
 * an output file that parses back to the mapper's graph.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DoiSet } from '../../src/record/DoiSet.js';
import { runCli } from '../helpers/cli.js';
import { inputArb, layoutInput } from './arbitraries.js';
import { fuzzParams, reportCases } from './fuzzConfig.js';
import { FORMATS, assertSameGraph, runPipeline } from './pipeline.js';

const startedAt = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'fuzz-cli-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  reportCases('cli.test.ts', startedAt);
});

const EXT = { turtle: 'ttl', ntriples: 'nt', nquads: 'nq', jsonld: 'jsonld', rdfxml: 'rdf' } as const;

describe('convert CLI (property-based)', () => {
  it('puts every record in the output or the rejects file, says so, and exits 1 exactly when one was rejected', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        inputArb.filter((i) => i.records > 0),
        fc.constantFrom(...FORMATS),
        async (input, { format, parse }) => {
          const text = layoutInput(input);
          const name = `in-${n++}.json`;
          const inPath = join(dir, name);
          writeFileSync(inPath, text);
          const out = join(dir, `out-${n}.${EXT[format]}`);
          const rejectsPath = join(dir, `out-${n}.rejects.jsonl`);
          const r = await runCli(['convert', inPath, '-o', out, '--rejects', rejectsPath]);
          const m = /records read (\d+), mapped (\d+), rejected (\d+)/.exec(r.stderr);
          expect(m, r.stderr).not.toBeNull();
          const [read, mapped, rejected] = [Number(m![1]), Number(m![2]), Number(m![3])];
          expect(read).toBe(input.records);
          expect(mapped + rejected).toBe(read);
          expect(r.code, r.stderr).toBe(rejected > 0 ? 1 : 0);
          const lines = existsSync(rejectsPath)
            ? readFileSync(rejectsPath, 'utf8')
                .split('\n')
                .filter((l) => l !== '')
            : [];
          expect(lines).toHaveLength(rejected);
          for (const line of lines) {
            const j = JSON.parse(line) as { source: string; field: string; reason: string };
            expect(j.source).toBe(inPath);
            expect(j.field).toMatch(/\S/);
            expect(j.reason).toMatch(/\S/);
          }
          // One line per rejection (the first 20), each naming the file and the field, all on one line.
          const printed = r.stderr.split('\n').filter((l) => l.startsWith('rejected: '));
          expect(printed).toHaveLength(Math.min(rejected, 20));
          for (const l of printed)
            expect(l).toMatch(new RegExp(`^rejected: ${inPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*, field \\S`));
          if (rejected > 0) expect(r.stderr).toContain(`${rejected} record(s) rejected`);
          // The mapper's graph of the records convert writes: a record whose DOI (by doiKey) came before is rejected (duplicate-doi).
          const want = await runPipeline(text, []);
          const dois = new DoiSet();
          const written = want.outcomes.flatMap((o) =>
            o.kind === 'mapped' && dois.add(o.mapped.doi) ? o.mapped.quads : [],
          );
          assertSameGraph(await parse(readFileSync(out, 'utf8')), written, format);
        },
      ),
      fuzzParams('convert CLI', 100),
    );
  });
});

describe('convert CLI on what users get wrong', () => {
  it('--strict stops at the first rejection, exits 1, names it, keeps it in the rejects file and leaves no half-written output', async () => {
    const input = join(dir, 'strict.ndjson');
    writeFileSync(
      input,
      '{"doi":"10.5555/ok1"}\n{"doi":"10.5555/bad","creators":[{"creator":{"x":1}}]}\n{"doi":"10.5555/ok2"}\n',
    );
    const out = join(dir, 'strict.ttl');
    const rejects = join(dir, 'strict.rejects.jsonl');
    const r = await runCli(['convert', input, '-o', out, '--rejects', rejects, '--strict']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `rejected: ${input} record 2 (line 2) 10.5555/bad, field creators[0].creator: expected a string, got an object`,
    );
    expect(r.stderr).toContain(
      `scholarly-rdf: error [records-rejected]: --strict: stopped at the first rejected record: ${input} record 2`,
    );
    expect(r.stderr).toContain(`nothing was written to ${out}`);
    expect(existsSync(out)).toBe(false);
    expect(JSON.parse(readFileSync(rejects, 'utf8').trim())).toMatchObject({
      index: 2,
      field: 'creators[0].creator',
      record: { doi: '10.5555/bad' },
    });
  });

  it('a run that fails leaves a file already at the -o path as it was, and no temporary file beside it', async () => {
    const out = join(dir, 'precious.ttl');
    writeFileSync(out, 'precious\n');
    const input = join(dir, 'fine.json');
    writeFileSync(input, '{"doi":"10.5555/x"}');
    const r = await runCli(['convert', input, join(dir, 'no-such-input.json'), '-o', out]);
    expect(r.code).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).filter((f) => f.includes('precious'))).toEqual(['precious.ttl']);
    const ok = await runCli(['convert', input, '-o', out]);
    expect(ok.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<https://doi.org/10.5555/x>');
    expect(readdirSync(dir).filter((f) => f.includes('precious'))).toEqual(['precious.ttl']);
  });

  it('options that do nothing without another are usage errors, and -f against the -o extension is said', async () => {
    const input = join(dir, 'opts.json');
    writeFileSync(input, '{"doi":"10.5555/x"}');
    for (const args of [
      ['--graph', 'http://example.org/g', '-f', 'turtle'],
      ['--shapes', 'shapes'],
    ]) {
      const r = await runCli(['convert', input, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
    for (const args of [['--load-graph', 'http://example.org/g'], ['--replace'], ['--api-key', 'mine']]) {
      const r = await runCli(['export', '--sample', '-q', 'x', '-o', join(dir, 'e.nt'), ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
    const term = await runCli(['term', '--offline', '--vocab-url', 'http://127.0.0.1:9/vocab']);
    expect(term.code).toBe(2);
    const out = join(dir, 'named.ttl');
    const r = await runCli(['convert', input, '-f', 'ntriples', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`convert: writing N-Triples to ${out}, whose name says Turtle (-f wins)`);
  });

  it('a --base or --graph that no format can write is a usage error (exit 2) before anything is written', async () => {
    const input = join(dir, 'base.json');
    writeFileSync(input, '{"doi":"10.5555/x"}');
    for (const args of [
      ['--base', 'http://example.org/a b/'],
      ['--base', 'http://example.org/x/../'],
      ['--base', 'no-scheme/'],
      ['--graph', 'http://example.org/<g>', '-f', 'nquads'],
    ]) {
      const r = await runCli(['convert', input, ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/error \[usage\]: --(base|graph) /);
      expect(r.stdout).toBe('');
    }
  });
});
