import { ToolkitError } from '../errors.js';
import { expectedRange, type BulkManifestShard } from './virtuosoBulkManifest.js';
import type { LoadListRow } from './virtuosoIsqlText.js';

/** A file of a bulk load: where this process and the server see it, its size here, its shard in the manifest. */
export interface BulkFile {
  /** Absolute path here. */
  path: string;
  /** The path the server reads (`ld_add`). */
  serverPath: string;
  /** Size here; undefined when the file is only on the server. */
  bytes: number | undefined;
  shard: BulkManifestShard | undefined;
}

/** How one file of a bulk load ended. */
export interface BulkFileResult {
  /** The file as this process sees it (absolute). */
  file: string;
  /** The path Virtuoso read. */
  serverPath: string;
  /** `loaded`; `failed` (Virtuoso's error in `error`); `not-loaded` (still waiting or gone from `load_list`: the loaders stopped first). */
  state: 'loaded' | 'failed' | 'not-loaded';
  /** Virtuoso's `ll_error` (`37000 [Vectorized Turtle loader] SP029: TURTLE RDF loader, line 2: syntax error`). */
  error?: string;
}

/** How far a bulk load is (`BulkLoadOptions.onProgress`). */
export interface BulkLoadProgress {
  filesTotal: number;
  /** Files loaded without an error. */
  filesLoaded: number;
  /** Files Virtuoso could not load (a syntax error). */
  filesFailed: number;
  /** Files a loader is reading now. */
  filesLoading: number;
  /** Bytes (as stored: a `.gz` file's compressed size) of the files done, failed ones included. */
  bytesDone: number;
  /** Bytes of all the files; null when one of them is only on the server. */
  totalBytes: number | null;
  /** Time since the task started, ms. */
  elapsedMs: number;
}

/** The `load_list` rows of the files, by server path. */
function rowsByFile(rows: readonly LoadListRow[]): Map<string, LoadListRow> {
  return new Map(rows.map((r) => [r.file, r]));
}

/** The progress the `load_list` rows show. */
export function bulkProgressOf(
  files: readonly BulkFile[],
  rows: readonly LoadListRow[],
  elapsedMs: number,
): BulkLoadProgress {
  const byFile = rowsByFile(rows);
  const progress: BulkLoadProgress = {
    filesTotal: files.length,
    filesLoaded: 0,
    filesFailed: 0,
    filesLoading: 0,
    bytesDone: 0,
    totalBytes: 0,
    elapsedMs,
  };
  for (const file of files) {
    const row = byFile.get(file.serverPath);
    if (file.bytes === undefined) progress.totalBytes = null;
    else if (progress.totalBytes !== null) progress.totalBytes += file.bytes;
    if (row?.state === 1) progress.filesLoading++;
    if (row?.state !== 2) continue;
    if (row.error) progress.filesFailed++;
    else progress.filesLoaded++;
    progress.bytesDone += file.bytes ?? 0;
  }
  return progress;
}

/** How each file ended, by its `load_list` row after the loaders returned. */
export function bulkFileResults(files: readonly BulkFile[], rows: readonly LoadListRow[]): BulkFileResult[] {
  const byFile = rowsByFile(rows);
  return files.map((file) => {
    const row = byFile.get(file.serverPath);
    const base = { file: file.path, serverPath: file.serverPath };
    if (row?.state === 2 && !row.error) return { ...base, state: 'loaded' };
    if (row?.state === 2) return { ...base, state: 'failed', error: row.error! };
    return {
      ...base,
      state: 'not-loaded',
      error: row ? `still waiting in DB.DBA.load_list (state ${row.state})` : 'no longer in DB.DBA.load_list',
    };
  });
}

/**
 * The `parse` error of a load where files failed: names each with Virtuoso's
 * message, says the others were loaded, carries the summary.
 */
export function failedFilesError(
  failed: readonly BulkFileResult[],
  summary: { files: readonly unknown[]; count: number; graph: string },
): ToolkitError {
  const listed = failed
    .slice(0, 10)
    .map((f) => `${f.file}: ${f.error ?? f.state}`)
    .join('; ');
  const more = failed.length > 10 ? `; and ${failed.length - 10} more` : '';
  return new ToolkitError(
    `${failed.length} of ${summary.files.length} files were not loaded into <${summary.graph}> (the others were; the graph holds ${summary.count} triples): ${listed}${more}` +
      ' (Virtuoso keeps the triples a file had before its error: fix the file and load it again)',
    'parse',
    { details: { failures: failed.map((f) => ({ file: f.file, state: f.state, error: f.error })), summary } },
  );
}

/**
 * The count range the manifest's shards allow after `countBefore` (see `expectedRange`). With `results` (in the
 * order of `files`), that of the files loaded: a file that was not loaded adds nothing to the bottom of the range,
 * and its statements to the top (Virtuoso keeps the triples a file had before its error).
 */
export function expectedOfFiles(
  files: readonly BulkFile[],
  countBefore: number,
  results?: readonly BulkFileResult[],
): { min: number; max: number; exact: boolean } {
  if (!results)
    return expectedRange(
      files.map((f) => f.shard!),
      countBefore,
    );
  const loaded = files.filter((_, i) => results[i]?.state === 'loaded');
  const partly = files.filter((_, i) => results[i]?.state !== 'loaded').reduce((n, f) => n + f.shard!.triples, 0);
  const range = expectedRange(
    loaded.map((f) => f.shard!),
    countBefore,
  );
  return { min: range.min, max: range.max + partly, exact: range.exact && partly === 0 };
}

/**
 * The count a graph must hold after `distinct` distinct triples were loaded on top of `countBefore`: exactly
 * `distinct` into an empty graph; else (triples already there count once) bounds only.
 */
export function distinctRange(distinct: number, countBefore: number): { min: number; max: number; exact: boolean } {
  return countBefore === 0
    ? { min: distinct, max: distinct, exact: true }
    : { min: Math.max(countBefore, distinct), max: countBefore + distinct, exact: false };
}

/**
 * The `count-mismatch` error of a count outside the range the manifest
 * allows (naming the graph, the count and the range, the summary in
 * `details.summary`), or undefined when the count is in it.
 */
export function countMismatchError(summary: {
  graph: string;
  count: number;
  countBefore: number;
  distinctTriples?: number | undefined;
  expected: { min: number; max: number; exact: boolean } | undefined;
}): ToolkitError | undefined {
  const { graph, count, countBefore, expected: range } = summary;
  if (!range || (count >= range.min && count <= range.max)) return undefined;
  const expected = range.min === range.max ? `${range.max}` : `${range.min} to ${range.max}`;
  if (summary.distinctTriples !== undefined) {
    const why =
      count > range.max
        ? 'something else wrote to the graph during the load'
        : 'triples were lost although Virtuoso reported every file loaded: load again with replace';
    return new ToolkitError(
      `the graph <${graph}> holds ${count} triples, ${expected} expected (${countBefore} before + ${summary.distinctTriples} distinct triples in the files): ${why}`,
      'count-mismatch',
      {
        details: { graph, count, expected: range, summary },
      },
    );
  }
  const why =
    count > range.max
      ? 'something else wrote to the graph during the load'
      : `${countBefore > 0 ? 'triples already in the graph count once (use replace for an exact check); ' : ''}a triple the dump repeats (a shared journal or person) counts once in a graph` +
        `${range.exact ? ' and the manifest gives no sharedTriples to allow for it' : ''}; if the dump repeats none, triples were lost`;
  return new ToolkitError(
    `the graph <${graph}> holds ${count} triples, ${expected} expected (${countBefore} before + the manifest's triples): ${why}`,
    'count-mismatch',
    {
      details: { graph, count, expected: range, summary },
    },
  );
}
