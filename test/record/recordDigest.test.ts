import { describe, expect, it } from 'vitest';
import { emptyRecord } from '../../src/record/normalizeRecord.js';
import { TEXTS, recordDigest } from '../../src/record/recordDigest.js';
import type { ScholarlyRecord } from '../../src/record/types.js';

/** A record whose text fields ({@link TEXTS}) hold `values`, in their order. */
function withTexts(values: readonly (string | undefined)[]): ScholarlyRecord {
  const record = emptyRecord();
  TEXTS.forEach((key, i) => (record[key] = values[i]));
  return record;
}

describe('recordDigest', () => {
  const values = TEXTS.map((_, i) => `value ${i}`);

  it('reads every text field: a change of any one changes the digest', () => {
    const digest = recordDigest(withTexts(values));
    const seen = new Set([digest.join()]);
    for (let i = 0; i < TEXTS.length; i++) {
      for (const other of ['changed', undefined, '']) {
        const changed = values.slice();
        changed[i] = other;
        const d = recordDigest(withTexts(changed)).join();
        expect(seen.has(d), `${TEXTS[i]} = ${other}`).toBe(false);
        seen.add(d);
      }
    }
  });

  it('tells the fields apart: one value in two fields, or two fields’ values swapped, differ', () => {
    const digest = recordDigest(withTexts(values)).join();
    for (let i = 0; i + 1 < TEXTS.length; i++) {
      const swapped = values.slice();
      [swapped[i], swapped[i + 1]] = [values[i + 1], values[i]];
      expect(recordDigest(withTexts(swapped)).join(), TEXTS[i]).not.toBe(digest);
    }
    const once = TEXTS.map((_, i) => recordDigest(withTexts(TEXTS.map((__, j) => (j === i ? 'x' : undefined)))).join());
    expect(new Set(once).size).toBe(TEXTS.length);
  });

  it('is the same for two records that say the same', () => {
    expect(recordDigest(withTexts(values))).toEqual(recordDigest(withTexts(values.map((v) => `${v}`))));
  });
});
