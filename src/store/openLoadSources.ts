import type { Readable } from 'node:stream';
import { isLineFormat, type FormatName } from '../formats.js';
import { openRdfFile } from '../parse/openRdfFile.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { sniffFormat } from '../parse/sniffFormat.js';
import { type ReadLimits, readLimitsOf } from '../parse/limits.js';
import type { LoadSource } from './NTriplesChunkReader.js';

/** Options of {@link openLoadSources}. */
export interface OpenLoadSourcesOptions extends ReadLimits {
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** Told the size of each piece read from a file or stdin (before gunzip). Defaults to nothing. */
  onRead?: (bytes: number) => void;
  /** Cancels parsing. Defaults to none. */
  signal?: AbortSignal;
}

const SNIFF_BYTES = 4096;

/**
 * Opens the inputs of a load one after the other, as {@link NTriplesChunkReader} reads them: N-Triples and
 * N-Quads (by the file's extension, else by its first 4 KiB) as bytes, sent line by line as they are; any
 * other format parsed into quads (strictly: what a JSON-LD processor would drop is an error, every quad for
 * the one target graph). `paths` are opened as given (`-` is stdin); `names` name them in messages.
 */
export async function* openLoadSources(
  paths: readonly string[],
  names: readonly string[],
  options: OpenLoadSourcesOptions = {},
): AsyncGenerator<LoadSource> {
  const { signal } = options;
  for (let i = 0; i < paths.length; i++) {
    const file = await openRdfFile(paths[i]!, options.stdin, options.onRead);
    const source = file.source === '<stdin>' ? file.source : names[i]!;
    let format: FormatName | undefined = file.format;
    let bytes: AsyncIterable<Buffer> = file.input;
    if (format === undefined) ({ format, bytes } = await sniffBytes(file.input));
    if (isLineFormat(format)) {
      yield { kind: 'lines', source, bytes, nquads: format === 'nquads' };
    } else {
      yield {
        kind: 'quads',
        source,
        quads: parseRdfQuads(bytes, {
          ...(format !== undefined ? { format } : {}),
          source,
          ...readLimitsOf(options),
          ...(signal ? { signal } : {}),
          ignoreGraphs: true,
          strict: true,
        }),
      };
    }
  }
}

/** The format the first 4 KiB of a stream tell (`undefined` when they do not: parseRdf then says why), and the whole stream. */
async function sniffBytes(
  input: AsyncIterable<Buffer>,
): Promise<{ format: FormatName | undefined; bytes: AsyncIterable<Buffer> }> {
  const iterator = input[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
  }
  const sniffed = sniffFormat(Buffer.concat(head).toString('utf8'));
  async function* bytes(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { format: sniffed === 'html' ? undefined : sniffed, bytes: bytes() };
}
