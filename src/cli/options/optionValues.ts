import { ToolkitError } from '../../errors.js';

/**
 * The parsers of the command line's values: counts, numbers, sizes and time
 * limits, each refused (code `usage`, exit 2) with one wording naming the flag:
 * `FLAG must be WHAT, got "VALUE"`.
 */

/** The longest a timer can wait, in milliseconds (about 24 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function refuse(flag: string, what: string, value: string): never {
  throw new ToolkitError(`${flag} must be ${what}, got "${value}"`, 'usage');
}

/** A whole number from `min` to `max` (`1_000` allowed). */
export function parseInteger(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value.replace(/_/g, ''));
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    refuse(flag, `a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`, value);
  return n;
}

/** A number (decimals allowed) from `min` to `max`; `exclusiveMin`: greater than `min`. */
export function parseNumber(flag: string, value: string, min: number, max = Infinity, exclusiveMin = false): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (exclusiveMin ? n <= min : n < min) || n > max) {
    refuse(
      flag,
      `a number ${exclusiveMin ? `greater than ${min}` : `from ${min}`}${max < Infinity ? ` ${exclusiveMin ? 'and at most' : 'to'} ${max}` : ''}`,
      value,
    );
  }
  return n;
}

/** A time limit in seconds (decimals allowed): more than 0, and at most what a timer can wait. */
export function parseSeconds(flag: string, value: string): number {
  return parseNumber(flag, value, 0, Math.floor(MAX_TIMER_MS / 1000), true);
}

/** A size in bytes: a whole number, or one with K, M or G (times 1024, 1024², 1024³): `512M`. */
export function parseBytes(flag: string, value: string): number {
  const m = /^\s*(\d+)\s*([KMG]i?B?)?\s*$/i.exec(value);
  const n = m ? Number(m[1]) * 1024 ** (m[2] ? 'KMG'.indexOf(m[2][0]!.toUpperCase()) + 1 : 0) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    refuse(flag, 'a number of bytes of at least 1 (or with K, M or G: 512M)', value);
  return n;
}

/** A text that may not be empty (an empty query would reach the service and come back refused). */
export function parseNonEmpty(flag: string, value: string): string {
  if (value.trim() === '') refuse(flag, 'a non-empty text', value);
  return value;
}
