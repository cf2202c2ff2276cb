import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DoiSet } from '../../src/record/DoiSet.js';

describe('DoiSet', () => {
  it('knows a DOI again whatever its case or padding (by its key, doiKey)', () => {
    const set = new DoiSet();
    expect(set.add('10.1000/ABC')).toBe(true);
    expect(set.add(' 10.1000/abc\n')).toBe(false);
    expect(set.has('10.1000/Abc')).toBe(true);
    expect(set.has('10.1000/abd')).toBe(false);
    expect(set.size).toBe(1);
  });

  it('knows a DOI again when it differs only by characters the normaliser removes or composes (NUL, U+FFFE, NFD)', () => {
    const set = new DoiSet();
    expect(set.add('10.1000/caf\u00E9')).toBe(true);
    expect(set.add('10.1000/caf\u00E9\u0000')).toBe(false);
    expect(set.add('10.1000/ca\uFFFEf\u00E9')).toBe(false);
    expect(set.has('10.1000/CAFE\u0301')).toBe(true);
    expect(set.add('10.1000/cafe')).toBe(true);
    expect(set.size).toBe(2);
  });

  it('grows past its capacity without losing a DOI', () => {
    const set = new DoiSet(4);
    for (let i = 0; i < 1000; i++) expect(set.add(`10.1/${i}`)).toBe(true);
    expect(set.size).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(set.has(`10.1/${i}`)).toBe(true);
    expect(set.has('10.1/1000')).toBe(false);
  });

  it('queues new entries only when asked, and loads them back into another set', () => {
    expect(new DoiSet().drainNew().length).toBe(0);
    const queued = new DoiSet(16, { queueNew: true });
    queued.add('10.1/a');
    queued.add('10.1/A');
    queued.add('10.1/b');
    const entries = queued.drainNew();
    expect(entries.length).toBe(16);
    // An entry is the first 8 bytes of the SHA-1 of the DOI's key: side files of earlier runs load as they are.
    expect(entries.subarray(0, 8)).toEqual(createHash('sha1').update('10.1/a').digest().subarray(0, 8));
    expect(queued.drainNew().length).toBe(0);
    const resumed = new DoiSet(16, { stable: true });
    resumed.load(Buffer.concat([entries, Buffer.from([1, 2, 3])]));
    expect(resumed.size).toBe(2);
    expect(resumed.add('10.1/B')).toBe(false);
    expect(resumed.add('10.1/c')).toBe(true);
  });

  it('refuses to load a side file into a set of fast hashes (its entries would never match)', () => {
    expect(() => new DoiSet().load(Buffer.alloc(8, 1))).toThrow(/stable/);
  });

  it('gives 300,000 DOIs of one prefix 300,000 distinct hashes in both kinds of set, and knows each again', () => {
    for (const stable of [false, true]) {
      const set = new DoiSet(1024, { stable });
      // counted, not an expect per DOI (600,000 expects took a minute of a loaded machine)
      const refused: number[] = [];
      for (let i = 0; i < 300_000; i++)
        if (!set.add(`10.1371/journal.pone.${i.toString().padStart(7, '0')}`)) refused.push(i);
      expect(refused).toEqual([]);
      expect(set.size).toBe(300_000);
      expect(set.has('10.1371/JOURNAL.PONE.0000000')).toBe(true);
      expect(set.has('10.1371/journal.pone.0300000')).toBe(false);
    }
  });
});
