import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShardNaming } from '../../src/output/ShardNaming.js';

describe('ShardNaming', () => {
  it('puts the number before the format extension and .gz; the manifest beside', () => {
    const n = new ShardNaming(join('out', 'dump.nq.gz'), 'nquads');
    expect([n.path(1), n.path(12), n.partialPath(3), n.manifestPath]).toEqual([
      join('out', 'dump.00001.nq.gz'),
      join('out', 'dump.00012.nq.gz'),
      join('out', 'dump.00003.nq.gz.partial'),
      join('out', 'dump.manifest.json'),
    ]);
    expect(n.fileName(123456)).toBe('dump.123456.nq.gz');
  });

  it("adds the format's extension to a name without one", () => {
    expect(new ShardNaming('dump', 'ntriples').fileName(1)).toBe('dump.00001.nt');
    expect(new ShardNaming('dump.v2', 'turtle').fileName(2)).toBe('dump.v2.00002.ttl');
    expect(new ShardNaming('d.jsonld', 'jsonld', true).fileName(1)).toBe('d.00001.jsonld.gz');
  });

  it('knows its shards, finished or partial, and nothing else', () => {
    const n = new ShardNaming('dump.ttl', 'turtle');
    expect(['dump.00001.ttl', 'dump.00002.ttl.partial', 'dump.123456.ttl'].every((f) => n.isShardName(f))).toBe(true);
    expect(
      ['dump.ttl', 'dump.manifest.json', 'dump.0001.ttl', 'dump.00001.nt', 'other.00001.ttl', 'dump.00001.ttl.gz'].some(
        (f) => n.isShardName(f),
      ),
    ).toBe(false);
  });
});
