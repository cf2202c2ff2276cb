/** Days of a month (1–12) of the proleptic Gregorian calendar XSD uses (February has 29 in a leap year). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Whether an `xsd:date` (or the date of an `xsd:dateTime`: what follows a
 * `T`, a `Z` or an offset is not looked at) is a real calendar day:
 * `2015-02-30` is not. The one test of a date both the mapper and the
 * validator make.
 */
export function isCalendarDate(value: string): boolean {
  const m = /^(-?[0-9]{4,})-([0-9]{2})-([0-9]{2})(?:$|T|Z|[+-][0-9]{2}:[0-9]{2}$)/.exec(value);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(m[1]), month);
}
