import { MappingError } from '../errors.js';
import { placeOf } from './placeOf.js';
import type { RecordCleaners } from './recordCleaners.js';
import { describe, scalar } from './scalar.js';
import type { ScholarlyRecord } from './types.js';

/** A discipline of the service's scheme: its id, its term, or both. */
type Discipline = { id?: string; term?: string };

/**
 * The disciplines of a record: terms (strings) or `{id, term}` objects;
 * other keys go to the record's `unknownFields`, a discipline with neither
 * id nor term is left out.
 */
export function readDisciplines(
  value: unknown,
  id: string,
  path: string,
  clean: RecordCleaners,
  record: ScholarlyRecord,
): Discipline[] {
  if (value === null || value === undefined || value === '') return [];
  const list = Array.isArray(value);
  const items: unknown[] = list ? value : [value];
  const out: Discipline[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // the discipline's place: `path[at]`, or `path` for one not in a list
    const at = list ? i : undefined;
    if (typeof item === 'string') {
      const term = clean.line(item, path, at);
      if (term) out.push({ term });
      continue;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      const place = placeOf(path, at);
      throw new MappingError(`expected a discipline object {id, term}, got ${describe(item)}`, id, place);
    }
    const o = item as Record<string, unknown>;
    const d: Discipline = {};
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (k === 'id') d.id = clean.text(scalar(v, id, path, at, 'id') ?? '', path, at, 'id').trim() || undefined;
      else if (k === 'term') d.term = clean.line(scalar(v, id, path, at, 'term') ?? '', path, at, 'term') || undefined;
      else record.unknownFields[`${path}[].${k}`] = v;
    }
    if (d.id || d.term) out.push(d);
  }
  return out;
}
