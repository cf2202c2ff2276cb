import { MappingError } from '../errors.js';
import type { Clean } from './recordCleaners.js';

/** How deep a JSON value kept as it is (an element of `conferenceInfo`) may nest. */
const MAX_JSON_DEPTH = 32;

/**
 * A copy of a JSON value whose strings are cleaned (string values with
 * `clean`, keys with `cleanKey`), for values kept whole (`conferenceInfo`
 * elements are written as JSON text). Deeper than {@link MAX_JSON_DEPTH}
 * levels is refused: such a value is junk, and writing it would overflow the
 * stack.
 */
export function cleanJson(value: unknown, id: string, path: string, clean: Clean, cleanKey: Clean, depth = 0): unknown {
  if (typeof value === 'string') return clean(value, path);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) throw new MappingError(`nested deeper than ${MAX_JSON_DEPTH} levels`, id, path);
  if (Array.isArray(value)) return value.map((v, i) => cleanJson(v, id, `${path}[${i}]`, clean, cleanKey, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      cleanKey(k, path),
      cleanJson(v, id, `${path}.${k}`, clean, cleanKey, depth + 1),
    ]),
  );
}
