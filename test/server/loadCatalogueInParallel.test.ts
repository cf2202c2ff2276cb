import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { readCatalogueRange } from '../../src/server/readCatalogueFile.js';
import { evaluateQuery } from '../../src/server/evaluateQuery.js';
import { loadCatalogueInParallel } from '../../src/server/loadCatalogueInParallel.js';
import { INDEX_PART_NAMES } from '../../src/server/indexParts.js';
import { parseQuery } from '../../src/server/parseQuery.js';
import { tempDir } from '../helpers/tempDir.js';

const dir = tempDir('parallel-');
const file = join(dir, 'c.jsonl');
const records = [...generateRecords(1500, 8, { catalogueFields: true })];
writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');

const QUERIES = [
  'year:2015',
  'subject:"Life Sciences"',
  'name:müller',
  'title:visual*',
  'country:Germany',
  'type:Book',
  'datefrom:2019',
  'onlinedateto:2010-05',
  '"visual analytics"',
  'NOT keyword:Cancer',
  `doi:"${records[1400]!.doi}"`,
  `doi:"${records[3]!.doi.toUpperCase()}"`,
  'doi:10.1186*',
];

function lineStartNear(text: Buffer, at: number): number {
  return text.indexOf(10, at) + 1;
}

function expectSameCatalogue(a: Catalogue, b: Catalogue): void {
  expect(b.size).toBe(a.size);
  for (const q of QUERIES) {
    const x = evaluateQuery(a, parseQuery(q));
    const y = evaluateQuery(b, parseQuery(q));
    expect([...y], q).toEqual([...x]);
    expect(b.facets(y), q).toEqual(a.facets(x));
  }
  for (let i = 0; i < a.size; i += 7) expect(b.recordJson(i)).toBe(a.recordJson(i));
  expect(b.snapshot()).toEqual(a.snapshot());
}

describe('loading a catalogue in parts', () => {
  it('joins parts read separately into the same catalogue as one read', () => {
    const bytes = readFileSync(file);
    const cuts = [0, lineStartNear(bytes, 100_000), lineStartNear(bytes, 900_000), bytes.length];
    const parts = [0, 1, 2].map((k) => readCatalogueRange(file, cuts[k]!, cuts[k + 1]!));
    expect(parts.map((p) => p.size).reduce((a, b) => a + b)).toBe(1500);
    expectSameCatalogue(Catalogue.fromFile(file), Catalogue.fromParts(parts));
  });

  it('falls back to one thread when running from sources', async () => {
    expectSameCatalogue(
      Catalogue.fromFile(file),
      await loadCatalogueInParallel(file, { workers: 3, minBytesPerWorker: 1 }),
    );
  });

  it('reads parts on worker threads when built (compiled to a temp dir), with the same result and line numbers in errors', () => {
    const out = tempDir('parallel-build-');
    const root = resolve(import.meta.dirname, '../..');
    const tsc = join(root, 'node_modules/.bin/tsc');
    try {
      execFileSync(
        tsc,
        [
          '--ignoreConfig',
          '--outDir',
          out,
          '--rootDir',
          join(root, 'src'),
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--skipLibCheck',
          '--types',
          'node',
          join(root, 'src/server/loadCatalogueInParallel.ts'),
          join(root, 'src/server/catalogueWorker.ts'),
          join(root, 'src/server/evaluateQuery.ts'),
          join(root, 'src/server/parseQuery.ts'),
        ],
        { stdio: 'pipe' },
      );
    } catch {
      // type errors elsewhere do not stop the emit
    }
    writeFileSync(join(out, 'package.json'), '{"type":"module"}');
    const bad = join(dir, 'bad.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1200] = '{"doi": oops}';
    writeFileSync(bad, lines.join('\n'));
    const script = `
      const { Catalogue } = await import(${JSON.stringify(join(out, 'server/Catalogue.js'))});
      const { loadCatalogueInParallel } = await import(${JSON.stringify(join(out, 'server/loadCatalogueInParallel.js'))});
      const { evaluateQuery } = await import(${JSON.stringify(join(out, 'server/evaluateQuery.js'))});
      const { parseQuery } = await import(${JSON.stringify(join(out, 'server/parseQuery.js'))});
      const a = Catalogue.fromFile(${JSON.stringify(file)});
      const b = await loadCatalogueInParallel(${JSON.stringify(file)}, { workers: 3, minBytesPerWorker: 1 });
      const out = { size: [a.size, b.size], queries: [] };
      for (const q of ${JSON.stringify(QUERIES)}) {
        const x = evaluateQuery(a, parseQuery(q)), y = evaluateQuery(b, parseQuery(q));
        out.queries.push([q, x.length, y.length, x.every((v, i) => v === y[i]), JSON.stringify(a.facets(x)) === JSON.stringify(b.facets(y))]);
      }
      out.records = Array.from({ length: a.size }, (_, i) => i).every((i) => a.recordJson(i) === b.recordJson(i));
      // every index part, compared whole; the chunks say the workers read the file (one chunk per range)
      const sa = a.snapshot(), sb = b.snapshot();
      out.parts = Object.keys(sa).map((name) => [name, JSON.stringify(sb[name]) === JSON.stringify(sa[name])]);
      out.chunks = [a.parts.records.chunks.length, b.parts.records.chunks.length];
      try { await loadCatalogueInParallel(${JSON.stringify(bad)}, { workers: 3, minBytesPerWorker: 1 }); } catch (e) { out.error = e.message; }
      console.log(JSON.stringify(out));
    `;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as {
      size: number[];
      queries: [string, number, number, boolean, boolean][];
      records: boolean;
      parts: [string, boolean][];
      chunks: number[];
      error: string;
    };
    expect(result.size).toEqual([1500, 1500]);
    for (const [q, x, y, same, facets] of result.queries) {
      expect([q, y, same, facets]).toEqual([q, x, true, true]);
      if (q.startsWith('doi:')) expect(x, q).toBeGreaterThan(0);
    }
    expect(result.records).toBe(true);
    expect(result.chunks).toEqual([1, 3]);
    expect(result.parts.map(([name]) => name)).toEqual(INDEX_PART_NAMES);
    for (const [name, same] of result.parts) expect(same, `${name}: workers and one thread differ`).toBe(true);
    expect(result.error).toMatch(/bad\.jsonl:1201: not a JSON record/);
    expect(statSync(join(out, 'server/catalogueWorker.js')).isFile()).toBe(true);
  });
});
