import { MappingError, ToolkitError } from '../errors.js';
import { type MapOptions, type MappedRecord, mapRecord } from '../mapping/mapRecord.js';
import { inRecordGraph } from '../mapping/recordGraph.js';
import { normalizeRecord } from '../record/normalizeRecord.js';
import { recordDigest } from '../record/recordDigest.js';
import type { ReadItem } from '../record/readRecords.js';
import type { Rejection } from './Rejection.js';

/** Options of {@link mapItem}: the mapper's, and where the quads go. */
export interface MapItemOptions extends MapOptions {
  /**
   * Put the record's quads in its own named graph, `<base>record/<doi>`
   * (`recordGraphIri`), so a store can replace the record as a whole; only
   * N-Quads and JSON-LD can carry it. Defaults to false (the default graph).
   */
  graphPerRecord?: boolean;
}

/**
 * The outcome of {@link mapItem}; a mapped record comes with the digest of
 * its content (`recordDigest`), which tells two records of one DOI apart.
 */
export type MapItemOutcome =
  { kind: 'mapped'; mapped: MappedRecord; digest: [number, number] } | { kind: 'rejected'; rejection: Rejection };

/**
 * Normalises and maps one item read by `readRecords()`; a problem of the
 * reader or a {@link MappingError} becomes a {@link Rejection} that names the
 * record and the field. Pure: no I/O.
 */
export function mapItem(item: ReadItem, options: MapItemOptions = {}): MapItemOutcome {
  const label = item.index !== undefined ? `${item.source}#${item.index}` : item.source;
  if (item.kind === 'problem') {
    return {
      kind: 'rejected',
      rejection: {
        ...whereOf(item),
        recordId: label,
        field: '(input)',
        code: 'unreadable',
        reason: item.reason,
        ...(item.excerpt ? { excerpt: item.excerpt } : {}),
      },
    };
  }
  try {
    const record = normalizeRecord(item.raw, { recordLabel: label });
    const mapped = mapRecord(record, {
      base: options.base,
      schemaScheme: options.schemaScheme,
      factory: options.factory,
      recordLabel: label,
    });
    if (options.graphPerRecord) mapped.quads = inRecordGraph(mapped.quads, mapped.doi, options.base, options.factory);
    return { kind: 'mapped', mapped, digest: recordDigest(record) };
  } catch (err) {
    if (err instanceof MappingError) {
      return {
        kind: 'rejected',
        rejection: {
          ...whereOf(item),
          recordId: err.recordId,
          field: err.path,
          code: 'record-invalid',
          reason: stripPrefix(err),
          record: item.raw,
        },
      };
    }
    if (err instanceof ToolkitError) throw err;
    // A bug must not lose the record: reject it with what happened.
    return {
      kind: 'rejected',
      rejection: {
        ...whereOf(item),
        recordId: label,
        field: '(record)',
        code: 'record-invalid',
        reason: `internal error: ${(err as Error).message}`,
        record: item.raw,
      },
    };
  }
}

/** Where an item was read, for its rejection (made only for one). */
function whereOf(item: ReadItem): Pick<Rejection, 'source' | 'index' | 'line'> {
  return {
    source: item.source,
    ...(item.index !== undefined ? { index: item.index } : {}),
    ...(item.line !== undefined ? { line: item.line } : {}),
  };
}

function stripPrefix(err: MappingError): string {
  const prefix = `record ${err.recordId}, field ${err.path}: `;
  return err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
}
