import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import {
  RecentKeys,
  groupRecords,
  isDescriptionIri,
  recordKeyOf,
  recordKeyOfIri,
} from '../../src/group/groupRecords.js';

const { namedNode, literal, quad, blankNode } = DataFactory;
const p = namedNode('http://schema.org/name');
const work = (doi: string) => namedNode(`https://doi.org/${doi}`);
const owned = (doi: string, local: string, base = 'https://w3id.org/scholarly-rdf/') =>
  namedNode(`${base}doi/${doi}#${local}`);
const q = (s: RDF.Quad_Subject, v = 'x') => quad(s, p, literal(v));

async function collect(quads: RDF.Quad[], window?: number) {
  const out: { key: string | undefined; n: number }[] = [];
  const split: string[] = [];
  for await (const g of groupRecords(quads, { window, onSplitRecord: (k) => split.push(k) }))
    out.push({ key: g.key, n: g.quads.length });
  return { out, split };
}

describe('recordKeyOf', () => {
  it('gives the DOI of a work and of the nodes it owns, whatever the base', () => {
    expect(recordKeyOf(work('10.1007/s1-2'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/s1-2', 'author-1'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/s1-2', 'pdf', 'http://example.org/x/'))).toBe('10.1007/s1-2');
    expect(recordKeyOf(owned('10.1007/a%28b%29', 'authors-2'))).toBe('10.1007/a%28b%29');
  });

  it('gives undefined for other subjects: shared entities, the dataset description, blank nodes', () => {
    expect(recordKeyOf(namedNode('https://w3id.org/scholarly-rdf/dump/abc'))).toBeUndefined();
    expect(recordKeyOf(namedNode('https://w3id.org/scholarly-rdf/journal/11306/volume/13'))).toBeUndefined();
    expect(recordKeyOf(namedNode('https://orcid.org/0000-0002-1825-0097'))).toBeUndefined();
    expect(recordKeyOf(blankNode('b0'))).toBeUndefined();
  });
});

describe('recordKeyOfIri', () => {
  it('finds the DOI of an owned node as /\\/doi\\/(10\\.[^#]+)#/ does, in IRIs built from its parts', () => {
    const parts = ['/doi/', '10.', '#', 'a', '/', 'doi', '10.5/x'];
    const owned = /\/doi\/(10\.[^#]+)#/;
    let checked = 0;
    // Every IRI of up to five parts after a base (that is not doi.org's).
    const grow = (iri: string, depth: number): void => {
      expect(recordKeyOfIri(iri), iri).toBe(owned.exec(iri)?.[1]);
      checked++;
      if (depth < 5) for (const part of parts) grow(iri + part, depth + 1);
    };
    grow('http://example.org', 0);
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('isDescriptionIri', () => {
  it("knows the dataset description's subjects, whatever the base, and no shared entity", () => {
    for (const iri of [
      'https://w3id.org/scholarly-rdf/dump/0123456789abcdef',
      'https://w3id.org/scholarly-rdf/dump/0123456789abcdef#export',
      'http://example.org/x/dump/abc#class-1',
    ]) {
      expect(isDescriptionIri(iri), iri).toBe(true);
    }
    for (const iri of [
      'https://w3id.org/scholarly-rdf/journal/11306',
      'https://w3id.org/scholarly-rdf/journal/dump/volume/3',
      'https://w3id.org/scholarly-rdf/publisher/springer',
      'https://orcid.org/0000-0002-1825-0097',
      'http://api.example.org/meta/v2/json',
    ]) {
      expect(isDescriptionIri(iri), iri).toBe(false);
    }
  });
});

describe('groupRecords', () => {
  it('groups a record with the nodes it owns, in input order', async () => {
    const quads = [
      q(work('10.1/a')),
      q(owned('10.1/a', 'author-1')),
      q(work('10.1/a'), 'y'),
      q(work('10.1/b')),
      q(owned('10.1/b', 'pdf')),
    ];
    const { out, split } = await collect(quads);
    expect(out).toEqual([
      { key: '10.1/a', n: 3 },
      { key: '10.1/b', n: 2 },
    ]);
    expect(split).toEqual([]);
  });

  it("puts a shared node's quads (a subject of no record: journal, publisher, ORCID person) with the record being read", async () => {
    const journal = namedNode('https://w3id.org/scholarly-rdf/journal/11306');
    const publisher = namedNode('https://w3id.org/scholarly-rdf/publisher/springer');
    const person = namedNode('https://orcid.org/0000-0002-1825-0097');
    // Each record writes the shared nodes it names among its own quads, as every output does.
    const quads = [
      q(work('10.1/a')),
      q(journal),
      q(owned('10.1/a', 'author-doe-jane')),
      q(publisher),
      q(work('10.1/a'), 'y'),
      q(work('10.1/b')),
      q(journal),
      q(person),
      q(publisher),
    ];
    const groups = [];
    for await (const g of groupRecords(quads)) groups.push(g);
    expect(groups.map((g) => [g.key, g.quads.map((x) => x.subject.value)])).toEqual([
      [
        '10.1/a',
        [
          'https://doi.org/10.1/a',
          journal.value,
          owned('10.1/a', 'author-doe-jane').value,
          publisher.value,
          'https://doi.org/10.1/a',
        ],
      ],
      ['10.1/b', ['https://doi.org/10.1/b', journal.value, person.value, publisher.value]],
    ]);
  });

  it('passes quads of no record before any record, and from the dataset description on, as their own group', async () => {
    const journal = namedNode('https://w3id.org/scholarly-rdf/journal/11306');
    const dump = namedNode('https://w3id.org/scholarly-rdf/dump/abc');
    const endpoint = namedNode('http://api.example.org/meta/v2/json');
    const quads = [
      q(journal, 'before any record'),
      q(work('10.1/a')),
      q(journal, 'of a'),
      // The description export appends after the last record: it ends the record being read ...
      q(dump),
      q(namedNode(`${dump.value}#export`)),
      // ... so that the subjects of no record after it are of no record too (here the service's notice on its endpoint).
      q(endpoint, 'notice'),
      q(journal, 'after the description'),
      // Until the next record.
      q(work('10.1/b')),
      q(journal, 'of b'),
    ];
    const groups = [];
    for await (const g of groupRecords(quads)) groups.push(g);
    expect(groups.map((g) => [g.key, g.quads.map((x) => x.object.value)])).toEqual([
      ['10.1/a', ['x', 'of a']],
      ['10.1/b', ['x', 'of b']],
      [undefined, ['before any record', 'x', 'x', 'notice', 'after the description']],
    ]);
  });

  it('keeps a window of open records and reports a record whose quads come back later', async () => {
    const quads = [
      q(work('10.1/a')),
      q(work('10.1/b')),
      q(owned('10.1/a', 'author-1')),
      q(work('10.1/c')),
      q(owned('10.1/a', 'author-2')),
    ];
    const wide = await collect(quads, 4);
    expect(wide.out).toEqual([
      { key: '10.1/a', n: 3 },
      { key: '10.1/b', n: 1 },
      { key: '10.1/c', n: 1 },
    ]);
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
  it("gives a blank node's quads to the record that refers to it, before or after the reference, and the unclaimed ones in input order", async () => {
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

describe('RecentKeys', () => {
  it('remembers the last 10,000 keys added, as a set that forgets its oldest key does', () => {
    // The same operations on a set that forgets `keys.values().next().value` (what RecordGrouper did): the same answers.
    const recent = new RecentKeys();
    const reference = new Set<string>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const answers: boolean[] = [];
    for (let i = 0; i < 60_000; i++) {
      // Mostly new keys, some of the recent ones again (split records), deleted or added.
      const key = `k${random(4) === 0 ? random(i + 1) : i}`;
      if (random(3) === 0) {
        const was = recent.delete(key);
        expect(was).toBe(reference.delete(key));
        answers.push(was);
      } else {
        recent.add(key);
        reference.add(key);
        if (reference.size > 10_000) reference.delete(reference.values().next().value as string);
      }
    }
    // Both answers occur: keys forgotten and keys remembered.
    expect(answers.filter(Boolean).length).toBeGreaterThan(1000);
    expect(answers.filter((a) => !a).length).toBeGreaterThan(1000);
  });
});
