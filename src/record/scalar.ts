import { MappingError } from '../errors.js';
import type { Clean } from './recordCleaners.js';

/** A scalar as a string; numbers and booleans are accepted (a saved file may have them), null/undefined are empty. */
export function scalar(value: unknown, id: string, path: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new MappingError(`expected a string, got ${describe(value)}`, id, path);
}

/** A string or a list of strings (scalars), each cleaned and trimmed; empty ones left out. */
export function stringList(value: unknown, id: string, path: string, clean: Clean): string[] {
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  items.forEach((item, i) => {
    const s = scalar(item, id, Array.isArray(value) ? `${path}[${i}]` : path);
    if (s === undefined) return;
    const c = clean(s, `${path}[${i}]`).trim();
    if (c) out.push(c);
  });
  return out;
}

/** What a JSON value is, for messages: `null`, `an array`, `an object`, `a number`, ... */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
