import { isCalendarDate } from '../rdf/calendar.js';

/**
 * Which XSD date type a value is a valid lexical form of, or `undefined`:
 * a full date (`2017-08-09`) is `date`, a month (`2017-08`) `gYearMonth`, a
 * year (`2017`) `gYear`, whatever the field (the service sends partial dates).
 * Calendar-checked: `2015-02-30` is not a date. (`_expected`, what the field
 * should hold, is no longer needed; kept for callers that pass it.)
 */
export function dateLiteralKind(
  value: string,
  _expected?: 'date' | 'gYearMonth',
): 'date' | 'gYearMonth' | 'gYear' | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return isCalendarDate(value) ? 'date' : undefined;
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (month) return Number(month[2]) >= 1 && Number(month[2]) <= 12 ? 'gYearMonth' : undefined;
  return /^\d{4}$/.test(value) ? 'gYear' : undefined;
}
