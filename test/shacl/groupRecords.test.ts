import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { groupRecords, recordKeyOf } from '../../src/shacl/groupRecords.js';

const { namedNode, literal, quad, blankNode } = DataFactory;
const p = namedNode('http://schema.org/name');
const work = (doi: string) => namedNode(`https://doi.org/${doi}`);
const owned = (doi: string, local: string, base = 'https://w3id.org/scholarly-rdf/') => namedNode(`${base}doi/${doi}#${local}`);
const q = (s: RDF.Quad_Subject, v = 'x') => quad(s, p, literal(v));

async function collect(quads: RDF.Quad[], window?: number) {
  const out: { key: string | undefined; n: number }[] = [];
  const split: string[] = [];
  for await (const g of groupRecords(quads, { window, onSplitRecord: (k) => split.push(k) })) out.push({ key: g.key, n: g.quads.length });
  return { out, split };
}

describe('recordKeyOf', () => {
  it('gives the DOI of a work and of the nodes it owns, whatever the base', () => {
    expect(recordKeyOf(work('10.1007/s1-2'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/s1-2', 'author-1'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/s1-2', 'pdf', 'http://example.org/x/'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/a%28b%29', 'authors-2'))).toBe('10.1007/a%28b%29');
  });

  it('gives undefined for other subjects', () => {
    expect(recordKeyOf(namedNode('https://w3id.org/scholarly-rdf/dump/abc'))).toBeUndefined();
    expect(recordKeyOf(blankNode('b0'))).toBeUndefined();
  });
});

describe('groupRecords', () => {
  it('groups a record with the nodes it owns, in input order', async () => {
    const quads = [q(work('10.1/a')), q(owned('10.1/a', 'author-1')), q(work('10.1/a'), 'y'), q(work('10.1/b')), q(owned('10.1/b', 'pdf'))];
    const { out, split } = await collect(quads);
    expect(out).toEqual([{ key: '10.1/a', n: 3 }, { key: '10.1/b', n: 2 }]);
    expect(split).toEqual([]);
  });

  it('passes quads of no record on as their own group', async () => {
    const dump = namedNode('https://w3id.org/scholarly-rdf/dump/abc');
    const { out } = await collect([q(dump), q(work('10.1/a')), q(dump, 'y')]);
    expect(out).toEqual([{ key: '10.1/a', n: 1 }, { key: undefined, n: 2 }]);
  });

  it('keeps a window of open records and reports a record whose quads come back later', async () => {
    const quads = [q(work('10.1/a')), q(work('10.1/b')), q(owned('10.1/a', 'author-1')), q(work('10.1/c')), q(owned('10.1/a', 'author-2'))];
    const wide = await collect(quads, 4);
    expect(wide.out).toEqual([{ key: '10.1/a', n: 3 }, { key: '10.1/b', n: 1 }, { key: '10.1/c', n: 1 }]);
    const narrow = await collect(quads, 1);
    expect(narrow.split).toEqual(['10.1/a', '10.1/a']);
    expect(narrow.out.map((g) => g.key)).toEqual(['10.1/a', '10.1/b', '10.1/a', '10.1/c', '10.1/a']);
  });

  it('holds at most the window of records in memory', async () => {
    let open = 0;
    let maxOpen = 0;
    async function* many() {
      for (let i = 0; i < 2000; i++) {
        open++;
        maxOpen = Math.max(maxOpen, open);
        yield q(work(`10.1/${i}`));
        yield q(owned(`10.1/${i}`, 'author-1'));
      }
    }
    let groups = 0;
    for await (const g of groupRecords(many(), { window: 3 })) {
      groups++;
      open--;
      expect(g.quads).toHaveLength(2);
      expect(open).toBeLessThanOrEqual(4);
    }
    expect(groups).toBe(2000);
  });
});

describe('groupRecords and blank nodes', () => {
  it('gives a blank node\'s quads to the record that refers to it, before or after the reference, and the unclaimed ones in input order', async () => {
    const rel = namedNode('http://schema.org/author');
    const quads = [
      q(blankNode('early'), 'before its reference'), // Turtle's [ ... ] and ( ... ) come first
      quad(work('10.1/a'), rel, blankNode('early')),
      quad(work('10.1/a'), rel, blankNode('late')),
      q(blankNode('late'), 'after'),
      ...Array.from({ length: 5 }, (_, i) => q(blankNode(`free${i % 2}`), `free ${i}`)),
    ];
    const groups = [];
    for await (const g of groupRecords(quads, { maxOtherQuads: 100 })) groups.push(g);
    expect(groups.map((g) => g.key)).toEqual(['10.1/a', undefined]);
    expect(groups[0]!.quads).toHaveLength(4);
    expect(groups[1]!.quads.map((x) => x.object.value)).toEqual(['free 0', 'free 1', 'free 2', 'free 3', 'free 4']);
  });

  it('lets at most maxOtherQuads wait, then passes them on as quads of no record, none lost', async () => {
    const quads = Array.from({ length: 25 }, (_, i) => q(blankNode(`b${i % 3}`), `v${i}`));
    const groups = [];
    for await (const g of groupRecords(quads, { maxOtherQuads: 10 })) groups.push(g);
    expect(groups.every((g) => g.key === undefined)).toBe(true);
    expect(groups.flatMap((g) => g.quads.map((x) => x.object.value))).toEqual(quads.map((x) => x.object.value));
  });
});
