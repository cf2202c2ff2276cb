/**
 * Which XSD date type a value is a valid lexical form of, or `undefined`.
 * `expected` is what the field should hold; a full date in a month field
 * (`coverDate: "2017-08-09"`) is accepted as `date`. Calendar-checked:
 * `2015-02-30` is not a date.
 */
export function dateLiteralKind(value: string, expected: 'date' | 'gYearMonth'): 'date' | 'gYearMonth' | undefined {
  const full = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (full) {
    const [y, m, d] = [Number(full[1]), Number(full[2]), Number(full[3])];
    return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) ? 'date' : undefined;
  }
  if (expected === 'gYearMonth') {
    const month = /^(\d{4})-(\d{2})$/.exec(value);
    if (month && Number(month[2]) >= 1 && Number(month[2]) <= 12) return 'gYearMonth';
  }
  return undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
