import { describe, expect, it } from 'vitest';
import { dateLiteralKind } from '../../src/mapping/dates.js';
import { isCalendarDate } from '../../src/rdf/calendar.js';

/** The forms as regular expressions say them (what the scan of `dateLiteralKind` replaced). */
function byExpressions(value: string): 'date' | 'gYearMonth' | 'gYear' | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return isCalendarDate(value) ? 'date' : undefined;
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (month) return Number(month[2]) >= 1 && Number(month[2]) <= 12 ? 'gYearMonth' : undefined;
  return /^\d{4}$/.test(value) ? 'gYear' : undefined;
}

describe('dateLiteralKind', () => {
  it('types full dates, months and years, calendar-checked', () => {
    expect(dateLiteralKind('2017-08-09')).toBe('date');
    expect(dateLiteralKind('2016-02-29')).toBe('date');
    expect(dateLiteralKind('2015-02-29')).toBeUndefined();
    expect(dateLiteralKind('2015-02-30')).toBeUndefined();
    expect(dateLiteralKind('2017-08')).toBe('gYearMonth');
    expect(dateLiteralKind('2017-13')).toBeUndefined();
    expect(dateLiteralKind('2017')).toBe('gYear');
    for (const v of [
      '',
      '17',
      '2017-8',
      '2017-08-9',
      '2017/08/09',
      '2017-08-09T00:00:00Z',
      ' 2017',
      '２０１７',
      '2017-00',
    ])
      expect(dateLiteralKind(v), v).toBeUndefined();
  });

  it('says what the regular expressions of the forms say, for every value of the forms and their near misses', () => {
    const values: string[] = [];
    for (const year of ['0000', '1900', '2000', '2023', '2024', '9999', '20a4', '-202'])
      for (const month of ['00', '01', '02', '04', '09', '11', '12', '13', '1a', '-1'])
        for (const day of ['00', '01', '28', '29', '30', '31', '32', '3x', '+1'])
          for (const sep of ['-', '/'])
            values.push(
              year,
              `${year}${sep}${month}`,
              `${year}${sep}${month}${sep}${day}`,
              `${year}-${month}-${day}\n`,
            );
    for (const v of values) expect(dateLiteralKind(v), v).toBe(byExpressions(v));
  });
});
