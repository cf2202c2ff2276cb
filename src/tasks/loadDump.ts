import { rerunAdvice } from './rerunAdvice.js';
import type * as RDF from '@rdfjs/types';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { ToolkitError } from '../errors.js';
import { NTriplesChunkReader, type LoadSource } from '../store/NTriplesChunkReader.js';
import { openLoadSources } from '../store/openLoadSources.js';
import { refuseFilesBeingExported } from './refuseFilesBeingExported.js';
import { parseRdfQuads } from '../parse/parseRdf.js';
import { graphOfFileName } from '../store/defaultGraph.js';
import { GraphStoreLoader, type GraphStoreLoaderOptions, type LoadSummary } from '../store/GraphStoreLoader.js';
import type { LoadInput } from '../store/LoadLog.js';
import { storedBytes } from './inputSizes.js';
import { ProgressTicker } from './ProgressTicker.js';
import { type ReadLimits, readLimitsOf } from '../parse/limits.js';
import { refuseOverwritingInputs } from './refuseOverwritingInputs.js';

/** Options of {@link loadDump}. */
export interface LoadDumpOptions
  extends Omit<GraphStoreLoaderOptions, 'inputs' | 'fallbackGraph' | 'statePath' | 'statePathOf'>, ReadLimits {
  /** RDF files (any of the five formats, `.gz` too); `-` reads `stdin`. */
  files: readonly string[];
  /** What `-` reads. Defaults to `process.stdin`. */
  stdin?: Readable;
  /**
   * The load log recording acknowledged chunks. Defaults to
   * `<first file's name>.<key>.load-state.json` beside the first file, the key a hash of the
   * files' paths and the graph (two loads of one file into two graphs keep two logs); none for
   * stdin (such a load cannot be resumed). `resume` without a keyed log takes `<first file's name>.load-state.json`
   * (the name of earlier versions) when it records the same graph.
   */
  statePath?: string;
  /** Load an input that an export is still writing (its lock is held), as it is now. Defaults to false (refused, code `usage`). */
  ignoreExportLock?: boolean;
  /** Read the dump of an export that has not finished (its state says so, or a `.partial` file) as it is. Defaults to false (refused, code `usage`). */
  allowPartial?: boolean;
  /** The folder relative file names (and the default load log) are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** Told how far the load is, as the inputs are read (at most every 200 ms) and at each acknowledged chunk. Defaults to none. */
  onProgress?: (progress: LoadProgress) => void;
}

/** How far a load is: {@link LoadDumpOptions.onProgress}. */
export interface LoadProgress {
  /** Bytes of the inputs read so far, as stored (a `.gz` file's compressed bytes, as read from disk). */
  bytesRead: number;
  /** Bytes of all the inputs as stored; `null` when one of them is stdin (its size is not known). */
  totalBytes: number | null;
  /** Triples read from the inputs so far (with `resume`, those of the chunks acknowledged before too, read again and skipped). */
  triplesRead: number;
  /** Triples the store acknowledged, earlier runs of a resumed load included. */
  triplesAcked: number;
  /** Chunks the store acknowledged in this run. */
  chunksAcked: number;
  /** Time since the inputs began to be read, ms. */
  elapsedMs: number;
}

/** What a load did, and where its load log is. */
export interface LoadDumpSummary extends LoadSummary {
  /** The load log (none for stdin without `statePath`). */
  statePath: string | undefined;
}

/**
 * Loads RDF dumps into one graph of a triple store over the SPARQL Graph
 * Store Protocol: sends chunks (resumably, by the load log), and checks the
 * graph's count at the end. N-Triples and N-Quads go line by line as they are
 * written, each line checked by a fast scanner ({@link NTriplesChunkReader});
 * other formats (and `chunkFormat: 'turtle'`) are parsed as a stream and
 * written again. An input an export still writes is refused unless `ignoreExportLock`. The endpoint may carry
 * `user:password@`, taken out of the URL as credentials when none are given.
 * A failure after chunks were acknowledged says so in its details
 * (`statePath`, `progressSaved: true`): resuming continues it.
 */
export async function loadDump(options: LoadDumpOptions): Promise<LoadDumpSummary> {
  const { files } = options;
  if (files.length === 0) throw new ToolkitError('nothing to load: no files given', 'usage');
  if (files.filter((p) => p === '-').length > 1) throw new ToolkitError('stdin (-) can be read only once', 'usage');
  let credentials = options.credentials;
  const take = (value: string | undefined): string | undefined => {
    const found = value === undefined ? undefined : splitCredentials(value);
    if (!found) return value;
    if (found.user !== undefined && credentials === undefined)
      credentials = { user: found.user, password: found.password };
    return found.url;
  };
  const endpoint = take(options.endpoint)!;
  const queryEndpoint = take(options.queryEndpoint);
  const updateEndpoint = take(options.updateEndpoint);
  const cwd = options.cwd ?? process.cwd();
  const here = (path: string) => (path === '-' ? path : resolve(cwd, path));
  const inputs = await inputsOf(files, here);
  await refuseFilesBeingExported(files.filter((f) => f !== '-').map(here), 'load', {
    ...(options.ignoreExportLock ? { ignoreExportLock: true } : {}),
    ...(options.allowPartial ? { allowPartial: true } : {}),
  });
  const fixedStatePath = options.statePath === undefined ? undefined : loadLogPath(files, options.statePath, cwd);
  if (options.resume && fixedStatePath === undefined && files[0] === '-')
    throw new ToolkitError('`resume` of stdin needs a load log (`statePath`)', 'usage');
  // Whether this run wrote the load log (an old one left by another load is no place to resume from).
  let logBefore: number | undefined;
  const statePathOf = (graph: string): string => {
    const path = fixedStatePath ?? keyedOrEarlierLog(files, cwd, graph, Boolean(options.resume));
    refuseOverwritingInputs([{ path, what: 'the load log' }], files.map(here));
    logBefore = modifiedAt(path);
    return path;
  };
  if (fixedStatePath) statePathOf('');
  const { stdin, signal } = options;
  const done = { bytes: 0, total: storedBytes(files.map(here)), triples: 0, acked: 0, chunks: 0 };
  const sources = openLoadSources(files.map(here), files, {
    ...(stdin ? { stdin } : {}),
    onRead,
    ...readLimitsOf(options),
    ...(signal ? { signal } : {}),
  });
  const reader =
    (options.chunkFormat ?? 'ntriples') === 'ntriples'
      ? new NTriplesChunkReader(sources, {
          chunkTriples: options.chunkTriples ?? 50_000,
          ...(options.maxDocumentChars !== undefined ? { maxLineBytes: options.maxDocumentChars } : {}),
          labelsPerInput: files.length > 1,
          ...(signal ? { signal } : {}),
        })
      : undefined;
  const progress = new ProgressTicker(
    options.onProgress &&
      ((elapsedMs) =>
        options.onProgress!({
          bytesRead: done.bytes,
          totalBytes: done.total,
          triplesRead: reader?.triplesRead ?? done.triples,
          triplesAcked: done.acked,
          chunksAcked: done.chunks,
          elapsedMs,
        })),
  );
  function onRead(bytes: number): void {
    done.bytes += bytes;
    progress.tick();
  }
  const loader = new GraphStoreLoader({
    ...options,
    endpoint,
    ...(queryEndpoint !== undefined ? { queryEndpoint } : {}),
    ...(updateEndpoint !== undefined ? { updateEndpoint } : {}),
    ...(credentials ? { credentials } : {}),
    fallbackGraph: graphOfFileName(files[0]!),
    ...(fixedStatePath ? { statePath: fixedStatePath } : {}),
    ...(files[0] !== '-' || fixedStatePath ? { statePathOf } : {}),
    inputs,
    onChunk: (event) => {
      done.acked = event.totalTriples;
      done.chunks++;
      options.onChunk?.(event);
      progress.flush();
    },
  });
  try {
    return {
      ...(await (reader ? loader.loadChunks(reader) : loader.load(quadsOf(sources, signal, () => done.triples++)))),
      statePath: loader.statePath,
    };
  } catch (err) {
    const statePath = loader.statePath;
    if (!(err instanceof ToolkitError) || !statePath) throw err;
    if (err.code === 'count-mismatch' || err.details['countTimedOut']) throw withDetails(err, { statePath });
    if (err.code === 'network' || err.code === 'http-status' || err.code === 'aborted' || err.code === 'io') {
      const progressSaved = modifiedAt(statePath) !== logBefore;
      throw withDetails(err, { statePath, progressSaved }, rerunAdvice(progressSaved, 'chunks acknowledged'));
    }
    throw err;
  }
}

/**
 * The quads of the inputs, for chunks written as Turtle: N-Triples and N-Quads parsed too (every quad into
 * the one target graph; what a JSON-LD processor would drop is an error: a load that leaves data out must
 * not look complete).
 */
async function* quadsOf(
  sources: AsyncIterable<LoadSource>,
  signal: AbortSignal | undefined,
  onQuad: () => void,
): AsyncGenerator<RDF.Quad> {
  for await (const input of sources) {
    const quads =
      input.kind === 'quads'
        ? input.quads
        : parseRdfQuads(input.bytes, {
            format: input.nquads ? 'nquads' : 'ntriples',
            source: input.source,
            ...(signal ? { signal } : {}),
            ignoreGraphs: true,
            strict: true,
          });
    for await (const quad of quads) {
      onQuad();
      yield quad;
    }
  }
}

/**
 * Where a load keeps its log: `statePath` (relative to `cwd`), else
 * `<first file's name>.<key>.load-state.json` beside the first file, the key 8 hex digits of a hash of the
 * files' absolute paths and the `graph` (without a graph: `<first file's name>.load-state.json`,
 * the name of earlier versions); none for stdin without `statePath`.
 */
export function loadLogPath(
  files: readonly string[],
  statePath: string | undefined,
  cwd: string = process.cwd(),
  graph?: string,
): string | undefined {
  if (statePath !== undefined) return resolve(cwd, statePath);
  if (files[0] === undefined || files[0] === '-') return undefined;
  // Beside the dump, not in the working folder (which would collect the logs of every dump loaded from it).
  const folder = dirname(resolve(cwd, files[0]));
  if (graph === undefined) return resolve(folder, `${basename(files[0])}.load-state.json`);
  const key = createHash('sha256')
    .update(JSON.stringify([files.map((f) => (f === '-' ? f : resolve(cwd, f))), graph]))
    .digest('hex')
    .slice(0, 8);
  return resolve(folder, `${basename(files[0])}.${key}.load-state.json`);
}

/**
 * The default load log of a load into `graph`: keyed by the files and the graph; when resuming and there is
 * none, the log of an earlier version (`<first file's name>.load-state.json`) if it records this graph.
 */
function keyedOrEarlierLog(files: readonly string[], cwd: string, graph: string, resume: boolean): string {
  const keyed = loadLogPath(files, undefined, cwd, graph)!;
  if (!resume || existsSync(keyed)) return keyed;
  const earlier = loadLogPath(files, undefined, cwd)!;
  try {
    return (JSON.parse(readFileSync(earlier, 'utf8')) as { graph?: unknown }).graph === graph ? earlier : keyed;
  } catch {
    return keyed;
  }
}

/** The error with more details (its message and code kept). */
function withDetails(err: ToolkitError, details: Record<string, unknown>, advice = ''): ToolkitError {
  return new ToolkitError(err.message + advice, err.code, { cause: err, details: { ...err.details, ...details } });
}

/** The files with their size and time, so that resuming a load of changed files is refused. */
async function inputsOf(files: readonly string[], here: (path: string) => string): Promise<LoadInput[]> {
  const inputs: LoadInput[] = [];
  for (const path of files) {
    if (path === '-') {
      inputs.push({ path: '-' });
      continue;
    }
    try {
      const info = await stat(here(path));
      inputs.push({ path, size: info.size, mtimeMs: Math.round(info.mtimeMs) });
    } catch (err) {
      throw new ToolkitError(`cannot open ${path}: no such file`, 'io', { cause: err });
    }
  }
  return inputs;
}

/** When a file was last written (ms), or undefined when there is none. */
function modifiedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** A URL without its `user:password@`, and what was there; undefined when it is no URL or has none. */
function splitCredentials(value: string): { url: string; user: string | undefined; password: string } | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined; // not a URL: the loader says so, without the part before @
  }
  if (!url.username && !url.password) return undefined;
  const user = url.username ? decodeOrKeep(url.username) : undefined;
  const password = decodeOrKeep(url.password);
  url.username = '';
  url.password = '';
  return { url: url.toString(), user, password };
}

/** A percent-decoded user or password of a URL; as written when it is no valid escape (`S3cret%PW`). */
function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
