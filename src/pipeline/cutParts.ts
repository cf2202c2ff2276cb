import { Buffer } from 'node:buffer';
import { DEFAULT_MAX_DEPTH } from '../record/cutDeepJson.js';
import { DEFAULT_MAX_DOCUMENT_CHARS } from '../record/readRecords.js';
import { type RecordPartPlace, withoutBoms } from '../record/readRecordPart.js';
import { tryParse } from '../record/tryParse.js';
import { isShared } from './SharedBuffers.js';

/**
 * A cut of an input: a part (its bytes in a buffer of their own, to transfer
 * to a worker thread, and where it lies), or the rest of the input, to read
 * in order from a line on (a line too long to cut around: see {@link cutParts}).
 */
export type Cut =
  | ({ kind: 'part'; bytes: Uint8Array } & Omit<RecordPartPlace, 'source'>)
  | {
      kind: 'rest';
      /** The rest is the whole input (nothing was cut). */
      fromStart: boolean;
      /** Lines before the rest. */
      lines: number;
      rest: AsyncIterable<Uint8Array>;
    };

/** Options of {@link cutParts}. */
export interface CutPartsOptions {
  /** Bytes of a part, about (cut at the first line break past them). Defaults to {@link DEFAULT_PART_BYTES} (128 KiB). */
  partBytes?: number;
  /** As `readRecords`' `maxDocumentChars`. Defaults to 2^28. */
  maxDocumentChars?: number;
  /** As `readRecords`' `maxDepth`. Defaults to 64. */
  maxDepth?: number;
  /** Memory for a part's bytes, `length` of them (shared memory, say). Defaults to a buffer of its own. */
  allocate?: (length: number) => Uint8Array;
}

/**
 * Bytes of a part when not given: 128 KiB. Measured against 256 KiB (`convert --jobs 2`, 30,000 generated records,
 * N-Triples, whole processes, 4 pairs, load 8-9): 0.90x the CPU time, 0.75x the wall time, peak RSS 256 against
 * 292 MB; 64 KiB was about as good, 32 KiB cost 6% more CPU than 64 (more parts to cut, send and order).
 */
export const DEFAULT_PART_BYTES = 128 * 1024;

/** The longest line (or whole document) in bytes a part holds: a longer one is read in order (it is rare: a 32 MiB record). */
const MAX_PART_BYTES = 32 * 1024 * 1024;

/**
 * Cuts an input (its bytes, as read) into parts for worker threads, without
 * decoding it: newline-delimited JSON after a line break every `partBytes` or
 * so (found with `lastIndexOf`: a cheap scan), anything else (one JSON
 * document: a saved response of the service) whole. Whether the input is
 * newline-delimited is decided as `readRecords` decides it (its first line
 * with JSON is a value on its own), only for an input larger than a part. A
 * line or document larger than the reader's limit or 32 MiB is not cut
 * around: the input from its start on comes as the rest, to read in order.
 * Lines are counted (`line`: where a part starts), records are not (that
 * needs the JSON read: the worker's job).
 */
export async function* cutParts(
  input: AsyncIterable<Uint8Array | string>,
  options: CutPartsOptions = {},
): AsyncGenerator<Cut> {
  const partBytes = Math.max(1, options.partBytes ?? DEFAULT_PART_BYTES);
  const cap = Math.min(MAX_PART_BYTES, options.maxDocumentChars ?? DEFAULT_MAX_DOCUMENT_CHARS);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const allocate = options.allocate ?? ((length: number) => Buffer.allocUnsafeSlow(length));
  const spare: Spare = {};
  const chunks = input[Symbol.asyncIterator]();
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let mode: 'lines' | 'document' | undefined;
  let line = 1;
  /** A part cut, waiting to know whether it is the last. */
  let ready: Extract<Cut, { kind: 'part' }> | undefined;
  const rest = (fromStart: boolean): Cut => ({
    kind: 'rest',
    fromStart,
    lines: line - 1,
    rest: followedBy(held, chunks),
  });
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    if (chunk.length === 0) continue;
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes < partBytes) continue;
    if (mode === undefined) {
      // Looked for again only once a line ends in the newest chunk (a long first line is not joined again and again).
      if (chunk.includes(0x0a)) {
        held = [joined(held, heldBytes)];
        mode = firstLineMode(held[0]!, maxDepth);
      }
      if (mode === undefined && heldBytes <= cap) continue;
      if (mode === undefined) return yield rest(true);
    }
    if (mode === 'document') {
      if (heldBytes > cap) return yield rest(true);
      continue;
    }
    // Parts of about `partBytes`: cut at the first line break past it in the newest chunk (its last one when none is).
    for (;;) {
      const newest = held[held.length - 1]!;
      const before = heldBytes - newest.length;
      let nl = newest.indexOf(0x0a, Math.max(0, partBytes - before - 1));
      if (nl < 0) nl = newest.lastIndexOf(0x0a);
      if (nl < 0) break;
      const remaining = newest.subarray(nl + 1);
      // Copied into a buffer of its own: what the input's stream gave may be shared (a pool's slice).
      const pieces = [...held.slice(0, -1), newest.subarray(0, nl + 1)];
      const cut = joined(pieces, heldBytes - remaining.length, allocate, spare);
      held = remaining.length > 0 ? [remaining] : [];
      heldBytes = remaining.length;
      const first = ready === undefined;
      if (ready) yield ready;
      ready = { kind: 'part', bytes: cut, line, first: first && line === 1, last: false };
      // Counted in the input's chunks, not in the copy: a search of shared memory goes through V8's runtime.
      for (const piece of pieces) line += newlines(piece);
      if (heldBytes < partBytes) break;
    }
    if (heldBytes > cap) {
      // A line too long to hold in a part: the parts cut so far, then the rest in order.
      if (ready) yield ready;
      return yield rest(ready === undefined);
    }
  }
  if (held.length === 0 && ready) {
    yield { ...ready, last: true };
    return;
  }
  if (ready) yield ready;
  yield { kind: 'part', bytes: joined(held, heldBytes, allocate, spare), line, first: ready === undefined, last: true };
}

/** How `readRecords` reads an input that starts with these bytes: by its first line with JSON; undefined while no such line ends in them. */
function firstLineMode(bytes: Uint8Array, maxDepth: number): 'lines' | 'document' | undefined {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (let from = 0; ;) {
    const nl = bytes.indexOf(0x0a, from);
    if (nl < 0) return undefined;
    const text = decoder.decode(bytes.subarray(from, nl));
    const trimmed = (from === 0 ? withoutBoms(text) : text).trim();
    if (trimmed !== '') return tryParse(trimmed, maxDepth).ok ? 'lines' : 'document';
    from = nl + 1;
  }
}

/** Line breaks in bytes (a native scan per line). */
function newlines(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) n++;
  return n;
}

/** Byte arrays joined into memory of their own (`allocate`'s: one a worker can be given). */
function joined(
  arrays: readonly Uint8Array[],
  length: number,
  allocate: (length: number) => Uint8Array = (n) => Buffer.allocUnsafeSlow(n),
  spare: Spare = {},
): Uint8Array {
  const out = allocate(length);
  // Into shared memory V8 copies byte by byte unless source and target lie alike to 8 bytes (it copies words then):
  // 115 against 16 us a part of 128 KiB. A piece that does not is joined in ordinary memory first (5 us a part).
  const direct = !isShared(out) || (arrays.length === 1 && (arrays[0]!.byteOffset - out.byteOffset) % 8 === 0);
  if (!direct && !(spare.bytes && spare.bytes.length >= length)) spare.bytes = new Uint8Array(length + (length >> 2));
  const into = direct ? out : spare.bytes!;
  let at = 0;
  for (const a of arrays) {
    into.set(a, at);
    at += a.length;
  }
  if (into !== out) out.set(into.subarray(0, length));
  return out;
}

/** Ordinary memory to join a part's pieces in before one copy into shared memory (kept for the next part). */
interface Spare {
  bytes?: Uint8Array;
}

/** The bytes held, then the rest of the input. */
async function* followedBy(
  held: readonly Uint8Array[],
  chunks: AsyncIterator<Uint8Array | string>,
): AsyncGenerator<Uint8Array> {
  yield* held;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
}
