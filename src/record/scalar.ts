import { MappingError } from '../errors.js';
import { placeOf } from './placeOf.js';
import type { Clean } from './recordCleaners.js';

/**
 * A scalar as a string; numbers and booleans are accepted (a saved file may have them), null/undefined are empty.
 * The value's place is `path`, `path[at]`, `path.key` or `path[at].key` ({@link placeOf}, joined for an error only).
 */
export function scalar(value: unknown, id: string, path: string, at?: number, key?: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new MappingError(`expected a string, got ${describe(value)}`, id, placeOf(path, at, key));
}

/** A string or a list of strings (scalars), each cleaned and trimmed; empty ones left out. */
export function stringList(value: unknown, id: string, path: string, clean: Clean): string[] {
  const list = Array.isArray(value);
  const items: unknown[] = list ? value : [value];
  const out: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const s = scalar(items[i], id, path, list ? i : undefined);
    if (s === undefined) continue;
    // a string given alone is `path[0]` to the cleaner (as when it came in a list)
    const c = clean(s, path, i).trim();
    if (c) out.push(c);
  }
  return out;
}

/** What a JSON value is, for messages: `null`, `an array`, `an object`, `a number`, ... */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
