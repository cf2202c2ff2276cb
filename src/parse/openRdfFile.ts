import { stat } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ToolkitError } from '../errors.js';
import { formatFromPath, isGzipPath, type FormatName } from '../formats.js';
import { FileReads } from './FileReads.js';
import { DEFAULT_MAX_DOCUMENT_CHARS } from './limits.js';

/** An opened RDF input, ready for `parseRdf(file.input, { format: file.format, source: file.source })`. */
export interface RdfFile {
  /** The bytes of the document, gunzipped when it was gzip. */
  input: Readable;
  /** The format the file name gives (`.ttl`, `.nt.gz`, ...), or `undefined` (stdin, unknown extension): then sniff. */
  format: FormatName | undefined;
  /** The name for messages: the path, or `<stdin>`. */
  source: string;
  /** Whether the input was gzip (by extension or by its magic bytes). */
  gzip: boolean;
  /**
   * Gives back a chunk of `input` its reader holds no part of any longer: the
   * memory of a read of the file is read into again ({@link FileReads}). A
   * chunk not given back (or of stdin, or gunzipped) is left to the garbage collector.
   */
  release: (chunk: Uint8Array) => void;
}

/**
 * Opens a file, or standard input for `-`, for parsing. Gzip is undone when the
 * name ends in `.gz` or the content starts with the gzip magic bytes (so
 * `zcat`-less pipes work too). The format comes from the extension, before
 * `.gz`. Nothing is read into memory beyond the first chunk.
 *
 * Fails with code `io` (missing or unreadable file, a directory, corrupt gzip:
 * the latter through the stream).
 *
 * `onRead` is told the size of each chunk as read from the file or stdin,
 * before gunzip (for progress by the bytes of the file). Defaults to none.
 *
 * `maxDocumentChars`, the limit the reader holds the input to, sizes the reads
 * ({@link readBytesFor}). Defaults to {@link DEFAULT_MAX_DOCUMENT_CHARS}.
 */
export async function openRdfFile(
  path: string,
  stdin: Readable = process.stdin,
  onRead?: (bytes: number) => void,
  maxDocumentChars = DEFAULT_MAX_DOCUMENT_CHARS,
): Promise<RdfFile> {
  const isStdin = path === '-';
  const source = isStdin ? '<stdin>' : path;
  let raw: AsyncIterable<Buffer | string>;
  let reads: FileReads | undefined;
  if (isStdin) {
    raw = stdin;
  } else {
    reads = new FileReads(path, readBytesFor(maxDocumentChars));
    try {
      const info = await stat(path);
      if (info.isDirectory())
        throw new ToolkitError(`${path} is a directory, not an RDF file`, 'io', { details: { path } });
      raw = await reads.open();
    } catch (err) {
      if (err instanceof ToolkitError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
      throw new ToolkitError(`cannot open ${path}: ${why}`, 'io', { cause: err, details: { path } });
    }
  }
  const { first, stream } = await peek(raw, source, onRead);
  const gzip =
    (!isStdin && isGzipPath(path)) ||
    (first !== undefined && first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b);
  let input: Readable = stream;
  if (gzip) {
    const gunzip = createGunzip();
    const out = new PassThrough();
    const fail = (what: string) => (err: Error) => {
      if (!out.destroyed)
        out.destroy(
          new ToolkitError(`${source}: ${what} (${err.message})`, 'io', { cause: err, details: { path: source } }),
        );
    };
    stream.on('error', fail('cannot read'));
    gunzip.on('error', fail('not a valid gzip file'));
    stream.pipe(gunzip).pipe(out);
    out.on('close', () => {
      stream.destroy();
      gunzip.destroy();
    });
    input = out;
  }
  const release = reads && !gzip ? reads.release.bind(reads) : () => undefined;
  return { input, format: isStdin ? undefined : formatFromPath(path), source, gzip, release };
}

/**
 * The size of a read of a file held to `maxDocumentChars`: a 64th of the limit, at least 64 KiB and at most 1 MiB
 * (128 KiB at the default, 8 MiB). Reads dropped before the garbage collector frees them (by readers that do not give
 * them back, {@link FileReads}) count in the peak memory of a refused line: with 1 MiB reads, a 32 MB line refused at
 * 4 MiB took `validate` and `convert` 19 and 21 MB over their start, 64 KiB reads 4 and 10; 512 KiB reads, 10 and 11.
 * Reads of 128 KiB against 1 MiB (the default before): CPU 0.98 to 1.04x (noise: `convert --jobs 1` of 18 MB of
 * NDJSON, `validate --jobs 1` and `convert` to Turtle of 32 MB of N-Triples), peak RSS of the latter two 0.66-0.68x.
 */
export function readBytesFor(maxDocumentChars: number): number {
  return Math.max(1 << 16, Math.min(1 << 20, Math.floor(maxDocumentChars / 64)));
}

/** Reads the first chunk of a stream and returns a stream that yields it again, then the rest. */
async function peek(
  raw: AsyncIterable<Buffer | string>,
  source: string,
  onRead?: (bytes: number) => void,
): Promise<{ first: Buffer | undefined; stream: Readable }> {
  const iterator = raw[Symbol.asyncIterator]();
  let first: Buffer | undefined;
  try {
    const next = await iterator.next();
    if (!next.done) first = typeof next.value === 'string' ? Buffer.from(next.value) : (next.value as Buffer);
  } catch (err) {
    if (err instanceof ToolkitError) throw err; // interrupted: stdin was closed with the reason
    throw new ToolkitError(`cannot read ${source}: ${(err as Error).message}`, 'io', {
      cause: err,
      details: { path: source },
    });
  }
  async function* rest(): AsyncGenerator<Buffer> {
    if (first === undefined) return;
    onRead?.(first.length);
    yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : (next.value as Buffer);
      onRead?.(chunk.length);
      yield chunk;
    }
  }
  return { first, stream: Readable.from(rest(), { objectMode: false }) };
}
