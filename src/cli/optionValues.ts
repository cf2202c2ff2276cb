import { ToolkitError } from '../errors.js';

/** A count option: an integer of 0 or more; a usage error naming the option otherwise. */
export function nonNegativeInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ToolkitError(`${name} must be a non-negative integer, not "${value}"`, 'usage');
  return n;
}

/** A count option of 1 or more (`1_000` allowed); `hint` is added to the message (`or auto`). */
export function positiveInteger(name: string, value: string, hint = ''): number {
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new ToolkitError(`${name} must be a positive integer${hint ? ` (${hint})` : ''}, not "${value}"`, 'usage');
  return n;
}

/** The longest a timer can wait, in milliseconds (about 24 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A time limit given in seconds (decimals allowed): positive, and at most what a timer can wait. */
export function timeoutSeconds(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ToolkitError(`${name} must be a positive number of seconds, got "${value}"`, 'usage');
  if (n * 1000 > MAX_TIMER_MS) throw new ToolkitError(`${name} must be at most ${Math.floor(MAX_TIMER_MS / 1000)} seconds, got "${value}"`, 'usage');
  return n;
}
