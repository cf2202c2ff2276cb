import { formatInfo, type FormatName } from '../formats.js';
import type { ReadItem } from '../record/readRecords.js';
import { type DoiMetBefore, placeLabel } from './DoiContents.js';
import type { Rejection } from './Rejection.js';

/** A record item, as the sinks write or reject it. */
export type RecordItem = Extract<ReadItem, { kind: 'record' }>;

/** The rejection of a record whose DOI came before it in the run (`before`: where, and the conflict when the content differs). */
export function duplicateDoiRejection(item: RecordItem, doi: string, before: DoiMetBefore): Rejection {
  const content = before.conflict ? 'with different content' : 'with the same content';
  return rejectionOf(
    item,
    doi,
    'duplicate-doi',
    'doi',
    `a record with the same DOI (DOIs are case-insensitive) came before it in this run (${placeLabel(before.first)}), ${content}; its triples would merge into that record's`,
    before.conflict ? { conflict: before.conflict.note } : {},
  );
}

/** The rejection of a record the output format cannot carry (`message`: the writer's `serialization` error). */
export function unwritableRejection(
  item: RecordItem,
  doi: string,
  message: string,
  format: FormatName | undefined,
): Rejection {
  const as = format ? ` as ${formatInfo(format).label}` : '';
  return rejectionOf(item, doi, 'serialization', '(output)', `cannot be written${as}: ${message}`);
}

/** A rejection of a record item that was read and mapped: where it came from, its DOI, and the record as read. */
export function rejectionOf(
  item: RecordItem,
  doi: string,
  code: Rejection['code'],
  field: string,
  reason: string,
  extra: Partial<Rejection> = {},
): Rejection {
  return {
    source: item.source,
    index: item.index,
    ...(item.line !== undefined ? { line: item.line } : {}),
    recordId: doi,
    field,
    code,
    reason,
    ...extra,
    record: item.raw,
  };
}
