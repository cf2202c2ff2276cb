import { MappingError } from '../errors.js';
import { isValidOrcid } from './orcid.js';
import { placeOf } from './placeOf.js';
import type { RecordCleaners } from './recordCleaners.js';
import { describe, scalar } from './scalar.js';
import type { Creator, ScholarlyRecord } from './types.js';

const ORCID_PATTERN = /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/;

/**
 * The creators of a record: names (strings) or `{creator, ORCID}` objects
 * (`name` for `creator`, keys in any case). An ORCID iD whose check character
 * holds becomes `orcid`, any other `orcidRaw`; other keys go to the record's
 * `unknownFields`; a creator with neither name nor iD is left out.
 */
export function readCreators(
  value: unknown,
  id: string,
  path: string,
  clean: RecordCleaners,
  record: ScholarlyRecord,
): Creator[] {
  if (value === null || value === undefined || value === '') return [];
  const list = Array.isArray(value);
  const items: unknown[] = list ? value : [value];
  const out: Creator[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // the creator's place: `path[at]`, or `path` for one creator not in a list
    const at = list ? i : undefined;
    if (typeof item === 'string') {
      const name = personName(clean.line(item, path, at), record, path, at);
      if (name) out.push({ name });
      continue;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      const place = placeOf(path, at);
      throw new MappingError(`expected a creator object {creator, ORCID}, got ${describe(item)}`, id, place);
    }
    const creator = readCreator(item as Record<string, unknown>, id, path, at, clean, record);
    if (creator.name || creator.orcid || creator.orcidRaw) out.push(creator);
  }
  return out;
}

/** One `{creator, ORCID}` object at `path[at]` (`path` when `at` is undefined). */
function readCreator(
  o: Record<string, unknown>,
  id: string,
  path: string,
  at: number | undefined,
  clean: RecordCleaners,
  record: ScholarlyRecord,
): Creator {
  let name = '';
  let orcidValue: string | undefined;
  for (const k of Object.keys(o)) {
    const v = o[k];
    // The usual spellings need no lower-casing.
    const lk = k === 'creator' ? k : k === 'ORCID' ? 'orcid' : k.toLowerCase();
    if (lk === 'creator' || lk === 'name') name = clean.line(scalar(v, id, path, at, k) ?? '', path, at, k) || name;
    else if (lk === 'orcid') orcidValue = clean.text(scalar(v, id, path, at, k) ?? '', path, at, k).trim() || undefined;
    else record.unknownFields[`${path}[].${k}`] = v;
  }
  const creator: Creator = { name: personName(name, record, path, at, 'creator') };
  if (orcidValue) {
    const m = ORCID_PATTERN.exec(orcidValue);
    // A mistyped iD (wrong check character) would link the person to someone else's orcid.org page.
    const id = m?.[1]!.toUpperCase();
    if (id !== undefined && isValidOrcid(id)) creator.orcid = id;
    else creator.orcidRaw = orcidValue;
  }
  return creator;
}

/**
 * A creator's name at `path[at].key` ({@link placeOf}), or '' (with a note) when it has no letter or digit at all
 * (`" , "`, `"-"`): nobody to name.
 */
function personName(name: string, record: ScholarlyRecord, path: string, at?: number, key?: string): string {
  if (name === '' || /[\p{L}\p{N}]/u.test(name)) return name;
  record.notes.push(
    `${placeOf(path, at, key)}: "${name}" names nobody (no letter or digit); the name is left out (and the creator, unless it has an ORCID)`,
  );
  return '';
}
