import { isbn13CheckDigit } from '../record/identifiers.js';
import { SeededRandom, mixSeed } from './SeededRandom.js';
import { pad } from './pad.js';
import { BOOKS, JOURNALS, PROTOCOL_BOOKS, type SampleJournal } from './sampleVenues.js';

const DOI_CHECK = '0123456789abcdefghjkmnpqrstuvwxyz';

/** Where a generated record was published, and what follows from it. */
export interface Venue {
  doi: string;
  /** The venue's language (a record may still be in another). */
  language: string;
  discipline: { id: string; term: string };
  /** The subjects a record draws from. */
  subjectPool: readonly string[];
  publicationName: string;
  publisher: string;
  publisherName: string;
  issn: string;
  eIssn: string;
  journalId: string;
  volume: string;
  number: string;
  issueType: string;
  printIsbn: string;
  electronicIsbn: string;
}

/**
 * Draws the venue of record `index` (published in `year`): a journal issue
 * for an article, a book (a protocol book for a protocol) for a chapter.
 */
export function makeVenue(
  rng: SeededRandom,
  kind: 'Article' | 'Chapter' | 'Protocol',
  year: number,
  index: number,
): Venue {
  return kind === 'Article' ? articleVenue(rng, year, index) : bookVenue(rng, kind, index);
}

function articleVenue(rng: SeededRandom, year: number, index: number): Venue {
  const journal = rng.pick(JOURNALS);
  const doi = articleDoi(rng, journal, year, index);
  const publisherName = rng.chance(0.1) ? '' : journal.publisherName;
  let volume: string;
  let number: string;
  let issueType: string;
  if (rng.chance(0.1)) {
    // online first: no volume, no issue yet
    volume = '';
    number = '';
    issueType = '';
  } else {
    const volumeNumber = year - journal.firstYear + 1;
    volume = String(volumeNumber);
    number = journal.continuous ? '' : String(rng.int(1, 12));
    // the issue's type: one issue in ten a supplement, the same for all its articles
    issueType =
      !journal.continuous && mixSeed(Number(journal.id), volumeNumber * 16 + Number(number)) % 10 === 0
        ? 'Supplement'
        : 'Regular';
  }
  return {
    doi,
    language: journal.language,
    discipline: journal.discipline,
    subjectPool: journal.subjects,
    publicationName: journal.name,
    publisher: journal.publisher,
    publisherName,
    issn: journal.issn,
    eIssn: journal.eIssn,
    journalId: journal.id,
    volume,
    number,
    issueType,
    printIsbn: '',
    electronicIsbn: '',
  };
}

function bookVenue(rng: SeededRandom, kind: 'Chapter' | 'Protocol', index: number): Venue {
  const book = kind === 'Chapter' ? rng.pick(BOOKS) : rng.pick(PROTOCOL_BOOKS);
  const printIsbn = `${book.printHyphenated}-${isbn13CheckDigit(book.printStem)}`;
  const electronicIsbn = `${book.electronicHyphenated}-${isbn13CheckDigit(book.electronicStem)}`;
  // chapter DOIs are unique per book and chapter number; keep them unique per record too
  const doi = `10.1007/${electronicIsbn}_${(index % 40) + 1}${index >= 40 ? `-${index}` : ''}`;
  return {
    doi,
    language: book.language,
    discipline: book.discipline,
    subjectPool: book.subjects,
    publicationName: book.title,
    publisher: 'Springer',
    publisherName: book.publisherName,
    issn: book.series ? book.series.issn : '',
    eIssn: book.series ? book.series.eIssn : '',
    journalId: '',
    volume: book.series ? book.series.volume : '',
    number: '',
    issueType: '',
    printIsbn,
    electronicIsbn,
  };
}

function articleDoi(rng: SeededRandom, journal: SampleJournal, year: number, index: number): string {
  const check = DOI_CHECK.charAt(rng.int(0, DOI_CHECK.length - 1));
  const roll = rng.next();
  if (roll < 0.01) {
    return `${journal.prefix}/(SICI)${journal.issn || journal.eIssn}(${year}${pad(rng.int(1, 12), 2)})${rng.int(1, 40)}:${rng.int(1, 12)}<${rng.int(1, 900)}::AID-${index}>3.0.CO;2-${check.toUpperCase()}`;
  }
  if (roll < 0.03) {
    return `${journal.prefix}/BF(${pad(rng.int(0, 99), 2)})${index};${check}`;
  }
  if (journal.prefix === '10.1186') {
    return `10.1186/s${journal.id}-${year}-${pad(index, 5)}-${check}`;
  }
  return `10.1007/s${pad(Number(journal.id), 5)}-${pad(year % 1000, 3)}-${pad(index, 4)}-${check}`;
}
