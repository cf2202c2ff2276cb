import { MappingError } from '../errors.js';
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
  const items = Array.isArray(value) ? value : [value];
  const out: Discipline[] = [];
  items.forEach((item, i) => {
    const p = Array.isArray(value) ? `${path}[${i}]` : path;
    if (typeof item === 'string') {
      const term = clean.line(item, p);
      if (term) out.push({ term });
      return;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new MappingError(`expected a discipline object {id, term}, got ${describe(item)}`, id, p);
    }
    const o = item as Record<string, unknown>;
    const d: Discipline = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'id') d.id = clean.text(scalar(v, id, `${p}.id`) ?? '', `${p}.id`).trim() || undefined;
      else if (k === 'term') d.term = clean.line(scalar(v, id, `${p}.term`) ?? '', `${p}.term`) || undefined;
      else record.unknownFields[`${path}[].${k}`] = v;
    }
    if (d.id || d.term) out.push(d);
  });
  return out;
}
