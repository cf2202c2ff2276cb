import { describe, expect, it } from 'vitest';
import { DoiContents } from '../../src/pipeline/DoiContents.js';
import { RecordSink } from '../../src/pipeline/RecordSink.js';
import type { Rejection } from '../../src/pipeline/Rejection.js';
import { normalizeRecord } from '../../src/record/normalizeRecord.js';
import { recordDigest } from '../../src/record/recordDigest.js';
import type { ReadItem } from '../../src/record/readRecords.js';
import { serializerFor } from '../../src/serialize/serializers.js';

const digest = (raw: Record<string, unknown>) => recordDigest(normalizeRecord(raw));
const base = {
  doi: '10.1007/s11306-017-1242-7',
  title: 'Metabolomics of a thing',
  publicationName: 'Metabolomics',
  journalId: '11306',
  genre: ['OriginalPaper'],
  creators: [{ creator: 'Müller, Anna' }],
  abstract: 'AbstractWe measured things.',
  url: [{ format: '', platform: '', value: 'http://dx.doi.org/10.1007/s11306-017-1242-7' }],
};

describe('recordDigest: what a record says, whatever shape the service sent it in', () => {
  it('is equal for the spellings and shapes the normaliser makes one, the DOI in any case, and unknown fields', () => {
    const d = digest(base);
    // journalid (2015), genre a string, the DOI in capitals, identifier given, a field the mapper does not know.
    const { journalId: _j, genre: _g, ...rest } = base;
    expect(digest({ ...rest, journalid: '11306', genre: 'OriginalPaper' })).toEqual(d);
    expect(digest({ ...base, doi: base.doi.toUpperCase(), identifier: `doi:${base.doi}` })).toEqual(d);
    expect(digest({ ...base, somethingNew: 'x' })).toEqual(d);
    expect(digest({ ...base, title: '  Metabolomics of   a thing ' })).toEqual(d);
  });

  it.each([
    ['title', { title: 'Another title' }],
    ['a page', { startingPage: '3' }],
    ['an author', { creators: [{ creator: 'Müller, Anna' }, { creator: 'Gamma, Gil' }] }],
    ['the author order', { creators: [{ creator: 'Gamma, Gil' }, { creator: 'Müller, Anna' }] }],
    ['the abstract', { abstract: 'AbstractWe measured other things.' }],
    ['a link', { url: [{ format: 'pdf', platform: '', value: 'http://example.org/x.pdf' }] }],
    ['a value moved to another field', { title: undefined, journalTitle: 'Metabolomics of a thing' }],
  ])('differs when %s differs', (_what, change) => {
    expect(digest({ ...base, ...change })).not.toEqual(digest(base));
  });
});

describe('DoiContents', () => {
  const place = (index: number) => ({ source: 'in.jsonl', index, line: index });

  it('keeps the first record of a DOI: a copy is named with it, a different content is a conflict naming both', () => {
    const c = new DoiContents();
    expect(c.meet('10.1/a', [1, 2], place(1))).toBeUndefined();
    expect(c.meet('10.1/b', [3, 4], { source: 'other.json', index: 1 })).toBeUndefined();
    expect(c.meet('10.1/A', [1, 2], place(5))).toEqual({ first: place(1) });
    const later = c.meet('10.1/b', [3, 5], place(9));
    expect(later?.first).toEqual({ source: 'other.json', index: 1 });
    expect(later?.conflict?.kind).toBe('doi-contents');
    expect(later?.conflict?.note).toBe(
      'conflict: DOI 10.1/b has different content in other.json#1 and in.jsonl#9 (line 9) (the first is written, the second left out as a duplicate)',
    );
    // A copy dropped elsewhere (an export's harvest) is compared, never added.
    expect(c.dropped('10.1/c', [0, 0], 'dropped')).toBeUndefined();
    expect(c.meet('10.1/c', [7, 7], place(10))).toBeUndefined();
    expect(c.dropped('10.1/a', [1, 3], 'page 2')?.conflict?.note).toContain('in in.jsonl#1 (line 1) and page 2');
  });

  it('keeps every DOI and its first record as the table grows', () => {
    const c = new DoiContents();
    for (let i = 1; i <= 5000; i++) expect(c.meet(`10.1/${i}`, [i, i * 7], place(i))).toBeUndefined();
    for (let i = 1; i <= 5000; i += 97) {
      expect(c.meet(`10.1/${i}`, [i, i * 7], place(i + 6000))).toEqual({ first: place(i) });
      expect(c.meet(`10.1/${i}`, [i, 0], place(i + 7000))?.conflict?.note).toContain(`in.jsonl#${i} (line ${i})`);
    }
  });
});

describe('RecordSink: a DOI met again', () => {
  it('rejects both kinds as duplicate-doi, naming the first; the one with other content carries the conflict', async () => {
    const rejected: Rejection[] = [];
    const sink = new RecordSink(serializerFor('ntriples').createWriter(), { onRejected: (r) => void rejected.push(r) });
    const item = (raw: unknown, index: number): ReadItem => ({
      kind: 'record',
      raw,
      source: 'in.jsonl',
      index,
      line: index,
    });
    await sink.take([
      item(base, 1),
      item({ ...base, doi: base.doi.toUpperCase(), journalid: '11306', journalId: undefined }, 2),
      item({ ...base, title: 'Corrected title' }, 3),
    ]);
    expect(rejected.map((r) => [r.index, r.code])).toEqual([
      [2, 'duplicate-doi'],
      [3, 'duplicate-doi'],
    ]);
    expect(rejected[0]!.conflict).toBeUndefined();
    expect(rejected[0]!.reason).toContain('(in.jsonl#1 (line 1)), with the same content');
    expect(rejected[1]!.reason).toContain('with different content');
    expect(rejected[1]!.conflict).toBe(
      `conflict: DOI ${base.doi} has different content in in.jsonl#1 (line 1) and in.jsonl#3 (line 3) (the first is written, the second left out as a duplicate)`,
    );
  });
});
