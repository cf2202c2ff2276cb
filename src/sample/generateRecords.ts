import { orcidCheckCharacter } from '../record/orcid.js';
import type { ApiCreator, ApiRecordV2, ApiUrl } from '../record/types.js';
import { makeVenue } from './makeVenue.js';
import { pad } from './pad.js';
import { SeededRandom, mixSeed } from './SeededRandom.js';
import {
  ABSTRACT_HEADINGS,
  ABSTRACT_SENTENCES,
  COUNTRIES,
  FAMILY_NAMES,
  GIVEN_NAMES,
  KEYWORDS,
  TITLE_PARTS,
  TOPICAL_COLLECTIONS,
} from './samplePools.js';

/** Options of {@link generateRecords}. */
export interface GenerateRecordsOptions {
  /**
   * Adds the catalogue-only key `_countries` (affiliation countries, the
   * `country` facet of `serve`) to every record. `serve` never sends keys
   * that start with `_`. Defaults to false.
   */
  catalogueFields?: boolean;
  /** Index of the first record (records are independent of each other). Defaults to 0. */
  offset?: number;
}

/** A generated record: the service's shape plus, on request, catalogue-only keys. */
export type GeneratedRecord = ApiRecordV2 & { keyword: string[]; _countries?: string[] };

/**
 * Generates `count` deterministic, realistic records in the service's own
 * record shape (seed §2.3: every scalar a string), the way the real service
 * sends them, quirks included. Record `i` depends only on `seed` and `i`, so
 * `generateRecords(300)` is a prefix of `generateRecords(1_000_000)`.
 *
 * What the catalogue covers (each in a few percent of the records or more):
 * articles, chapters and protocols (`contentType` Article/Chapter/Protocol,
 * `publicationType` Journal/Book); split pages; unsplit page ranges in
 * `startingPage` only, or free text such as `"1-6, 9"`; article numbers
 * (`e1234`, `S15`) with an empty `endingPage`; missing pages; `"1"`
 * placeholders for online-first articles; a missing `endingPage` key;
 * creators `Family, Given` with and without a valid `ORCID`; empty strings;
 * duplicate subjects; non-ASCII names and titles; languages en, de, fr, es, ja;
 * abstracts with a glued heading (`AbstractWe …`), TeX next to text, empty
 * ones, and `{h1, p}` objects; key spelling variants (`journalid`,
 * `issuetype`, `openAccess`); `genre` as a string instead of an array; `url`
 * arrays with html, pdf and DOI resolver entries; DOIs of 10.1007 and 10.1186
 * with `( ) < > ; :` in some; ISBNs (valid check digits) for chapters and
 * protocols; a `keyword` array (author keywords, the keyword facet).
 *
 * Entities are consistent across records, as in the real service, so that a
 * knowledge graph built from the records has one node per journal, book,
 * series, publisher and person:
 * - a journal id always comes with the same `publicationName`, `issn`,
 *   `eIssn` and `publisher`; `publisherName` is the journal's imprint
 *   (`Springer`/`BioMed Central` for the BMC journals, `Springer`/`Springer
 *   Medizin` for two German ones, equal pairs for the rest) or, in 10% of the
 *   articles, empty (the deliberate variation: only the publishing house given);
 * - a book's `printIsbn`, `electronicIsbn` (= `isbn`) always come with the
 *   same title and `publisherName`, and a protocol book with the same series
 *   ISSNs and series `volume`;
 * - an article's `volume` follows from the journal and the year; its issue's
 *   `issueType` (Regular or, for about one issue in ten, Supplement) from the
 *   journal, volume and number; online-first articles (10%) have no volume,
 *   number nor issue type; the BMC journals (continuous publication) no issue
 *   numbers;
 * - an `ORCID` always names the same person, spelt the same way: creators with
 *   an ORCID are drawn from a fixed population of ten million persons (the same
 *   for every seed) with a heavy-tailed popularity, so a few authors recur
 *   across many records while most appear once; creators without one are
 *   random names.
 * Every ISSN has a correct ISO 3297 check digit, every ISBN a correct ISBN-13
 * check digit, every ORCID a correct ISO 7064 MOD 11-2 check character; the
 * generator makes no deliberately bad identifier.
 *
 * A few records therefore deviate from the `ApiRecordV2` type on purpose,
 * as the real service does (string `genre`, object `abstract`, lower-case keys).
 * Streams: nothing is kept between records.
 */
export function* generateRecords(
  count: number,
  seed = 1,
  options: GenerateRecordsOptions = {},
): Generator<GeneratedRecord> {
  const rng = new SeededRandom(0);
  const offset = options.offset ?? 0;
  for (let i = offset; i < offset + count; i++) {
    rng.reseed(mixSeed(seed, i));
    yield makeRecord(rng, i, options.catalogueFields === true);
  }
}

/** Number of persons with an ORCID the generator draws creators from. */
export const ORCID_POPULATION = 10_000_000;

const personRng = new SeededRandom(0);

/**
 * Person `k` (0 <= k < {@link ORCID_POPULATION}) of the fixed population of
 * creators with an ORCID: the same name and ORCID for every seed and record.
 * ORCIDs are `0000-000d-dddd-dddC` (the blocks the registry issues), the last
 * seven digits a bijection of `k`, so two persons never share an ORCID.
 */
export function orcidPerson(k: number): { creator: string; ORCID: string } {
  personRng.reseed(mixSeed(0x6f726364, k));
  const creator = `${personRng.pick(FAMILY_NAMES)}, ${personRng.pick(GIVEN_NAMES)}`;
  // 7_654_321 is prime to 10^7, so k -> serial is a bijection of [0, 10^7).
  const serial = (k * 7_654_321 + 1_234_567) % ORCID_POPULATION;
  const digits = `0000000${personRng.int(1, 3)}${pad(serial, 7)}`;
  const id = `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}-${digits.slice(12)}`;
  return { creator, ORCID: id + orcidCheckCharacter(digits) };
}

/**
 * Draws a person of the ORCID population: Lomax (Pareto II, scale 50, shape
 * 1/2) popularity, so about 30% of the draws fall on 50 prolific persons,
 * three quarters on the first thousand, and the rest spread thinly over ten
 * million.
 */
function drawPerson(rng: SeededRandom): number {
  const u = 1 - rng.next();
  return Math.floor(50 * (1 / (u * u) - 1)) % ORCID_POPULATION;
}

function makeTitle(rng: SeededRandom, language: string): string {
  const parts = TITLE_PARTS[language] ?? TITLE_PARTS.en!;
  const [a, b, c] = [rng.pick(parts[0]!), rng.pick(parts[1]!), rng.pick(parts[2]!)];
  if (language === 'ja') return `${a}${b}${c}`;
  const head = a ? `${a} ${b}` : b;
  const text = c.startsWith(':') ? `${head}${c}` : `${head} ${c}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function makeAbstract(rng: SeededRandom, language: string): string | { h1: string; p: string | string[] } {
  const roll = rng.next();
  if (roll < 0.08) return '';
  const pool = ABSTRACT_SENTENCES[language] ?? ABSTRACT_SENTENCES.en!;
  const n = rng.int(2, 5);
  const sentences: string[] = [];
  for (let k = 0; k < n; k++) sentences.push(rng.pick(pool));
  const heading = ABSTRACT_HEADINGS[language] ?? 'Abstract';
  if (roll < 0.13) {
    return { h1: heading, p: rng.chance(0.5) ? sentences.join(' ') : sentences };
  }
  const text = sentences.join(language === 'ja' ? '' : ' ');
  if (roll < 0.35) return `${heading}${text}`;
  return text;
}

function makeCreators(rng: SeededRandom): ApiCreator[] {
  const n = rng.chance(0.05) ? rng.int(9, 14) : rng.int(1, 6);
  const out: ApiCreator[] = [];
  const persons: number[] = [];
  for (let k = 0; k < n; k++) {
    if (rng.chance(0.4)) {
      // a person is an author of a work once: draw again on a repeat
      let person = drawPerson(rng);
      while (persons.includes(person)) person = drawPerson(rng);
      persons.push(person);
      out.push(orcidPerson(person));
    } else {
      out.push({ creator: `${rng.pick(FAMILY_NAMES)}, ${rng.pick(GIVEN_NAMES)}` });
    }
  }
  return out;
}

interface Pages {
  startingPage: string;
  /** `undefined`: the key is missing altogether. */
  endingPage: string | undefined;
}

function makePages(rng: SeededRandom, isBook: boolean): Pages {
  const roll = rng.next();
  const start = rng.int(1, 900);
  const end = start + rng.int(0, 30);
  if (roll < 0.6) return { startingPage: String(start), endingPage: String(end) };
  if (roll < 0.68) return { startingPage: '1', endingPage: undefined };
  if (roll < 0.76 && !isBook) {
    const number = rng.chance(0.7) ? `e${rng.int(1000, 99999)}` : `S${rng.int(1, 60)}`;
    return { startingPage: number, endingPage: '' };
  }
  if (roll < 0.82) return { startingPage: `${start}-${end}`, endingPage: '' };
  if (roll < 0.86) return { startingPage: `${start}-${start + 5}, ${start + 8}`, endingPage: '' };
  if (roll < 0.93) return { startingPage: '', endingPage: '' };
  return { startingPage: String(start), endingPage: undefined };
}

function makeUrls(rng: SeededRandom, doi: string): ApiUrl[] {
  const resolver: ApiUrl = { format: '', platform: '', value: `http://dx.doi.org/${doi}` };
  if (rng.chance(0.35)) return [resolver];
  return [
    { format: 'html', platform: 'web', value: `http://link.springer.com/openurl/fulltext?id=doi:${doi}` },
    { format: 'pdf', platform: 'web', value: `http://link.springer.com/openurl/pdf?id=doi:${doi}` },
    resolver,
  ];
}

function makeDates(rng: SeededRandom): {
  publicationDate: string;
  onlineDate: string;
  coverDate: string;
  year: number;
} {
  const year = rng.int(2005, 2024);
  const month = rng.int(1, 12);
  const day = rng.int(1, 28);
  const publicationDate = `${year}-${pad(month, 2)}-${pad(day, 2)}`;
  // online some days earlier (same month or the month before)
  const lag = rng.int(0, 40);
  let oy = year;
  let om = month;
  let od = day - lag;
  while (od < 1) {
    od += 28;
    om -= 1;
    if (om < 1) {
      om = 12;
      oy -= 1;
    }
  }
  const onlineDate = `${oy}-${pad(om, 2)}-${pad(od, 2)}`;
  const cm = Math.min(12, month + rng.int(0, 2));
  return { publicationDate, onlineDate, coverDate: `${year}-${pad(cm, 2)}`, year };
}

function makeSubjects(rng: SeededRandom, base: readonly string[]): string[] {
  const subjects = base.slice(0, rng.int(1, base.length));
  if (rng.chance(0.15)) subjects.push(subjects[0]!);
  return subjects;
}

function makeKeywords(rng: SeededRandom): string[] {
  const n = rng.chance(0.2) ? 0 : rng.int(1, 6);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const kw = rng.pick(KEYWORDS);
    if (!out.includes(kw)) out.push(kw);
  }
  return out;
}

function makeCountries(rng: SeededRandom, creators: number): string[] {
  if (rng.chance(0.07)) return [];
  const n = Math.min(creators, rng.int(1, 3));
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const c = rng.pick(COUNTRIES);
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** The `genre` array of a content type (a review for some articles). */
function makeGenres(rng: SeededRandom, kind: 'Article' | 'Chapter' | 'Protocol'): string[] {
  if (kind === 'Article')
    return rng.chance(0.15) ? ['ReviewPaper', 'Review Article'] : ['OriginalPaper', 'Original Article'];
  return kind === 'Protocol' ? ['Protocol'] : ['Chapter'];
}

function makeCopyright(rng: SeededRandom, openaccess: string, year: number): string {
  if (openaccess === 'true') return `©${year} The Author(s)`;
  return rng.chance(0.5)
    ? `©${year} Springer Science+Business Media Dordrecht`
    : `©${year} Springer Nature Switzerland AG`;
}

function makeRecord(rng: SeededRandom, index: number, catalogueFields: boolean): GeneratedRecord {
  const kindRoll = rng.next();
  const kind: 'Article' | 'Chapter' | 'Protocol' = kindRoll < 0.7 ? 'Article' : kindRoll < 0.9 ? 'Chapter' : 'Protocol';
  const dates = makeDates(rng);
  const creators = makeCreators(rng);
  const openaccess = rng.chance(0.3) ? 'true' : 'false';

  const venue = makeVenue(rng, kind, dates.year, index);
  const { doi, publicationName } = venue;
  let language = venue.language;
  if (rng.chance(0.05)) language = rng.pick(['de', 'fr', 'es', 'ja']);

  const pages = makePages(rng, kind !== 'Article');
  const abstract = makeAbstract(rng, language);
  const subjects = makeSubjects(rng, venue.subjectPool);
  const genreArray = makeGenres(rng, kind);
  const variantKeys = rng.chance(0.04);
  const genre: string[] | string = rng.chance(0.04) ? (rng.chance(0.5) ? '' : genreArray[0]!) : genreArray;
  const copyright = makeCopyright(rng, openaccess, dates.year);
  const topicalCollection = rng.chance(0.08) ? rng.pick(TOPICAL_COLLECTIONS) : '';

  const r: Record<string, unknown> = {
    contentType: kind,
    identifier: `doi:${doi}`,
    language: rng.chance(0.03) ? '' : language,
    url: makeUrls(rng, doi),
    title: makeTitle(rng, language),
    creators,
    publicationName,
  };
  r[variantKeys ? 'openAccess' : 'openaccess'] = openaccess;
  r.doi = doi;
  r.publisher = venue.publisher;
  r.publisherName = venue.publisherName;
  r.publicationDate = dates.publicationDate;
  r.publicationType = kind === 'Article' ? 'Journal' : 'Book';
  r.issn = venue.issn;
  r.eIssn = venue.eIssn;
  if (kind !== 'Article') {
    r.printIsbn = venue.printIsbn;
    r.electronicIsbn = venue.electronicIsbn;
    r.isbn = venue.electronicIsbn;
  }
  r.volume = venue.volume;
  r.number = venue.number;
  r[variantKeys ? 'issuetype' : 'issueType'] = venue.issueType;
  r.topicalCollection = topicalCollection;
  r.genre = genre;
  r.startingPage = pages.startingPage;
  if (pages.endingPage !== undefined) r.endingPage = pages.endingPage;
  r[variantKeys ? 'journalid' : 'journalId'] = venue.journalId;
  r.onlineDate = dates.onlineDate;
  r.coverDate = dates.coverDate;
  r.copyright = copyright;
  r.abstract = abstract;
  r.conferenceInfo = [];
  r.keyword = makeKeywords(rng);
  r.subjects = subjects;
  r.disciplines = [venue.discipline];
  if (catalogueFields) r._countries = makeCountries(rng, creators.length);
  return r as unknown as GeneratedRecord;
}
