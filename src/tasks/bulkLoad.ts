import { stat } from 'node:fs/promises';
import { basename, posix } from 'node:path';
import { abortError } from '../abort.js';
import { refuseFilesBeingExported } from './refuseFilesBeingExported.js';
import { ToolkitError } from '../errors.js';
import { formatFromPath } from '../formats.js';
import { VirtuosoIsql, type VirtuosoIsqlOptions } from '../store/VirtuosoIsql.js';
import { bulkFilesOf } from '../store/virtuosoBulkManifest.js';
import { runBulkJobs } from '../store/virtuosoBulkJobs.js';
import {
  checkServerCanRead,
  checkpoint,
  clearGraph,
  countTriples,
  loadListOf,
  otherLoadsOfGraph,
  otherWaitingFiles,
  registerFiles,
  unregisterWaiting,
} from '../store/virtuosoBulkSteps.js';
import { waitForIdleLoaders, type BusyLoaders } from '../store/waitForIdleLoaders.js';
import { sparqlIri } from '../store/virtuosoIsqlText.js';
import { countDumpTriples } from '../store/countDumpTriples.js';
import {
  bulkFileResults,
  distinctRange,
  bulkProgressOf,
  countMismatchError,
  expectedOfFiles,
  failedFilesError,
  type BulkFile,
  type BulkFileResult,
  type BulkLoadProgress,
} from '../store/virtuosoBulkResults.js';

export type { BulkFileResult, BulkLoadProgress } from '../store/virtuosoBulkResults.js';
export { describeBusyLoaders, type BusyLoaders } from '../store/waitForIdleLoaders.js';

/** Options of {@link bulkLoad}. */
export interface BulkLoadOptions extends Omit<VirtuosoIsqlOptions, 'command'> {
  /**
   * Dump files: N-Triples, N-Quads or Turtle, `.gz` too (Virtuoso's loader
   * picks the syntax by the extension). Relative names are taken in `cwd`.
   * Defaults to the shards of `manifest` (one of the two is needed).
   */
  files?: readonly string[];
  /** The graph to load into (an absolute IRI). Quads of an N-Quads file that name a graph go into that graph (Virtuoso's loader keeps them). */
  graph: string;
  /**
   * The shard manifest of the dump (`name.manifest.json`): its shards are the
   * files (or must be the same as `files`), a shard's `bytes` is checked
   * against the file's size, and at the end the graph's count against the sum
   * of the shards' `triples`. Defaults to none: the count is reported, not checked.
   */
  manifest?: string;
  /** `rdf_loader_run()` sessions at once (Virtuoso's advice: cores / 2.5 on a dedicated server). Defaults to 2. */
  jobs?: number;
  /**
   * The folder the server sees the files in, when it is not where this
   * process sees them (Virtuoso in a container with the dump mounted at
   * `/data`): each file is registered as `serverDir/<its name>`. The folder
   * must be listed in `DirsAllowed` of the server's virtuoso.ini. Defaults to
   * each file's own folder (the server runs on this machine).
   */
  serverDir?: string;
  /** Load the dump of an export that has not finished (its state says so, or a `.partial` file) as it is. Defaults to false (refused, code `usage`; see `refuseFilesBeingExported`). */
  allowPartial?: boolean;
  /** Empty the graph first (`CLEAR GRAPH`), so that the count check is exact. Defaults to false. */
  replace?: boolean;
  /**
   * Check the graph's count at the end: the files are read here (while the server loads them) and their
   * distinct triples counted (see {@link countDumpTriples}); files only the server sees are checked against
   * the manifest, if any. Defaults to true.
   */
  check?: boolean;
  /** Virtuoso's `isql` client. Defaults to `isql-vt` (Debian's name; `isql` in OpenLink's builds). */
  isqlCommand?: string;
  /** How often `DB.DBA.load_list` is read while the loaders run, ms. Defaults to 1000. */
  pollMs?: number;
  /** The folder relative file names are taken in. Defaults to `process.cwd()`. */
  cwd?: string;
  /** Cancels the load: the running loaders are told to stop after their current file (`rdf_load_stop()`), then `aborted` is thrown. Defaults to none. */
  signal?: AbortSignal;
  /**
   * Told, before anything is changed, of loaders found running (files in state 1 of `load_list`, any graph; `isql`
   * clients of a killed load on this machine): the load waits until they end (reading every `pollMs`). Defaults to none.
   */
  onWait?: (busy: BusyLoaders) => void;
  /** Told how far the load is, at each reading of `load_list` and at the end. Defaults to none. */
  onProgress?: (progress: BulkLoadProgress) => void;
}

/** What a bulk load did. */
export interface BulkLoadSummary {
  graph: string;
  /** Each file: loaded, failed (with Virtuoso's error) or not loaded. */
  files: BulkFileResult[];
  loadedFiles: number;
  failedFiles: number;
  /** Triples in the graph before the load (after `replace`). */
  countBefore: number;
  /** Triples in the graph after the load and the checkpoint. */
  count: number;
  /** The distinct triples of the files, as this process read them (undefined with `check: false` or files only the server sees). */
  distinctTriples: number | undefined;
  /**
   * The count the graph must hold: with the files read here and all loaded, exactly `distinctTriples` into an
   * empty (or replaced) graph, else at least the larger of `countBefore` and `distinctTriples` and at most their
   * sum (`exact: false`: triples already there count once; an exact count needs `replace`). Without the files
   * read, the count the manifest allows (`min` to `max`) for the files loaded (a file not loaded raises only `max`, by its
   * statements: it may be partly loaded); undefined without a manifest or with `check: false`.
   */
  expected: { min: number; max: number; exact: boolean } | undefined;
  /** Loaders found running before the load (it waited for them to end); undefined when none. */
  waitedFor: BusyLoaders | undefined;
  /** Files of other graphs that waited in `load_list` before this load (its loaders loaded them too). */
  otherWaitingFiles: number;
  jobs: number;
  /** Time the loaders ran, the checkpoint took, and the whole task took, ms. */
  loadMs: number;
  checkpointMs: number;
  elapsedMs: number;
}

/**
 * Loads dump files into a graph of Virtuoso 7 with its own bulk loader, over
 * `isql` sessions on the SQL port: checks that the server may read the files
 * (`DirsAllowed`), registers them (`ld_add`), runs `rdf_loader_run()` in
 * `jobs` sessions at once while reading `DB.DBA.load_list` for progress,
 * `checkpoint`s, and counts the graph. A file Virtuoso could not load (a
 * syntax error) does not stop the others: they are loaded, then a `parse`
 * error names each failed file with Virtuoso's message (the summary in
 * `details.summary`). With a manifest, a count outside what it allows is
 * `count-mismatch`.
 */
export async function bulkLoad(options: BulkLoadOptions): Promise<BulkLoadSummary> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const jobs = options.jobs ?? 2;
  const { graph, signal } = options;
  if (!options.password) throw new ToolkitError('the bulk load needs the password of the Virtuoso SQL user', 'usage');
  if (!Number.isSafeInteger(jobs) || jobs < 1)
    throw new ToolkitError(`jobs must be a whole number ≥ 1, not ${jobs}`, 'usage');
  sparqlIri(graph);
  const files = await filesOf(options, cwd);
  await refuseFilesBeingExported(
    files.filter((f) => f.bytes !== undefined).map((f) => f.path),
    'load',
    { ...(options.allowPartial ? { allowPartial: true } : {}) },
  );
  const isqlOptions: VirtuosoIsqlOptions = {
    ...pick(options),
    ...(options.isqlCommand !== undefined ? { command: options.isqlCommand } : {}),
  };
  if (signal?.aborted) throw abortError(signal);
  const control = await VirtuosoIsql.open(isqlOptions);
  try {
    const serverPaths = files.map((f) => f.serverPath);
    // Every check before any change: a CLEAR or a loader run beside running loaders loses triples of other graphs.
    await checkServerCanRead(control, serverPaths);
    const others = await otherLoadsOfGraph(control, graph, serverPaths);
    if (others.length > 0) {
      throw new ToolkitError(
        `another load of <${graph}> waits in DB.DBA.load_list (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', ...' : ''}): its files would be loaded with these and the count could not be checked; ` +
          `let it end (rdf_loader_run()) or take its rows out of DB.DBA.load_list; nothing was changed`,
        'usage',
        { details: { files: others } },
      );
    }
    // The distinct triples of the files, read here while the server loads them (files only the server sees: none).
    const counting =
      options.check !== false && files.every((f) => f.bytes !== undefined)
        ? countDumpTriples(
            files.map((f) => f.path),
            signal,
          ).then(
            (n) => n,
            () => undefined,
          )
        : Promise.resolve(undefined);
    const waitedFor = await waitForIdleLoaders(control, {
      pollMs: options.pollMs ?? 1000,
      ...(signal ? { signal } : {}),
      ...(options.onWait ? { onWait: options.onWait } : {}),
    });
    if (signal?.aborted) throw abortError(signal);
    if (options.replace) await clearGraph(control, graph);
    const countBefore = await countTriples(control, graph);
    const otherWaiting = await otherWaitingFiles(control, graph);
    if (signal?.aborted) throw abortError(signal);
    await registerFiles(control, serverPaths, graph);
    const loadStarted = performance.now();
    const report = options.onProgress;
    await runBulkJobs({
      control,
      jobs,
      open: () => VirtuosoIsql.open(isqlOptions),
      pollMs: options.pollMs ?? 1000,
      ...(signal ? { signal } : {}),
      poll: async () => report?.(bulkProgressOf(files, await loadListOf(control, graph), performance.now() - started)),
    }).catch(async (err: unknown) => {
      // Cancelled: what was not begun must not be loaded by a later rdf_loader_run() of someone else.
      if (err instanceof ToolkitError && err.code === 'aborted')
        await unregisterWaiting(control, serverPaths).catch(() => undefined);
      throw err;
    });
    const loadMs = performance.now() - loadStarted;
    const rows = await loadListOf(control, graph);
    const checkpointStarted = performance.now();
    await checkpoint(control);
    const checkpointMs = performance.now() - checkpointStarted;
    const count = await countTriples(control, graph);
    const results = bulkFileResults(files, rows);
    report?.(bulkProgressOf(files, rows, performance.now() - started));
    const failed = results.filter((r) => r.state !== 'loaded');
    const withManifest = options.manifest !== undefined && options.check !== false;
    const counted = await counting;
    const summary: BulkLoadSummary = {
      graph,
      files: results,
      loadedFiles: results.length - failed.length,
      failedFiles: failed.length,
      countBefore,
      count,
      distinctTriples: counted?.distinct,
      expected:
        counted && failed.length === 0
          ? distinctRange(counted.distinct, countBefore)
          : withManifest
            ? expectedOfFiles(files, countBefore, results)
            : undefined,
      waitedFor,
      otherWaitingFiles: otherWaiting,
      jobs,
      loadMs,
      checkpointMs,
      elapsedMs: performance.now() - started,
    };
    if (failed.length > 0) throw failedFilesError(failed, summary);
    const mismatch = countMismatchError(summary);
    if (mismatch) throw mismatch;
    return summary;
  } finally {
    await control.close();
  }
}

/** The isql connection options of the task's options. */
function pick(options: BulkLoadOptions): VirtuosoIsqlOptions {
  return {
    password: options.password,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.user !== undefined ? { user: options.user } : {}),
  };
}

/** The files to load: local path, size, path on the server, and the manifest's shard; `usage`/`io` errors naming the file. */
async function filesOf(options: BulkLoadOptions, cwd: string): Promise<BulkFile[]> {
  const { paths, shards } = await bulkFilesOf(options.files, options.manifest, cwd);
  const serverDir = options.serverDir;
  const seen = new Set<string>();
  const files: BulkFile[] = [];
  for (const [i, path] of paths.entries()) {
    if (formatFromPath(path) === 'jsonld') {
      throw new ToolkitError(
        `${path}: Virtuoso's bulk loader does not read JSON-LD; convert it to N-Triples (convert -f ntriples) or load it over the Graph Store Protocol`,
        'usage',
        { details: { file: path } },
      );
    }
    const serverPath = serverDir !== undefined ? posix.join(serverDir, basename(path)) : path;
    if (seen.has(serverPath))
      throw new ToolkitError(`${path}: given twice (the server would see both as ${serverPath})`, 'usage', {
        details: { file: path },
      });
    seen.add(serverPath);
    const bytes = await sizeOf(path, serverDir !== undefined);
    const shard = shards[i];
    if (shard?.bytes !== undefined && bytes !== undefined && bytes !== shard.bytes) {
      throw new ToolkitError(
        `${path} has ${bytes} bytes, the manifest says ${shard.bytes} (a partial copy, or another dump's shard?)`,
        'io',
        { details: { file: path } },
      );
    }
    files.push({ path, serverPath, bytes, shard });
  }
  return files;
}

/** A file's size; undefined when it is not here but may be on the server (`serverDir`), else `io`. */
async function sizeOf(path: string, mayBeElsewhere: boolean): Promise<number | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ToolkitError(`cannot load ${path}: it is not a file`, 'io', { details: { path } });
    return info.size;
  } catch (err) {
    if (err instanceof ToolkitError) throw err;
    if (mayBeElsewhere && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolkitError(`cannot open ${path}: no such file`, 'io', { cause: err, details: { path } });
  }
}
