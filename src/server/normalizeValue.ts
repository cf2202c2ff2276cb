import { doiKey } from '../record/recordDoi.js';
import { foldText } from './foldText.js';

/** Indexes of whole values (exact match after folding). */
export type ValueIndexName =
  | 'doi'
  | 'year'
  | 'subject'
  | 'keyword'
  | 'journalid'
  | 'issn'
  | 'isbn'
  | 'type'
  | 'language'
  | 'pub'
  | 'country'
  | 'openaccess';

/** Normalises a value of an exact-match field the way the index stores it. */
export function normalizeValue(index: ValueIndexName, value: string): string {
  switch (index) {
    case 'doi':
      return doiKey(value);
    case 'issn':
      return value.replace(/[\s-]/g, '').toUpperCase();
    case 'isbn':
      return value.replace(/[\s-]/g, '').toUpperCase();
    default:
      return foldText(value);
  }
}
