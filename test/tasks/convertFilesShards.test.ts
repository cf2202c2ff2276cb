import type * as RDF from '@rdfjs/types';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser, Store } from 'n3';
import type { ShardManifest } from '../../src/output/ShardManifest.js';
import { bulkManifestOf, expectedRange } from '../../src/store/virtuosoBulkManifest.js';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { convertFiles } from '../../src/tasks/convertFiles.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseNTriples, parseRdfXml, parseTurtle } from '../helpers/rdf.js';

let dir: string;
let input: string;
const RECORDS = 23;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'convert-shards-'));
  input = join(dir, 'records.jsonl');
  writeFileSync(input, [...generateRecords(RECORDS, 7)].map((r) => `${JSON.stringify(r)}\n`).join(''));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const parsers: Record<string, (text: string) => RDF.Quad[] | Promise<RDF.Quad[]>> = {
  ttl: parseTurtle,
  nt: parseNTriples,
  nq: parseNQuads,
  jsonld: parseJsonLd,
  rdf: parseRdfXml,
};
const read = (path: string) =>
  (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8');
const manifestOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ShardManifest;

describe('convertFiles with shardRecords', () => {
  for (const ext of ['ttl', 'nt', 'nq.gz', 'jsonld', 'rdf']) {
    it(`writes ${ext} shards, each a whole document, that together are the one-file output; the manifest counts them`, async () => {
      const sub = mkdtempSync(join(dir, `${ext.replace('.', '-')}-`));
      const single = join(sub, `one.${ext}`);
      await convertFiles({ inputs: [input], output: single });
      const summary = await convertFiles({ inputs: [input], output: join(sub, `dump.${ext}`), shardRecords: 10 });
      expect(summary.manifestPath).toBe(join(sub, 'dump.manifest.json'));
      const names = readdirSync(sub)
        .filter((n) => n.startsWith('dump.0'))
        .sort();
      expect(names).toEqual([`dump.00001.${ext}`, `dump.00002.${ext}`, `dump.00003.${ext}`]);
      const manifest = manifestOf(summary.manifestPath!);
      expect(manifest.shards.map((s) => [s.file, s.records])).toEqual([
        [names[0], 10],
        [names[1], 10],
        [names[2], 3],
      ]);
      expect(manifest.totals).toMatchObject({ shards: 3, records: RECORDS, triples: summary.statements });
      const parse = parsers[ext.replace('.gz', '')]!;
      const all: RDF.Quad[] = [];
      for (const [i, name] of names.entries()) {
        const path = join(sub, name);
        const bytes = readFileSync(path);
        expect(manifest.shards[i]!.bytes).toBe(bytes.length);
        expect(manifest.shards[i]!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        const quads = await parse(read(path));
        expect(quads.length).toBeLessThanOrEqual(manifest.shards[i]!.triples);
        all.push(...quads);
      }
      expectIsomorphic(all, await parse(read(single)));
      // Nothing else is left: no partial shard, no temporary manifest.
      expect(readdirSync(sub).filter((n) => n.includes('partial') || n.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('names the first and last DOI of every shard', async () => {
    const dois = [...generateRecords(RECORDS, 7)].map((r) => (r as { doi: string }).doi);
    const summary = await convertFiles({ inputs: [input], output: join(dir, 'dois.nt'), shardRecords: 10 });
    const manifest = manifestOf(summary.manifestPath!);
    expect(manifest.shards.map((s) => [s.firstDoi, s.lastDoi])).toEqual([
      [dois[0], dois[9]],
      [dois[10], dois[19]],
      [dois[20], dois[22]],
    ]);
  });

  it('cuts by bytes too: no shard over the limit, the records all there', async () => {
    const summary = await convertFiles({ inputs: [input], output: join(dir, 'bytes.jsonld'), shardBytes: 20_000 });
    const manifest = manifestOf(summary.manifestPath!);
    expect(manifest.shards.length).toBeGreaterThan(2);
    expect(manifest.shards.filter((s) => s.bytes <= 20_000).length).toBeGreaterThan(1);
    for (const s of manifest.shards) {
      expect(s.bytes <= 20_000 || s.records === 1).toBe(true);
      expect(s.records).toBeGreaterThan(0);
      JSON.parse(read(join(dir, s.file)));
    }
    expect(manifest.totals.records).toBe(RECORDS);
  });

  it('writes one shard with no record for an empty input', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const summary = await convertFiles({ inputs: [empty], output: join(dir, 'none.jsonld'), shardRecords: 5 });
    const manifest = manifestOf(summary.manifestPath!);
    expect(manifest.shards).toMatchObject([
      { file: 'none.00001.jsonld', records: 0, triples: 0, firstDoi: null, lastDoi: null },
    ]);
    expect(JSON.parse(read(join(dir, 'none.00001.jsonld')))['@graph']).toEqual([]);
  });

  it('refuses a stream, a bad number, and an output that would take a shard or the manifest', async () => {
    await expect(convertFiles({ inputs: [input], stream: process.stdout, shardRecords: 5 })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('needs an output file'),
    });
    await expect(convertFiles({ inputs: [input], output: join(dir, 'x.nt'), shardRecords: 0 })).rejects.toMatchObject({
      code: 'usage',
    });
    await expect(
      convertFiles({
        inputs: [input],
        output: join(dir, 'x.nt'),
        shardRecords: 5,
        rejectsPath: join(dir, 'x.00002.nt'),
      }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('are one file') });
    await expect(
      convertFiles({
        inputs: [input],
        output: join(dir, 'x.nt'),
        shardRecords: 5,
        notesPath: join(dir, 'x.manifest.json'),
      }),
    ).rejects.toMatchObject({ code: 'usage' });
    expect(existsSync(join(dir, 'x.00001.nt'))).toBe(false);
  });

  it('refuses shard names that are an input (or a link to one)', async () => {
    const sub = mkdtempSync(join(dir, 'input-'));
    const records = join(sub, 'in.00001.nt');
    writeFileSync(records, readFileSync(input));
    await expect(
      convertFiles({ inputs: [records], output: join(sub, 'in.nt'), shardRecords: 5 }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('would overwrite the input') });
    symlinkSync(input, join(sub, 'out.00002.nt'));
    await expect(convertFiles({ inputs: [input], output: join(sub, 'out.nt'), shardRecords: 5 })).rejects.toMatchObject(
      { code: 'usage', message: expect.stringContaining('would overwrite the input') },
    );
  });

  it('refuses to write over the shards of an unfinished export', async () => {
    const sub = mkdtempSync(join(dir, 'unfinished-'));
    writeFileSync(
      join(sub, 'dump.nt.state.json'),
      JSON.stringify({
        version: 2,
        identity: {},
        cursor: { start: 1, done: false },
        complete: false,
        counts: { records: 3 },
      }),
    );
    await expect(
      convertFiles({ inputs: [input], output: join(sub, 'dump.nt'), shardRecords: 5 }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('unfinished export') });
  });

  it('leaves no shard and no manifest when the run fails', async () => {
    const sub = mkdtempSync(join(dir, 'fail-'));
    const bad = join(sub, 'bad.jsonl');
    writeFileSync(bad, `${readFileSync(input, 'utf8')}{"no": "doi"}\n`);
    await expect(
      convertFiles({
        inputs: [bad],
        output: join(sub, 'dump.nt'),
        shardRecords: 5,
        strict: true,
        rejectsPath: join(sub, 'r.jsonl'),
      }),
    ).rejects.toMatchObject({ code: 'records-rejected' });
    expect(readdirSync(sub).sort()).toEqual(['bad.jsonl', 'r.jsonl']);
  });

  it("the manifest's sharedTriples give the bulk loader a range that holds the distinct triples of the bundled sample", async () => {
    const sub = mkdtempSync(join(dir, 'sample-'));
    const summary = await convertFiles({
      inputs: ['data/sample-catalogue.jsonl'],
      output: join(sub, 'dump.nt.gz'),
      shardRecords: 70,
    });
    const manifest = manifestOf(summary.manifestPath!);
    expect(manifest.shards).toHaveLength(5);
    // A store holds each triple once: the distinct triples of all the shards.
    const distinct = new Store();
    for (const s of manifest.shards)
      distinct.addQuads(new Parser({ format: 'N-Triples' }).parse(read(join(sub, s.file))));
    expect(manifest.totals.sharedTriples).toBe(manifest.shards.reduce((n, s) => n + s.sharedTriples!, 0));
    // The sample repeats shared nodes: the statements are more than the distinct triples.
    expect(manifest.totals.triples).toBeGreaterThan(distinct.size);
    const range = expectedRange(bulkManifestOf(manifest, summary.manifestPath!).shards, 0);
    expect(range.max).toBe(manifest.totals.triples);
    expect(range.min).toBeLessThanOrEqual(distinct.size);
    expect(range.max).toBeGreaterThanOrEqual(distinct.size);
  });
});
