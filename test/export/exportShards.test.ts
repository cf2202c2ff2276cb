import type * as RDF from '@rdfjs/types';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exportRdf } from '../../src/export/exportRdf.js';
import { readExportState } from '../../src/export/ExportState.js';
import type { ShardManifest } from '../../src/output/ShardManifest.js';
import { NS } from '../../src/rdf/namespaces.js';
import { makeRecords, startFakeService } from '../client/fakeService.js';
import { exportHarness, interrupted } from './exportHarness.js';
import { expectIsomorphic, parseJsonLd, parseNQuads, parseTurtle } from '../helpers/rdf.js';

const KEY = 'K3y-Of-Test/+=';
const h = exportHarness(KEY, 'export-shards-');
const base = h.base;

const files = (folder: string, stem: string) =>
  readdirSync(folder)
    .filter((n) => n.startsWith(`${stem}.`))
    .sort();
const manifestOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as ShardManifest;
const text = (path: string) =>
  (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8');

describe('exportRdf with shardRecords', () => {
  it('cuts the records between pages or inside one, each shard a whole document; together the one-file dump', async () => {
    h.service = await startFakeService({ records: makeRecords(53), apiKey: KEY });
    await exportRdf(base({ output: join(h.dir, 'one.jsonld') }));
    const summary = await exportRdf(base({ output: join(h.dir, 'dump.jsonld'), shardRecords: 15 }));
    expect(summary.manifestPath).toBe(join(h.dir, 'dump.manifest.json'));
    expect(files(h.dir, 'dump')).toEqual([
      'dump.00001.jsonld',
      'dump.00002.jsonld',
      'dump.00003.jsonld',
      'dump.00004.jsonld',
      'dump.jsonld.state.json',
      'dump.manifest.json',
    ]);
    const manifest = manifestOf(summary.manifestPath!);
    expect(manifest.shards.map((s) => s.records)).toEqual([15, 15, 15, 8]);
    expect(manifest.totals).toMatchObject({ shards: 4, records: 53, triples: summary.counts.triples });
    expect(manifest.dataset).toBe(summary.dataset);
    expect(manifest.shards[1]).toMatchObject({ firstDoi: makeRecords(53)[15]!.doi, lastDoi: makeRecords(53)[29]!.doi });
    const all: RDF.Quad[] = [];
    for (const s of manifest.shards) {
      const bytes = readFileSync(join(h.dir, s.file));
      expect([s.bytes, s.sha256]).toEqual([bytes.length, createHash('sha256').update(bytes).digest('hex')]);
      all.push(...(await parseJsonLd(bytes.toString('utf8'))));
    }
    expectIsomorphic(all, await parseJsonLd(readFileSync(join(h.dir, 'one.jsonld'), 'utf8')));
    // The statements about shared entities (journals, publishers, ...), per shard and in total.
    expect(manifest.shards.every((s) => s.sharedTriples! > 0 && s.sharedTriples! < s.triples)).toBe(true);
    expect(manifest.totals.sharedTriples).toBe(manifest.shards.reduce((n, s) => n + s.sharedTriples!, 0));
  });

  for (const [ext, stopAfter] of [
    ['ttl', 2],
    ['nq.gz', 3],
    ['jsonld', 2],
    ['rdf', 4],
  ] as const) {
    it(`resumes a ${ext} export shard by shard to the same bytes, never rewriting a finished shard`, async () => {
      h.service = await startFakeService({ records: makeRecords(53), apiKey: KEY });
      const full = join(h.dir, `full.${ext}`);
      await exportRdf(base({ output: full, shardRecords: 15 }));
      const part = join(h.dir, `part.${ext}`);
      await interrupted(base({ output: part, shardRecords: 15 }), stopAfter);
      const state = await readExportState(`${part}.state.json`);
      expect(state?.shards?.done.length).toBe(stopAfter === 4 ? 2 : 1);
      // Not finished: no manifest; the shard being written is .partial.
      expect(existsSync(join(h.dir, 'part.manifest.json'))).toBe(false);
      const current = join(h.dir, `part.0000${state!.shards!.current!.index}.${ext}.partial`);
      expect(existsSync(current)).toBe(true);
      // A killed process may have written part of a page after the checkpoint.
      appendFileSync(current, 'half a page of garbage');
      const finished = join(h.dir, `part.00001.${ext}`);
      const before = readFileSync(finished);
      const summary = await exportRdf(base({ output: part, resume: true, shardRecords: 15 }));
      expect(summary.counts.records).toBe(53);
      expect(readFileSync(finished)).toEqual(before);
      const names = (stem: string) => files(h.dir, stem).filter((n) => /\.\d{5}\./.test(n));
      expect(names('part')).toEqual(names('full').map((n) => n.replace('full', 'part')));
      for (const n of names('full'))
        expect(readFileSync(join(h.dir, n.replace('full', 'part')))).toEqual(readFileSync(join(h.dir, n)));
      expect(readFileSync(join(h.dir, 'part.manifest.json'), 'utf8')).toBe(
        readFileSync(join(h.dir, 'full.manifest.json'), 'utf8').replaceAll('full.', 'part.'),
      );
      expect(readdirSync(h.dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
    });
  }

  it('puts in place a finished shard the state lists that was not renamed yet (a kill between the two)', async () => {
    h.service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const out = join(h.dir, 'd.nt');
    await interrupted(base({ output: out, shardRecords: 10 }), 2);
    renameSync(join(h.dir, 'd.00001.nt'), join(h.dir, 'd.00001.nt.partial'));
    await exportRdf(base({ output: out, resume: true, shardRecords: 10 }));
    expect(manifestOf(join(h.dir, 'd.manifest.json')).shards.map((s) => s.file)).toEqual([
      'd.00001.nt',
      'd.00002.nt',
      'd.00003.nt',
      'd.00004.nt',
    ]);
    expect(existsSync(join(h.dir, 'd.00001.nt.partial'))).toBe(false);
  });

  it('refuses to resume when a finished shard was changed, or the shards asked for differ', async () => {
    h.service = await startFakeService({ records: makeRecords(35), apiKey: KEY });
    const out = join(h.dir, 'd.nt');
    await interrupted(base({ output: out, shardRecords: 10 }), 2);
    await expect(exportRdf(base({ output: out, resume: true, shardRecords: 12 }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('shards'),
    });
    await expect(exportRdf(base({ output: out, resume: true }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('shards'),
    });
    const first = join(h.dir, 'd.00001.nt');
    writeFileSync(first, readFileSync(first, 'utf8').replace('doi', 'DOI'));
    await expect(exportRdf(base({ output: out, resume: true, shardRecords: 10 }))).rejects.toMatchObject({
      code: 'state-mismatch',
      message: expect.stringContaining('d.00001.nt'),
    });
  });

  it('describes each shard in the description: a distribution with its file, size, checksum and statements; no description graph in N-Quads shards', async () => {
    h.service = await startFakeService({ records: makeRecords(25), apiKey: KEY });
    const meta = join(h.dir, 'meta.ttl');
    const summary = await exportRdf(base({ output: join(h.dir, 'd.nq'), shardRecords: 10, metaPath: meta }));
    const manifest = manifestOf(summary.manifestPath!);
    const quads = parseTurtle(readFileSync(meta, 'utf8'));
    const values = (s: string, p: string) =>
      quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);
    const shards = values(summary.dataset, `${NS.dcat}distribution`)
      .filter((d) => d.includes('#shard-'))
      .sort();
    expect(shards).toEqual([1, 2, 3].map((i) => `${summary.dataset}#shard-0000${i}`));
    for (const [i, shard] of shards.entries()) {
      const entry = manifest.shards[i]!;
      const url = pathToFileURL(join(h.dir, entry.file)).href;
      expect(values(shard, `${NS.dcat}downloadURL`)).toEqual([url]);
      expect(values(shard, `${NS.dcat}byteSize`)).toEqual([String(entry.bytes)]);
      expect(values(shard, `${NS.void}triples`)).toEqual([String(entry.triples)]);
      expect(
        values(values(shard, 'http://spdx.org/rdf/terms#checksum')[0]!, 'http://spdx.org/rdf/terms#checksumValue'),
      ).toEqual([entry.sha256]);
      expect(values(summary.dataset, `${NS.void}dataDump`)).toContain(url);
      const inShard = parseNQuads(text(join(h.dir, entry.file)));
      expect(inShard.some((q) => q.graph.termType !== 'DefaultGraph')).toBe(false);
      expect(inShard.length).toBe(entry.triples);
    }
  });

  it('removes the manifest of an earlier export when it starts afresh, and writes a missing one when resumed', async () => {
    h.service = await startFakeService({ records: makeRecords(25), apiKey: KEY });
    const out = join(h.dir, 'd.ttl');
    const manifest = join(h.dir, 'd.manifest.json');
    await exportRdf(base({ output: out, shardRecords: 10 }));
    const written = readFileSync(manifest, 'utf8');
    rmSync(manifest);
    const again = await exportRdf(base({ output: out, shardRecords: 10, resume: true }));
    expect(again.alreadyComplete).toBe(true);
    expect(readFileSync(manifest, 'utf8')).toBe(written);
    await interrupted(base({ output: out, shardRecords: 10 }), 1);
    expect(existsSync(manifest)).toBe(false);
  });

  it('needs an output file, and refuses another output named like a shard or the manifest', async () => {
    h.service = await startFakeService({ records: makeRecords(5), apiKey: KEY });
    await expect(exportRdf(base({ stream: process.stdout, shardRecords: 10 }))).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('needs an output file'),
    });
    await expect(exportRdf(base({ output: join(h.dir, 'd.nt'), shardBytes: 0 }))).rejects.toMatchObject({
      code: 'usage',
    });
  });
});
