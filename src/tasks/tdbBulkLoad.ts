import { existsSync, readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { abortError } from '../abort.js';
import { ToolkitError, ioError } from '../errors.js';
import { assertGraphIri } from '../store/defaultGraph.js';
import { JenaTdbTools, fileDoneOf, jenaMessage, toolError } from '../store/JenaTdbTools.js';
import { bulkFilesOf, expectedRange, type BulkManifestShard } from '../store/virtuosoBulkManifest.js';
import { countMismatchError, type BulkLoadProgress } from '../store/virtuosoBulkResults.js';

/** Options of {@link tdbBulkLoad}. */
export interface TdbBulkLoadOptions {
  /**
   * Dump files in any syntax Jena reads (N-Triples, N-Quads, Turtle, JSON-LD, RDF/XML; `.gz` too). Relative
   * names are taken in `cwd`. Defaults to the shards of `manifest` (one of the two is needed).
   */
  files?: readonly string[];
  /** The shard manifest (`name.manifest.json`): as for Virtuoso's bulk load, its shards are the files and the count is checked against it. Defaults to none (the count is reported, not checked). */
  manifest?: string;
  /** The graph the triples go into (`tdb2.tdbloader --graph`; the quads of an N-Quads file keep their own graphs). */
  graph: string;
  /** The TDB2 database folder to build or add to (`--loc`); created when missing. It must not be open in a running Fuseki. */
  location: string;
  /** Empty the graph first (`tdb2.tdbupdate DROP SILENT GRAPH`), so that the count check is exact. Defaults to false. */
  replace?: boolean;
  /** Check the graph's count against the manifest at the end. Defaults to true. */
  check?: boolean;
  /** Jena's `tdb2.tdbloader` script, or a folder of Jena's jars ({@link JenaTdbTools.find}). Defaults to `tdb2.tdbloader` on `PATH`. */
  tdbloader?: string;
  /** The folder relative names are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** Environment of the tools (`JAVA_HOME`, `JVM_ARGS`). Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Cancels the load: the loader is killed, and commits nothing. Defaults to none. */
  signal?: AbortSignal;
  /** Told how far the load is at each file the loader finishes. Defaults to none. */
  onProgress?: (progress: BulkLoadProgress) => void;
}

/** What a TDB2 bulk load did. */
export interface TdbBulkLoadSummary {
  graph: string;
  /** The database folder, absolute. */
  location: string;
  files: number;
  /** Triples and quads the loader read (repeats included). */
  tuples: number;
  /** Triples in the graph before the load (after `replace`). */
  countBefore: number;
  count: number;
  /** The count the manifest allows; undefined without a manifest or with `check: false`. */
  expected: { min: number; max: number; exact: boolean } | undefined;
  /** Time the loader ran, and the whole task, ms. */
  loadMs: number;
  elapsedMs: number;
}

interface TdbFile {
  path: string;
  bytes: number;
  shard: BulkManifestShard | undefined;
}

/**
 * Builds (or adds to) a TDB2 database for Fuseki with Apache Jena's own bulk loader, `tdb2.tdbloader`, from
 * dump files or the shards of a manifest, into one named graph; then counts the graph (`tdb2.tdbquery`) and
 * checks the count against the manifest as the Virtuoso bulk load does (`count-mismatch`). The loader is one
 * transaction: a file it cannot parse ends the load with nothing committed, and the error (`parse`) names
 * the file with Jena's message. The database is opened by one process at a time: build it before Fuseki
 * serves it (`fuseki-server --tdb2 --loc DIR /ds`), or stop Fuseki while loading.
 */
export async function tdbBulkLoad(options: TdbBulkLoadOptions): Promise<TdbBulkLoadSummary> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const { graph, signal } = options;
  assertGraphIri(graph);
  const location = resolve(cwd, options.location);
  const tools = JenaTdbTools.find(options.tdbloader ?? 'tdb2.tdbloader', options.env);
  const files = await filesOf(options, cwd);
  const exists = existsSync(location) && readdirSync(location).length > 0;
  if (exists && options.replace) await tools.dropGraph(location, graph, signal);
  const countBefore = exists ? await tools.count(location, graph, signal) : 0;
  if (signal?.aborted) throw abortError(signal);

  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  const done: number[] = [];
  const progress = (): BulkLoadProgress => ({
    filesTotal: files.length,
    filesLoaded: done.length,
    filesFailed: 0,
    filesLoading: done.length < files.length ? 1 : 0,
    bytesDone: files.slice(0, done.length).reduce((n, f) => n + f.bytes, 0),
    totalBytes,
    elapsedMs: performance.now() - started,
  });
  const loadStarted = performance.now();
  const run = await tools.run('tdb2.tdbloader', ['--loc', location, `--graph=${graph}`, ...files.map((f) => f.path)], {
    ...(signal ? { signal } : {}),
    onLine: (line) => {
      const file = fileDoneOf(line);
      if (!file) return;
      done.push(file.tuples);
      options.onProgress?.(progress());
    },
  });
  const loadMs = performance.now() - loadStarted;
  if (run.exitCode !== 0) {
    const failed = files[done.length];
    const message = jenaMessage(run.output);
    if (failed && /\bERROR\s+riot\b|RiotException/.test(run.output)) {
      throw new ToolkitError(
        `${failed.path}: Jena's loader could not read it: ${message}; nothing of this load was committed (tdb2.tdbloader is one transaction): fix the file and load again`,
        'parse',
        { details: { file: failed.path, location, loadedBefore: done.length, jena: message } },
      );
    }
    throw toolError('tdb2.tdbloader', location, run, `loading ${files.length} files into <${graph}>`);
  }
  options.onProgress?.(progress());
  const count = await tools.count(location, graph, signal);
  const withManifest = options.manifest !== undefined && options.check !== false;
  const summary: TdbBulkLoadSummary = {
    graph,
    location,
    files: files.length,
    tuples: done.reduce((n, t) => n + t, 0),
    countBefore,
    count,
    expected: withManifest
      ? expectedRange(
          files.map((f) => f.shard!),
          countBefore,
        )
      : undefined,
    loadMs,
    elapsedMs: performance.now() - started,
  };
  const mismatch = countMismatchError(summary);
  if (mismatch) throw mismatch;
  return summary;
}

/** The files to load, with their sizes and shards; `usage`/`io` errors naming the file. */
async function filesOf(options: TdbBulkLoadOptions, cwd: string): Promise<TdbFile[]> {
  const { paths, shards } = await bulkFilesOf(options.files, options.manifest, cwd);
  const names = new Set<string>();
  const files: TdbFile[] = [];
  for (const [i, path] of paths.entries()) {
    // The loader's log names files by their base name: two of one name could not be told apart.
    if (names.has(basename(path)))
      throw new ToolkitError(`${path}: two files named ${basename(path)}; give files of distinct names`, 'usage', {
        details: { file: path },
      });
    names.add(basename(path));
    let bytes: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new ToolkitError(`cannot load ${path}: it is not a file`, 'io', { details: { path } });
      bytes = info.size;
    } catch (err) {
      throw ioError(err, path, 'open');
    }
    const shard = shards[i];
    if (shard?.bytes !== undefined && bytes !== shard.bytes) {
      throw new ToolkitError(
        `${path} has ${bytes} bytes, the manifest says ${shard.bytes} (a partial copy, or another dump's shard?)`,
        'io',
        { details: { file: path } },
      );
    }
    files.push({ path, bytes, shard });
  }
  return files;
}
