import { daysInMonth } from '../rdf/calendar.js';

/**
 * Which XSD date type a value is a valid lexical form of, or `undefined`:
 * a full date (`2017-08-09`) is `date`, a month (`2017-08`) `gYearMonth`, a
 * year (`2017`) `gYear`, whatever the field (the service sends partial dates).
 * Calendar-checked: `2015-02-30` is not a date. (`_expected`, what the field
 * should hold, is no longer needed; kept for callers that pass it.) Read by a
 * scan of the characters (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), not by regular
 * expressions: no match array is made for each of a record's dates.
 */
export function dateLiteralKind(
  value: string,
  _expected?: 'date' | 'gYearMonth',
): 'date' | 'gYearMonth' | 'gYear' | undefined {
  const n = value.length;
  if ((n !== 4 && n !== 7 && n !== 10) || !digits(value, 0, 4)) return undefined;
  if (n === 4) return 'gYear';
  if (value.charCodeAt(4) !== DASH || !digits(value, 5, 7)) return undefined;
  const month = number(value, 5, 7);
  if (month < 1 || month > 12) return undefined;
  if (n === 7) return 'gYearMonth';
  if (value.charCodeAt(7) !== DASH || !digits(value, 8, 10)) return undefined;
  const day = number(value, 8, 10);
  return day >= 1 && day <= daysInMonth(number(value, 0, 4), month) ? 'date' : undefined;
}

const DASH = 0x2d;

/** Whether the characters of `value` from `start` to `end` are ASCII digits. */
function digits(value: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** The number the ASCII digits of `value` from `start` to `end` write. */
function number(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + (value.charCodeAt(i) - 0x30);
  return n;
}
