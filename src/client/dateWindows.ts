/**
 * Date windows for deep harvests: a query with more records than paging can
 * reach is cut into `onlinedatefrom:`/`onlinedateto:` windows, halved at
 * year, then month, then day boundaries until each window is small enough.
 * Pure functions on ISO dates (`YYYY-MM-DD`).
 */

import { daysInMonth } from '../rdf/calendar.js';

/** An inclusive range of online dates. */
export interface DateWindow {
  from: string;
  to: string;
}

/** Granularity asked for with `--split-by`. */
export type SplitUnit = 'year' | 'month';

/** Earliest online date assumed when the query names none. */
export const DEFAULT_FROM = '1800-01-01';

const DATE_TERM = /(^|\s)(onlinedatefrom|onlinedateto):("?)(\d{4}-\d{2}-\d{2})\3(?=\s|$)/gi;

/** `OR`, `NOT` or a parenthesis outside double quotes: the query is more than terms joined by AND. */
function hasOperators(query: string): boolean {
  const unquoted = query.replace(/"[^"]*"?/g, ' ');
  return /(^|\s)(OR|NOT)(?=\s|\(|$)/.test(unquoted) || /(^|\s)\(|\)(\s|$)/.test(unquoted);
}

/**
 * Splits a query into its date bounds (`onlinedatefrom:`, `onlinedateto:`) and
 * the rest. Only a query of terms joined by AND gives up its date terms: in
 * `A OR onlinedatefrom:X` or `NOT onlinedatefrom:X` they are no bounds of the
 * whole, so such a query is kept whole (its windows then span every date).
 */
export function extractDateBounds(query: string): { rest: string; from?: string; to?: string } {
  if (hasOperators(query)) return { rest: query.trim() };
  let from: string | undefined;
  let to: string | undefined;
  const rest = query
    .replace(DATE_TERM, (_m, lead: string, name: string, _q: string, date: string) => {
      if (name.toLowerCase() === 'onlinedatefrom') from = date;
      else to = date;
      return lead;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return { rest, ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/**
 * The query of one window: the query without its date terms, plus the
 * window's. A query with OR or NOT is put in parentheses: AND binds tighter
 * than OR, so `A OR B onlinedatefrom:X` would bound B alone.
 */
export function windowQuery(rest: string, window: DateWindow): string {
  const query = rest !== '' && hasOperators(rest) ? `(${rest})` : rest;
  return `${query} onlinedatefrom:${window.from} onlinedateto:${window.to}`.trim();
}

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

function iso(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The whole window of a query's bounds, `from` defaulting to 1800-01-01 and `to` to the end of `today`'s year. */
export function initialWindow(bounds: { from?: string; to?: string }, today: Date): DateWindow {
  return { from: bounds.from ?? DEFAULT_FROM, to: bounds.to ?? iso(today.getUTCFullYear(), 12, 31) };
}

/**
 * Halves a window at a year boundary when it spans several years, else at a
 * month boundary, else at a day; `undefined` for a single day.
 */
export function splitWindow(w: DateWindow): [DateWindow, DateWindow] | undefined {
  const [fy, fm, fd] = parts(w.from);
  const [ty, tm, td] = parts(w.to);
  if (fy !== ty) {
    const mid = fy + Math.floor((ty - fy + 1) / 2);
    return [
      { from: w.from, to: iso(mid - 1, 12, 31) },
      { from: iso(mid, 1, 1), to: w.to },
    ];
  }
  if (fm !== tm) {
    const mid = fm + Math.floor((tm - fm + 1) / 2);
    return [
      { from: w.from, to: iso(fy, mid - 1, daysInMonth(fy, mid - 1)) },
      { from: iso(fy, mid, 1), to: w.to },
    ];
  }
  if (fd !== td) {
    const mid = fd + Math.floor((td - fd + 1) / 2);
    return [
      { from: w.from, to: iso(fy, fm, mid - 1) },
      { from: iso(fy, fm, mid), to: w.to },
    ];
  }
  return undefined;
}

/** Whether a window is no wider than `unit` (inside one year, or one month). */
export function fitsUnit(w: DateWindow, unit: SplitUnit | undefined): boolean {
  if (!unit) return true;
  const [fy, fm] = parts(w.from);
  const [ty, tm] = parts(w.to);
  if (unit === 'year') return fy === ty;
  return fy === ty && fm === tm;
}
