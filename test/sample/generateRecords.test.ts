import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateRecords, isbn13CheckDigit, orcidCheckDigit } from '../../src/sample/generateRecords.js';
import { sampleCataloguePath, sampleCatalogueText } from '../../src/sample/sampleCatalogue.js';

const records = [...generateRecords(2000, 1)] as unknown as Record<string, unknown>[];

function allScalarsAreStrings(value: unknown): boolean {
  if (value === null) return false;
  if (Array.isArray(value)) return value.every(allScalarsAreStrings);
  if (typeof value === 'object') return Object.values(value as object).every(allScalarsAreStrings);
  return typeof value === 'string';
}

function isValidOrcid(id: string): boolean {
  const m = /^(\d{4})-(\d{4})-(\d{4})-(\d{3})([\dX])$/.exec(id);
  if (!m) return false;
  return orcidCheckDigit(m.slice(1, 5).join('')) === m[5];
}

function isValidIsbn13(isbn: string): boolean {
  const digits = isbn.replace(/-/g, '');
  return /^\d{13}$/.test(digits) && isbn13CheckDigit(digits) === digits[12];
}

describe('generateRecords', () => {
  it('is deterministic and independent of the count (prefix property)', () => {
    const a = [...generateRecords(50, 9)];
    const b = [...generateRecords(80, 9)].slice(0, 50);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify([...generateRecords(5, 10)])).not.toBe(JSON.stringify([...generateRecords(5, 9)]));
  });

  it('sends every scalar as a string, as the service does', () => {
    for (const r of records) expect(allScalarsAreStrings(r)).toBe(true);
  });

  it('gives unique DOIs and identifiers of the form doi:<doi>', () => {
    const dois = new Set(records.map((r) => r.doi));
    expect(dois.size).toBe(records.length);
    for (const r of records) expect(r.identifier).toBe(`doi:${r.doi as string}`);
    expect(records.some((r) => String(r.doi).startsWith('10.1186/'))).toBe(true);
    expect(records.some((r) => /[();]/.test(String(r.doi)))).toBe(true);
    expect(records.some((r) => /[<>]/.test(String(r.doi)))).toBe(true);
  });

  it('covers articles, chapters and protocols with matching publication types', () => {
    const kinds = new Map<string, Set<string>>();
    for (const r of records) {
      const set = kinds.get(r.contentType as string) ?? new Set();
      set.add(r.publicationType as string);
      kinds.set(r.contentType as string, set);
    }
    expect([...kinds.keys()].sort()).toEqual(['Article', 'Chapter', 'Protocol']);
    expect([...kinds.get('Article')!]).toEqual(['Journal']);
    expect([...kinds.get('Chapter')!]).toEqual(['Book']);
    for (const r of records.filter((x) => x.contentType !== 'Article')) {
      expect(isValidIsbn13(r.printIsbn as string)).toBe(true);
      expect(isValidIsbn13(r.electronicIsbn as string)).toBe(true);
    }
  });

  it('covers every page form', () => {
    const has = (pred: (r: Record<string, unknown>) => boolean) => expect(records.some(pred)).toBe(true);
    has((r) => /^\d+$/.test(r.startingPage as string) && /^\d+$/.test((r.endingPage as string) ?? ''));
    has((r) => /^\d+-\d+$/.test(r.startingPage as string) && r.endingPage === '');
    has((r) => /^\d+-\d+, \d+$/.test(r.startingPage as string));
    has((r) => /^e\d+$/.test(r.startingPage as string) && r.endingPage === '');
    has((r) => /^S\d+$/.test(r.startingPage as string));
    has((r) => r.startingPage === '' && r.endingPage === '');
    has((r) => r.startingPage === '1' && !('endingPage' in r));
  });

  it('has creators with valid ORCIDs and without, in "Family, Given" form', () => {
    const creators = records.flatMap((r) => r.creators as { creator: string; ORCID?: string }[]);
    expect(creators.some((c) => c.ORCID === undefined)).toBe(true);
    const withOrcid = creators.filter((c) => c.ORCID !== undefined);
    expect(withOrcid.length).toBeGreaterThan(100);
    for (const c of withOrcid) expect(isValidOrcid(c.ORCID!)).toBe(true);
    for (const c of creators) expect(c.creator).toMatch(/^[^,]+, .+$/);
    expect(creators.some((c) => /[^\x00-\x7f]/.test(c.creator))).toBe(true);
  });

  it('has the quirks of the real service', () => {
    const has = (pred: (r: Record<string, unknown>) => boolean) => expect(records.some(pred)).toBe(true);
    has((r) => typeof r.abstract === 'string' && /^Abstract[A-Z]/.test(r.abstract));
    has((r) => typeof r.abstract === 'object' && r.abstract !== null && 'h1' in r.abstract);
    has((r) => r.abstract === '');
    has((r) => 'journalid' in r && 'issuetype' in r && 'openAccess' in r);
    has((r) => typeof r.genre === 'string');
    has((r) => Array.isArray(r.genre));
    has((r) => new Set(r.subjects as string[]).size < (r.subjects as string[]).length);
    has((r) => (r.url as unknown[]).length === 3);
    has((r) => (r.url as unknown[]).length === 1);
    has((r) => /[^\x00-\x7f]/.test(r.title as string));
    const languages = new Set(records.map((r) => r.language));
    for (const l of ['en', 'de', 'fr', 'es', 'ja', '']) expect(languages.has(l)).toBe(true);
    for (const r of records) {
      expect(r.publicationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.onlineDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.coverDate).toMatch(/^\d{4}-\d{2}$/);
      expect(r.onlineDate! <= r.publicationDate!).toBe(true);
    }
  });

  it('adds catalogue-only countries only when asked', () => {
    expect(records.every((r) => !('_countries' in r))).toBe(true);
    const withCountries = [...generateRecords(20, 1, { catalogueFields: true })];
    expect(withCountries.every((r) => Array.isArray(r._countries))).toBe(true);
  });
});

describe('bundled sample catalogue', () => {
  it('equals the generator output (run `npm run sample` after changing the generator)', () => {
    expect(readFileSync(sampleCataloguePath(), 'utf8')).toBe(sampleCatalogueText());
  });
});
