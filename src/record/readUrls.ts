import { MappingError } from '../errors.js';
import { placeOf } from './placeOf.js';
import type { Clean } from './recordCleaners.js';
import { describe, scalar } from './scalar.js';
import type { RecordUrl } from './types.js';

/**
 * The links of a record: a URL, a link object `{format, platform, value}`,
 * or a list of either; cleaned and trimmed, links without a value left out.
 */
export function readUrls(value: unknown, id: string, path: string, clean: Clean): RecordUrl[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value === 'string')
    return [{ format: '', platform: '', value: clean(value, path).trim() }].filter((u) => u.value);
  if (!Array.isArray(value)) {
    if (typeof value === 'object') return readUrls([value], id, path, clean);
    throw new MappingError(`expected an array of links or a URL, got ${describe(value)}`, id, path);
  }
  const out: RecordUrl[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item === 'string') {
      const v = clean(item, path, i).trim();
      if (v) out.push({ format: '', platform: '', value: v });
      continue;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      const place = placeOf(path, i);
      throw new MappingError(`expected a link object {format, platform, value}, got ${describe(item)}`, id, place);
    }
    const o = item as Record<string, unknown>;
    const v = clean(scalar(o.value, id, path, i, 'value') ?? '', path, i, 'value').trim();
    if (!v) continue;
    out.push({
      format: clean(scalar(o.format, id, path, i, 'format') ?? '', path, i, 'format').trim(),
      platform: clean(scalar(o.platform, id, path, i, 'platform') ?? '', path, i, 'platform').trim(),
      value: v,
    });
  }
  return out;
}
