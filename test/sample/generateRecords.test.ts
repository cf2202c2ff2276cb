import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isValidOrcid } from '../../src/record/orcid.js';
import { generateRecords, ORCID_POPULATION, orcidPerson } from '../../src/sample/generateRecords.js';
import { sampleCataloguePath, sampleCatalogueText } from '../../src/sample/sampleCatalogue.js';

type Rec = Record<string, unknown>;
type Creator = { creator: string; ORCID?: string };

const records = [...generateRecords(2000, 1)] as unknown as Rec[];
/** Another seed, far into the sequence: entities must agree with the first batch. */
const other = [...generateRecords(2000, 7, { offset: 500_000 })] as unknown as Rec[];
const both = [...records, ...other];

function allScalarsAreStrings(value: unknown): boolean {
  if (value === null) return false;
  if (Array.isArray(value)) return value.every(allScalarsAreStrings);
  if (typeof value === 'object') return Object.values(value as object).every(allScalarsAreStrings);
  return typeof value === 'string';
}

/** ISO 3297: `NNNN-NNNC`, weights 8..2 over the seven digits, modulus 11, 10 written X. */
function isValidIssn(issn: string): boolean {
  if (!/^\d{4}-\d{3}[\dX]$/.test(issn)) return false;
  const d = issn.replace('-', '');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(d[i]) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return d[7] === (check === 10 ? 'X' : String(check));
}

/** ISBN-13 hyphenated in five groups (`978-3-030-12345-6`), weights 1 and 3, modulus 10. */
function isValidIsbn13(isbn: string): boolean {
  if (!/^97[89]-\d{1,5}-\d{1,7}-\d{1,6}-\d$/.test(isbn)) return false;
  const d = isbn.replace(/-/g, '');
  if (d.length !== 13) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

const journalIdOf = (r: Rec) => String(r.journalId ?? r.journalid ?? '');
const issueTypeOf = (r: Rec) => String(r.issueType ?? r.issuetype ?? '');

/** Asserts that `key` -> `value` is a function over `items` (every key maps to one value); returns the map. */
function expectFunction<T>(
  items: T[],
  key: (x: T) => string,
  value: (x: T) => unknown,
  what: string,
): Map<string, string> {
  const seen = new Map<string, string>();
  for (const x of items) {
    const k = key(x);
    if (k === '') continue;
    const v = JSON.stringify(value(x));
    const before = seen.get(k);
    if (before !== undefined) expect(v, `${what}: ${k}`).toBe(before);
    else seen.set(k, v);
  }
  return seen;
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

describe('generateRecords: identifiers', () => {
  it('writes only ISSNs with a correct ISO 3297 check digit (issn, eIssn)', () => {
    let n = 0;
    for (const r of both) {
      for (const key of ['issn', 'eIssn'] as const) {
        const v = r[key] as string;
        if (v === '') continue;
        n++;
        expect(isValidIssn(v), `${key} ${v} of ${r.doi as string}`).toBe(true);
      }
    }
    expect(n).toBeGreaterThan(both.length);
  });

  it('writes only hyphenated ISBN-13s with a correct check digit (printIsbn, electronicIsbn, isbn)', () => {
    const books = both.filter((r) => r.contentType !== 'Article');
    expect(books.length).toBeGreaterThan(500);
    for (const r of both) {
      for (const key of ['printIsbn', 'electronicIsbn', 'isbn'] as const) {
        if (r.contentType === 'Article') expect(key in r).toBe(false);
        else expect(isValidIsbn13(r[key] as string), `${key} ${r[key] as string} of ${r.doi as string}`).toBe(true);
      }
    }
  });

  it('writes only ORCIDs with a correct ISO 7064 MOD 11-2 check character, in the blocks the registry issues', () => {
    const orcids = both.flatMap((r) =>
      (r.creators as Creator[]).flatMap((c) => (c.ORCID === undefined ? [] : [c.ORCID])),
    );
    expect(orcids.length).toBeGreaterThan(1000);
    for (const id of orcids) {
      expect(isValidOrcid(id), id).toBe(true);
      expect(id).toMatch(/^0000-000[1-3]-\d{4}-\d{3}[\dX]$/);
    }
  });

  it('gives each person of the ORCID population its own ORCID (spot check of the bijection)', () => {
    const ids = new Set<string>();
    for (const k of [0, 1, 2, 49, 50, 999, 123_456, ORCID_POPULATION - 2, ORCID_POPULATION - 1]) {
      const p = orcidPerson(k);
      expect(isValidOrcid(p.ORCID)).toBe(true);
      expect(orcidPerson(k)).toEqual(p);
      ids.add(p.ORCID.slice(10));
    }
    expect(ids.size).toBe(9);
  });
});

describe('generateRecords: consistent entities', () => {
  const articles = both.filter((r) => r.contentType === 'Article');
  const books = both.filter((r) => r.contentType !== 'Article');

  it('journal id -> (name, print ISSN, electronic ISSN, publisher) is a function, and every journal has one', () => {
    for (const r of articles) expect(journalIdOf(r)).not.toBe('');
    const journals = expectFunction(
      articles,
      journalIdOf,
      (r) => [r.publicationName, r.issn, r.eIssn, r.publisher],
      'journal',
    );
    expect(journals.size).toBeGreaterThan(20);
    // and back: a name or an ISSN names one journal id
    expectFunction(articles, (r) => r.publicationName as string, journalIdOf, 'name -> journal id');
    expectFunction(articles, (r) => r.issn as string, journalIdOf, 'issn -> journal id');
    expectFunction(articles, (r) => r.eIssn as string, journalIdOf, 'eIssn -> journal id');
  });

  it("publisherName is the journal's imprint or, in a few records, empty; some imprints differ from the publisher", () => {
    const imprints = expectFunction(
      articles.filter((r) => r.publisherName !== ''),
      journalIdOf,
      (r) => r.publisherName,
      'imprint',
    );
    const empty = articles.filter((r) => r.publisherName === '').length;
    expect(empty / articles.length).toBeGreaterThan(0.05);
    expect(empty / articles.length).toBeLessThan(0.15);
    const pairs = new Set(
      both.filter((r) => r.publisherName !== '').map((r) => `${r.publisher as string} / ${r.publisherName as string}`),
    );
    expect(pairs).toContain('Springer / BioMed Central');
    expect(pairs).toContain('Springer / Springer');
    expect(pairs).toContain('Springer / Springer Medizin');
    expect(pairs).toContain('Springer / Springer International Publishing');
    expect(imprints.size).toBeGreaterThan(20);
    for (const r of both.filter((x) => String(x.doi).startsWith('10.1186/'))) {
      expect([r.publisher, r.publisherName]).toEqual(['Springer', r.publisherName === '' ? '' : 'BioMed Central']);
    }
  });

  it('a volume belongs to one year, an issue has one type, online-first articles have neither', () => {
    const dated = articles.filter((r) => r.volume !== '');
    expect(dated.length).toBeGreaterThan(articles.length * 0.8);
    expectFunction(
      dated,
      (r) => `${journalIdOf(r)} ${r.volume as string}`,
      (r) => String(r.publicationDate).slice(0, 4),
      'volume -> year',
    );
    const issues = expectFunction(
      dated.filter((r) => r.number !== ''),
      (r) => `${journalIdOf(r)} ${r.volume as string} ${r.number as string}`,
      issueTypeOf,
      'issue -> issueType',
    );
    expect([...issues.values()]).toContain('"Supplement"');
    expect([...issues.values()]).toContain('"Regular"');
    for (const r of articles.filter((x) => x.volume === '')) expect([r.number, issueTypeOf(r)]).toEqual(['', '']);
    expect(articles.some((r) => r.volume === '')).toBe(true);
    expect(articles.some((r) => r.volume !== '' && r.number === '')).toBe(true);
  });

  it('book ISBN -> (title, other ISBNs, publisher, series ISSNs, series volume) is a function', () => {
    for (const r of books) expect(r.isbn).toBe(r.electronicIsbn);
    const bookSets = expectFunction(
      books,
      (r) => r.electronicIsbn as string,
      (r) => [r.publicationName, r.printIsbn, r.publisher, r.publisherName, r.issn, r.eIssn, r.volume],
      'book',
    );
    expect(bookSets.size).toBe(8);
    expectFunction(
      books,
      (r) => r.printIsbn as string,
      (r) => r.electronicIsbn,
      'print -> electronic ISBN',
    );
    expectFunction(
      books,
      (r) => r.publicationName as string,
      (r) => r.electronicIsbn,
      'title -> ISBN',
    );
    expect(books.filter((r) => r.volume !== '').every((r) => r.issn !== '' && r.eIssn !== '')).toBe(true);
  });

  it('an ORCID always names the same person, across records and seeds; some persons recur, none twice in one record', () => {
    const creators = both.flatMap((r) => r.creators as Creator[]).filter((c) => c.ORCID !== undefined);
    expectFunction(
      creators,
      (c) => c.ORCID!,
      (c) => c.creator,
      'ORCID -> name',
    );
    const works = new Map<string, number>();
    for (const c of creators) works.set(c.ORCID!, (works.get(c.ORCID!) ?? 0) + 1);
    expect([...works.values()].filter((n) => n > 1).length).toBeGreaterThan(100);
    expect(Math.max(...works.values())).toBeGreaterThan(10);
    expect(works.size).toBeGreaterThan(creators.length / 4);
    for (const r of both) {
      const ids = (r.creators as Creator[]).flatMap((c) => (c.ORCID === undefined ? [] : [c.ORCID]));
      expect(new Set(ids).size).toBe(ids.length);
    }
    // the two batches (seeds 1 and 7) share persons
    const first = new Set((records.flatMap((r) => r.creators) as Creator[]).map((c) => c.ORCID).filter(Boolean));
    expect(
      (other.flatMap((r) => r.creators) as Creator[]).some((c) => c.ORCID !== undefined && first.has(c.ORCID)),
    ).toBe(true);
  });
});

describe('bundled sample catalogue', () => {
  it('equals the generator output (run `npm run sample` after changing the generator)', () => {
    expect(readFileSync(sampleCataloguePath(), 'utf8')).toBe(sampleCatalogueText());
  });
});
