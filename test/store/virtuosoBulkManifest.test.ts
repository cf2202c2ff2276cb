import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFactory } from 'n3';
import { countSharedTriples, isSharedTriple } from '../../src/mapping/sharedTriples.js';
import {
  bulkManifestOf,
  expectedRange,
  readBulkManifest,
  shardsOfFiles,
} from '../../src/store/virtuosoBulkManifest.js';
import { tempDir } from '../helpers/tempDir.js';

const shard = (n: number, triples: number, extra: Record<string, unknown> = {}) => ({
  file: `dump.0000${n}.nt.gz`,
  records: 10,
  triples,
  bytes: 100 + n,
  sha256: 'ab',
  ...extra,
});

describe('bulkManifestOf', () => {
  it('reads the shards (files relative to the manifest) and sums their triples; the total is checked', () => {
    const m = bulkManifestOf(
      { shards: [shard(1, 30), shard(2, 12)], records: 20, triples: 42 },
      '/d/dump.manifest.json',
    );
    expect(m.shards.map((s) => [s.path, s.triples, s.bytes])).toEqual([
      ['/d/dump.00001.nt.gz', 30, 101],
      ['/d/dump.00002.nt.gz', 12, 102],
    ]);
    expect(m.triples).toBe(42);
    expect(m.sharedTriples).toBeUndefined();
    // The export's own shape: totals.triples.
    expect(bulkManifestOf({ shards: [shard(1, 5)], totals: { triples: 5 } }, '/d/m.json').triples).toBe(5);
  });

  it('names the manifest and the field of what is wrong (parse)', () => {
    expect(() => bulkManifestOf({ shards: [shard(1, 30), { file: 'b.nt' }] }, '/d/m.json', 'm.json')).toThrow(
      expect.objectContaining({
        code: 'parse',
        message: expect.stringMatching(/^m\.json: field shards\[1\]\.triples/),
      }),
    );
    expect(() => bulkManifestOf({ shards: [shard(1, 30)], triples: 31 }, '/d/m.json', 'm.json')).toThrow(
      expect.objectContaining({ code: 'parse', message: expect.stringContaining('field triples: 31 is not the sum') }),
    );
    expect(() => bulkManifestOf({ shards: [] }, '/d/m.json', 'm.json')).toThrow(
      expect.objectContaining({ code: 'parse', message: expect.stringContaining('field shards') }),
    );
    expect(() => bulkManifestOf({ shards: [{ triples: 1 }] }, '/d/m.json', 'm.json')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('shards[0].file') }),
    );
  });

  it('sums sharedTriples when every shard gives it; totals.sharedTriples is checked against the sum', () => {
    expect(
      bulkManifestOf({ shards: [shard(1, 30, { sharedTriples: 4 }), shard(2, 12, { sharedTriples: 1 })] }, '/d/m.json')
        .sharedTriples,
    ).toBe(5);
    expect(
      bulkManifestOf(
        { shards: [shard(1, 30, { sharedTriples: 4 })], totals: { triples: 30, sharedTriples: 4 } },
        '/d/m.json',
      ).sharedTriples,
    ).toBe(4);
    expect(() =>
      bulkManifestOf(
        { shards: [shard(1, 30, { sharedTriples: 4 })], totals: { triples: 30, sharedTriples: 5 } },
        '/d/m.json',
        'm.json',
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'parse',
        message: expect.stringContaining('field totals.sharedTriples: 5 is not the sum'),
      }),
    );
  });
});

describe('readBulkManifest', () => {
  it('io for a missing manifest, parse naming it for one that is not JSON', async () => {
    const dir = tempDir('bulk-manifest-');
    await expect(readBulkManifest(join(dir, 'none.json'))).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining('none.json'),
    });
    writeFileSync(join(dir, 'bad.json'), '{"shards": [');
    await expect(readBulkManifest(join(dir, 'bad.json'))).rejects.toMatchObject({
      code: 'parse',
      message: expect.stringContaining('bad.json'),
    });
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ shards: [shard(1, 7)] }));
    expect((await readBulkManifest(join(dir, 'ok.json'))).shards[0]!.path).toBe(join(dir, 'dump.00001.nt.gz'));
  });
});

describe('shardsOfFiles', () => {
  const m = bulkManifestOf({ shards: [shard(1, 30), shard(2, 12)] }, '/d/m.json');

  it("no files: the manifest's shards; files: their shards, matched by path or by name", () => {
    expect(shardsOfFiles([], m)).toEqual(m.shards);
    expect(shardsOfFiles(['/elsewhere/dump.00002.nt.gz', '/d/dump.00001.nt.gz'], m).map((s) => s.triples)).toEqual([
      12, 30,
    ]);
  });

  it('a file the manifest does not list, a shard given twice or not given: usage naming it', () => {
    expect(() => shardsOfFiles(['/d/dump.00001.nt.gz', '/d/other.nt'], m)).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('/d/other.nt is not a shard') }),
    );
    expect(() => shardsOfFiles(['/d/dump.00001.nt.gz', '/x/dump.00001.nt.gz'], m)).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('given twice') }),
    );
    expect(() => shardsOfFiles(['/d/dump.00001.nt.gz'], m)).toThrow(
      expect.objectContaining({ code: 'usage', message: expect.stringContaining('dump.00002.nt.gz') }),
    );
  });
});

describe('expectedRange', () => {
  it('exact (the sum, on top of the count before) when the manifest gives no sharedTriples', () => {
    const m = bulkManifestOf({ shards: [shard(1, 30), shard(2, 12)] }, '/d/m.json');
    expect(expectedRange(m.shards, 5)).toEqual({ min: 47, max: 47, exact: true });
  });

  it("a range when it does: shared entities' triples may all be repeats, at least one of them is there", () => {
    const m = bulkManifestOf(
      { shards: [shard(1, 30, { sharedTriples: 4 }), shard(2, 12, { sharedTriples: 6 })] },
      '/d/m.json',
    );
    expect(expectedRange(m.shards, 0)).toEqual({ min: 33, max: 42, exact: false });
  });
});

describe('isSharedTriple', () => {
  const { namedNode, blankNode, literal, quad } = DataFactory;
  const journal = namedNode('https://w3id.org/scholarly-rdf/journal/10');
  const person = namedNode('https://orcid.org/0000-0002-1825-0097');
  const work = namedNode('https://doi.org/10.1000/x');
  const name = namedNode('http://schema.org/name');

  it("a statement about a shared entity without a blank node; a record's own node or a blank node is not", () => {
    const quads = [
      quad(journal, name, literal('J')),
      quad(person, name, literal('P'), namedNode('https://w3id.org/scholarly-rdf/record/10.1000/x')),
      quad(journal, name, blankNode('b')),
      quad(work, name, literal('W')),
      quad(blankNode('c'), name, journal),
    ];
    expect(quads.map(isSharedTriple)).toEqual([true, true, false, false, false]);
    expect(countSharedTriples(quads)).toBe(2);
  });
});
