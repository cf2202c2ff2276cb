import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/sample/generateRecords.js';
import { Catalogue } from '../../src/server/Catalogue.js';
import { INDEX_PART_NAMES, INDEX_PARTS } from '../../src/server/indexParts.js';
import { readCatalogueRange } from '../../src/server/readCatalogueFile.js';
import { tempDir } from '../helpers/tempDir.js';

const odd: Record<string, unknown>[] = [
  { doi: '10.1/ABC', _countries: ['France'], title: 'Hidden keys first', subjects: ['X', 'Y'] },
  {
    identifier: 'doi:10.1/abc',
    title: 'The same DOI, other case',
    keywords: ['kw one', 'kw two'],
    _subjects: ['Hidden Subject'],
  },
  {
    title: 'Ünïcode',
    creators: [{ creator: 'Ärger, Ölaf' }, 'Plain Name'],
    journalid: '77',
    openAccess: 'TRUE',
    coverDate: '1999-01',
    _countries: [],
  },
  {
    publicationType: 'Book',
    contentType: 'Chapter',
    printIsbn: '978-3-16-148410-0',
    eIssn: '1234-5678',
    onlineDate: '2001-02',
  },
  {},
];
const records = [
  ...generateRecords(900, 4, { catalogueFields: true }),
  ...odd,
  ...generateRecords(600, 5, { catalogueFields: true }),
];
const dir = tempDir('index-parts-');
const file = join(dir, 'c.jsonl');
writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');

/** Reads the file in `n` ranges as workers do, each sent as a worker sends it (structured clone), and joins them. */
function readInRanges(n: number): Catalogue {
  const bytes = readFileSync(file);
  const cuts = [0];
  for (let k = 1; k < n; k++) cuts.push(bytes.indexOf(10, Math.floor((bytes.length * k) / n)) + 1);
  cuts.push(bytes.length);
  return Catalogue.fromParts(cuts.slice(1).map((end, k) => structuredClone(readCatalogueRange(file, cuts[k]!, end))));
}

describe('INDEX_PARTS', () => {
  it('lists every part once, by name, the DOI hashes included', () => {
    expect(INDEX_PART_NAMES).toEqual(Object.keys(INDEX_PARTS));
    expect(INDEX_PART_NAMES).toContain('doiHashes');
    expect(new Set(INDEX_PART_NAMES).size).toBe(INDEX_PART_NAMES.length);
  });

  it('snapshots every part', () => {
    const snapshot = Catalogue.fromRecords(odd).snapshot();
    expect(Object.keys(snapshot)).toEqual(INDEX_PART_NAMES);
    expect(snapshot.doiHashes).toHaveLength(odd.length);
    expect((snapshot.doiHashes as number[])[0]).toBe((snapshot.doiHashes as number[])[1]);
    expect((snapshot.doiHashes as number[])[4]).toBe(0);
  });

  describe('the worker path (ranges read apart, sent and joined) and the in-process path build the same index', () => {
    const inProcess = Catalogue.fromFile(file).snapshot();
    const fromRecords = Catalogue.fromRecords(records).snapshot();
    const inRanges = readInRanges(3).snapshot();
    for (const name of INDEX_PART_NAMES) {
      it(name, () => {
        expect(inProcess[name]).toBeDefined();
        expect(inRanges[name], `${name}: ranges joined`).toEqual(inProcess[name]);
        expect(fromRecords[name], `${name}: from records`).toEqual(inProcess[name]);
      });
    }
  });

  it('finds the same records by DOI either way', () => {
    const a = Catalogue.fromFile(file);
    const b = readInRanges(4);
    for (const doi of ['10.1/abc', '10.1/ABC', String(records[17]!.doi), String(records[1200]!.doi)]) {
      expect([...b.valuePostings('doi', doi)], doi).toEqual([...a.valuePostings('doi', doi)]);
      expect(a.valuePostings('doi', doi).length, doi).toBeGreaterThan(0);
    }
    expect([...a.valuePostings('doi', '10.1/abc')]).toEqual([900, 901]);
  });
});
