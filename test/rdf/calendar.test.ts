import { describe, expect, it } from 'vitest';
import { daysInMonth, isCalendarDate } from '../../src/rdf/calendar.js';

describe('calendar dates (the one test the mapper, the validator and the options make)', () => {
  it('counts the days of a month, February by the Gregorian leap rule', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    // Years before 100 are years, not 19xx (Date.UTC would read them so).
    expect(daysInMonth(4, 2)).toBe(29);
  });

  it('accepts real days only, of a date or the date of a dateTime', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2015-02-30')).toBe(false);
    expect(isCalendarDate('2015-04-31')).toBe(false);
    expect(isCalendarDate('2015-13-01')).toBe(false);
    expect(isCalendarDate('2015-00-10')).toBe(false);
    expect(isCalendarDate('2015-01-00')).toBe(false);
    expect(isCalendarDate('2015-12-31T23:59:59Z')).toBe(true);
    expect(isCalendarDate('2015-06-31T00:00:00')).toBe(false);
    expect(isCalendarDate('2015-06-30+02:00')).toBe(true);
    expect(isCalendarDate('-0001-01-01')).toBe(true);
    expect(isCalendarDate('2015-6-3')).toBe(false);
  });
});
