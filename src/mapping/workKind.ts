import type { ScholarlyRecord } from '../record/types.js';

/** What a record's work is. */
export type WorkKind = 'article' | 'chapter' | 'book' | 'other';

/** Where a record's work was published: in a journal, in a book (or a book series), or nowhere the record says. */
export type ContainerKind = 'journal' | 'book' | 'none';

/**
 * Where the work was published, from the evidence of the record:
 * `publicationType` when it names a journal or a book; else the journal keys
 * (`issn`, `eIssn`, `journalId`: a journal); else an ISBN (a book); else a
 * publication name alone (`publicationName`, v1 `journalTitle`): a journal, as
 * the service names books only beside their ISBNs. Pages of the service that
 * send every record with the book key set (`printIsbn`, `electronicIsbn`,
 * `isbn`, empty) instead of the journal one are journal pages by this rule.
 * A volume or issue number alone is a journal's too.
 */
export function containerKind(record: ScholarlyRecord): ContainerKind {
  const pub = (record.publicationType ?? '').toLowerCase();
  if (pub === 'journal') return 'journal';
  if (pub === 'book' || pub === 'bookseries' || pub === 'book series') return 'book';
  if (record.issn || record.eIssn || record.journalId) return 'journal';
  if (record.printIsbn || record.electronicIsbn || record.isbn) return 'book';
  if (record.publicationName || record.journalTitle || record.volume || record.number) return 'journal';
  return 'none';
}

/**
 * The kind of the work: from `contentType` when it names one (article,
 * chapter, book); else (a type of its own such as Protocol or
 * ReferenceWorkEntry, or none) from its container: an article in a journal,
 * a chapter in a book; a work with no container is a plain creative work.
 */
export function workKind(record: ScholarlyRecord, container: ContainerKind): WorkKind {
  const type = (record.contentType ?? '').toLowerCase();
  if (type === 'article' || type === 'journal article') return 'article';
  if (type === 'chapter' || type === 'book chapter') return 'chapter';
  if (type === 'book') return 'book';
  if (container === 'journal') return 'article';
  if (container === 'book') return 'chapter';
  return 'other';
}
