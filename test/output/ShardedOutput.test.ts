import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory } from 'n3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShardNaming } from '../../src/output/ShardNaming.js';
import { ShardedOutput, type ShardedOutputOptions } from '../../src/output/ShardedOutput.js';
import { serializerFor } from '../../src/serialize/serializers.js';

const { namedNode, literal, quad } = DataFactory;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sharded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const record = (i: number) => [
  quad(namedNode(`https://doi.org/10.1/${i}`), namedNode('http://schema.org/name'), literal(`record ${i}`)),
];
const bad = [
  quad(namedNode('https://doi.org/10.1/bad'), namedNode('http://schema.org/name'), literal('x', 'not a tag!')),
];

function output(extra: Partial<ShardedOutputOptions> = {}): ShardedOutput {
  return ShardedOutput.create({
    naming: new ShardNaming(join(dir, 'd.jsonld'), 'jsonld'),
    writer: serializerFor('jsonld').createWriter(),
    limits: { records: 2 },
    gzip: false,
    ...extra,
  });
}

async function write(out: ShardedOutput, records: number[]): Promise<void> {
  for (const i of records) {
    const quads = record(i);
    out.writer.write(quads);
    out.note(quads, `10.1/${i}`);
  }
  await out.flush();
}

describe('ShardedOutput', () => {
  it("counts each shard's statements and those about shared entities (sharedTriples)", async () => {
    const out = output();
    const journal = namedNode('https://w3id.org/scholarly-rdf/journal/42');
    for (const i of [1, 2, 3]) {
      const quads = [
        ...record(i),
        quad(journal, namedNode('http://schema.org/name'), literal('J')),
        quad(journal, namedNode('http://schema.org/issn'), literal(`${i}`)),
      ];
      out.writer.write(quads);
      out.note(quads, `10.1/${i}`);
    }
    await out.flush();
    const shards = await out.finish();
    expect(shards.map((s) => [s.triples, s.sharedTriples])).toEqual([
      [6, 4],
      [3, 2],
    ]);
  });

  it('writes each JSON-LD shard as a document of its own records (no separator carried over)', async () => {
    const out = output();
    await write(out, [1, 2, 3, 4, 5]);
    const shards = await out.finish();
    await out.place();
    expect(shards.map((s) => [s.file, s.records, s.firstDoi, s.lastDoi])).toEqual([
      ['d.00001.jsonld', 2, '10.1/1', '10.1/2'],
      ['d.00002.jsonld', 2, '10.1/3', '10.1/4'],
      ['d.00003.jsonld', 1, '10.1/5', '10.1/5'],
    ]);
    for (const s of shards)
      expect((JSON.parse(readFileSync(join(dir, s.file), 'utf8')) as { '@graph': unknown[] })['@graph']).toHaveLength(
        s.records,
      );
  });

  it('does not open a shard for a record the format cannot carry', async () => {
    const out = output({
      naming: new ShardNaming(join(dir, 'd.rdf'), 'rdfxml'),
      writer: serializerFor('rdfxml').createWriter(),
    });
    await write(out, [1, 2]);
    expect(() => out.writer.write(bad)).toThrow();
    const shards = await out.finish();
    expect(shards.map((s) => s.records)).toEqual([2]);
  });

  it('leaves nothing but .partial files before place(), and nothing at all after discard()', async () => {
    const out = output();
    await write(out, [1, 2, 3]);
    await out.commit();
    expect(readdirSync(dir).sort()).toEqual(['d.00001.jsonld.partial', 'd.00002.jsonld.partial']);
    await out.discard();
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'd.00001.jsonld'))).toBe(false);
  });

  it('cuts by bytes before the record that would take a shard past the limit', async () => {
    const out = output({
      naming: new ShardNaming(join(dir, 'd.nt'), 'ntriples'),
      writer: serializerFor('ntriples').createWriter(),
      limits: { bytes: 200 },
    });
    await write(out, [1, 2, 3, 4, 5, 6]);
    const shards = await out.finish();
    expect(shards.every((s) => s.bytes <= 200)).toBe(true);
    expect(shards.reduce((n, s) => n + s.records, 0)).toBe(6);
    expect(shards.length).toBeGreaterThan(1);
  });
});
