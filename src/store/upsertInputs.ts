import type * as RDF from '@rdfjs/types';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { openRdfFile } from '../parse/openRdfFile.js';
import { parseRdfQuads } from '../parse/parseRdf.js';

/** The quads of a delta's files, and where the `n`th of them is. */
export interface UpsertInputs {
  /** The quads of every file in turn, streamed (graphs kept). */
  quads: AsyncIterable<RDF.Quad>;
  /** Where the `n`th quad (1-based, over all files) is: `file line L` for N-Quads (read again to find it), else `file, quad k`. */
  locate: (n: number) => Promise<string>;
}

/** Options of {@link upsertInputs}. */
export interface UpsertInputsOptions {
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /** Told the bytes read from the files (as stored). Defaults to none. */
  onRead?: (bytes: number) => void;
  signal?: AbortSignal;
}

/**
 * Opens the files of a delta dump (any of the five formats, `.gz` too; `-` for stdin) and streams their
 * quads with their graphs ({@link parseRdf}, strict as `load` is: what a JSON-LD processor would drop is an
 * error), in memory that does not grow with the files (JSON-LD too). `paths` are where the files are; `names` what messages call them.
 */
export function upsertInputs(
  paths: readonly string[],
  names: readonly string[],
  options: UpsertInputsOptions = {},
): UpsertInputs {
  // The first quad number of each file, once it is opened.
  const starts: { path: string; name: string; first: number; nquads: boolean }[] = [];
  let n = 0;
  async function* quads(): AsyncGenerator<RDF.Quad> {
    for (let i = 0; i < paths.length; i++) {
      const file = await openRdfFile(paths[i]!, options.stdin, options.onRead);
      starts.push({
        path: paths[i]!,
        name: names[i]!,
        first: n + 1,
        nquads: file.format === 'nquads' && paths[i] !== '-',
      });
      const source = file.source === '<stdin>' ? file.source : names[i]!;
      // `ignoreGraphs`: a JSON-LD dump's top-level `@graph` is read in pieces (memory does not grow with it); the
      // record graphs inside it keep their names, only a name given to the top-level graph by an `@id` after
      // `@graph` would be lost (its quads then come in the default graph, which the upsert refuses).
      const parsed = parseRdfQuads(file.input, {
        format: file.format,
        source,
        strict: true,
        ignoreGraphs: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      for await (const quad of parsed) {
        n++;
        yield quad;
      }
    }
  }
  async function locate(at: number): Promise<string> {
    const file = [...starts].reverse().find((s) => s.first <= at);
    if (!file) return `quad ${at}`;
    const k = at - file.first + 1;
    if (!file.nquads) return `${file.name === '-' ? '<stdin>' : file.name}, quad ${k}`;
    const line = await statementLine(file.path, k);
    return line === undefined ? `${file.name}, quad ${k}` : `${file.name} line ${line}`;
  }
  return { quads: quads(), locate };
}

/** The line of the `k`th statement of an N-Quads file (one statement a line; blank and comment lines skipped). */
async function statementLine(path: string, k: number): Promise<number | undefined> {
  const file = await openRdfFile(path);
  const lines = createInterface({ input: file.input, crlfDelay: Infinity });
  let line = 0;
  let statements = 0;
  try {
    for await (const text of lines) {
      line++;
      const t = text.trim();
      if (t === '' || t.startsWith('#')) continue;
      if (++statements === k) return line;
    }
  } finally {
    lines.close();
    file.input.destroy();
  }
  return undefined;
}
