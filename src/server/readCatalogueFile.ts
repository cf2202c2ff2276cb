import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ParseError, ToolkitError } from '../errors.js';
import { CatalogueBuilder, indexRecords } from './CatalogueBuilder.js';
import type { BuiltCatalogue, RawCatalogue } from './indexParts.js';

const NEWLINE = 10;

/**
 * Reads and indexes a catalogue file: newline-delimited JSON (one record per
 * line, blank lines skipped) or one JSON array of records. Throws a
 * `ParseError` naming the line of a bad record, or a `ToolkitError` with code `io`.
 */
export function readCatalogueFile(path: string): BuiltCatalogue {
  const fd = openCatalogue(path);
  try {
    const size = fstatSync(fd).size;
    if (catalogueIsArray(fd, size)) {
      const all = Buffer.alloc(size);
      readSync(fd, all, 0, size, 0);
      let records: unknown;
      try {
        records = JSON.parse(all.toString('utf8').replace(/^\uFEFF/, ''));
      } catch (err) {
        throw new ParseError(`not a JSON array of records: ${(err as Error).message}`, path, undefined, undefined, {
          cause: err,
        });
      }
      return indexRecords(records as Iterable<object>, path);
    }
    const builder = new CatalogueBuilder();
    readNdjson(fd, 0, size, builder, path);
    return builder.build();
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and indexes the records of bytes `start` … `end` of an NDJSON
 * catalogue (both at line starts) as plain data: what a loading worker does.
 */
export function readCatalogueRange(path: string, start: number, end: number): RawCatalogue {
  const fd = openCatalogue(path);
  try {
    const builder = new CatalogueBuilder();
    readNdjson(fd, start, end, builder, path);
    return builder.raw();
  } finally {
    closeSync(fd);
  }
}

/** Whether a catalogue file is one JSON array (else NDJSON). */
export function catalogueIsArray(fd: number, size: number): boolean {
  const head = Buffer.alloc(Math.min(size, 4096));
  readSync(fd, head, 0, head.length, 0);
  return head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('[');
}

/** Opens a catalogue file for reading; a `ToolkitError` with code `io` when it cannot. */
export function openCatalogue(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw new ToolkitError(`cannot read the catalogue ${path}: ${(err as Error).message}`, 'io', { cause: err });
  }
}

/**
 * Reads the whole lines of NDJSON in bytes `start` … `end` of an open file
 * into a builder; line numbers in errors count from `firstLine`.
 */
function readNdjson(
  fd: number,
  start: number,
  end: number,
  builder: CatalogueBuilder,
  source: string,
  firstLine = 1,
): void {
  const chunkSize = 8 * 1024 * 1024;
  let carry: Buffer = Buffer.alloc(0);
  let line = firstLine;
  let position = start;
  for (;;) {
    const want = Math.min(chunkSize, end - position);
    const buf = Buffer.allocUnsafe(carry.length + Math.max(want, 0));
    carry.copy(buf, 0);
    const read = want > 0 ? readSync(fd, buf, carry.length, want, position) : 0;
    position += read;
    const total = carry.length + read;
    if (read === 0) {
      if (total > 0) builder.addChunk(buf.subarray(0, total), source, line);
      return;
    }
    const lastNl = buf.lastIndexOf(NEWLINE, total - 1);
    if (lastNl < 0) {
      carry = buf.subarray(0, total);
      continue;
    }
    line = builder.addChunk(buf.subarray(0, lastNl + 1), source, line);
    carry = Buffer.from(buf.subarray(lastNl + 1, total));
  }
}
