import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ParseError, ToolkitError, ioError } from '../errors.js';
import { minimumDistinctTriples } from '../mapping/sharedTriples.js';

/**
 * The shard manifest of a sharded dump (`name.manifest.json`, written by
 * `export`/`convert --shard-records`) as the bulk loader reads it. Fields
 * read: `shards[].file` (relative to the manifest's folder), `shards[].triples`
 * (statements written, repeats included), `shards[].bytes` (size on disk,
 * optional), `shards[].sharedTriples` (optional: its statements that are
 * {@link isSharedTriple}, which records repeat), and the total `triples` or `totals.triples`
 * (optional, checked against the shards' sum). Other fields are ignored.
 */
export interface BulkManifest {
  /** The manifest file, absolute. */
  path: string;
  shards: BulkManifestShard[];
  /** The sum of the shards' `triples`. */
  triples: number;
  /** The sum of the shards' `sharedTriples`; undefined when a shard does not give it. */
  sharedTriples: number | undefined;
}

/** One shard of a {@link BulkManifest}. */
export interface BulkManifestShard {
  /** As the manifest names it. */
  file: string;
  /** Absolute path (the manifest's folder + `file`). */
  path: string;
  triples: number;
  bytes: number | undefined;
  sharedTriples: number | undefined;
}

/** Reads a manifest: `io` when it cannot be read, `parse` (naming the manifest and the field) when it is not one. */
export async function readBulkManifest(path: string): Promise<BulkManifest> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (err) {
    throw ioError(err, path, 'read', 'the manifest');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ParseError(`not JSON (${(err as Error).message})`, path, undefined, undefined, { cause: err });
  }
  return bulkManifestOf(json, absolute, path);
}

/** A manifest's JSON as a {@link BulkManifest}; `source` names it in errors. */
export function bulkManifestOf(json: unknown, absolute: string, source: string = absolute): BulkManifest {
  const bad = (field: string, why: string) => new ParseError(`field ${field}: ${why}`, source);
  const shardsJson = (json as { shards?: unknown } | null)?.shards;
  if (!Array.isArray(shardsJson) || shardsJson.length === 0)
    throw bad('shards', 'a non-empty array of shards is expected');
  const shards = shardsJson.map((s: unknown, i): BulkManifestShard => {
    const shard = (s ?? {}) as Record<string, unknown>;
    const file = shard['file'];
    if (typeof file !== 'string' || file === '') throw bad(`shards[${i}].file`, 'a file name is expected');
    const count = (key: string, required: boolean): number | undefined => {
      const value = shard[key];
      if (value === undefined && !required) return undefined;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        throw bad(`shards[${i}].${key}`, 'a whole number ≥ 0 is expected');
      return value;
    };
    return {
      file,
      path: resolve(dirname(absolute), file),
      triples: count('triples', true)!,
      bytes: count('bytes', false),
      sharedTriples: count('sharedTriples', false),
    };
  });
  const triples = shards.reduce((n, s) => n + s.triples, 0);
  const root = json as { triples?: unknown; totals?: { triples?: unknown; sharedTriples?: unknown } };
  const total = root.triples ?? root.totals?.triples;
  if (total !== undefined && total !== triples)
    throw bad(
      root.triples !== undefined ? 'triples' : 'totals.triples',
      `${String(total)} is not the sum of the shards' triples (${triples})`,
    );
  const shared = shards.every((s) => s.sharedTriples !== undefined)
    ? shards.reduce((n, s) => n + s.sharedTriples!, 0)
    : undefined;
  const totalShared = root.totals?.sharedTriples;
  if (totalShared !== undefined && totalShared !== shared)
    throw bad(
      'totals.sharedTriples',
      `${String(totalShared)} is not the sum of the shards' sharedTriples (${shared ?? 'not given by every shard'})`,
    );
  return { path: absolute, shards, triples, sharedTriples: shared };
}

/**
 * The manifest's shard of each file, in the files' order; with no files, the
 * manifest's shards. Files and shards must be the same set (matched by path,
 * else by file name): a file the manifest does not list, or a shard not given,
 * is a `usage` error naming it (the count could not be checked).
 */
export function shardsOfFiles(files: readonly string[], manifest: BulkManifest): BulkManifestShard[] {
  if (files.length === 0) return manifest.shards;
  const byPath = new Map(manifest.shards.map((s) => [s.path, s]));
  const byName = new Map(manifest.shards.map((s) => [basename(s.file), s]));
  const used = new Set<BulkManifestShard>();
  const shards = files.map((file) => {
    const shard = byPath.get(resolve(file)) ?? byName.get(basename(file));
    if (!shard)
      throw new ToolkitError(`${file} is not a shard of the manifest ${manifest.path}`, 'usage', { details: { file } });
    if (used.has(shard))
      throw new ToolkitError(`${file}: the shard ${shard.file} of the manifest is given twice`, 'usage', {
        details: { file },
      });
    used.add(shard);
    return shard;
  });
  const missing = manifest.shards.filter((s) => !used.has(s));
  if (missing.length > 0) {
    const names = missing
      .slice(0, 5)
      .map((s) => s.file)
      .join(', ');
    throw new ToolkitError(
      `the manifest ${manifest.path} lists ${missing.length} shard(s) not given: ${names}${missing.length > 5 ? ', ...' : ''} (give every shard, or no files to load the manifest's)`,
      'usage',
    );
  }
  return shards;
}

/** The count range a graph must be in after loading `shards` on top of `baseline` triples (see {@link BulkManifest}). */
export function expectedRange(
  shards: readonly BulkManifestShard[],
  baseline: number,
): { min: number; max: number; exact: boolean } {
  const triples = shards.reduce((n, s) => n + s.triples, 0);
  const known = shards.every((s) => s.sharedTriples !== undefined);
  if (!known) return { min: baseline + triples, max: baseline + triples, exact: true };
  const shared = shards.reduce((n, s) => n + s.sharedTriples!, 0);
  return { min: baseline + minimumDistinctTriples(triples, shared), max: baseline + triples, exact: shared === 0 };
}

/**
 * The files a bulk load reads: the `files` given (resolved against `cwd`), each with its shard of the
 * manifest, or, with only a manifest, its shards; `usage` when neither is given. What the Virtuoso and the
 * TDB2 bulk loads both start from.
 */
export async function bulkFilesOf(
  files: readonly string[] | undefined,
  manifestPath: string | undefined,
  cwd: string,
): Promise<{ paths: string[]; shards: (BulkManifestShard | undefined)[] }> {
  const given = (files ?? []).map((f) => resolve(cwd, f));
  const manifest = manifestPath !== undefined ? await readBulkManifest(resolve(cwd, manifestPath)) : undefined;
  if (given.length === 0 && !manifest)
    throw new ToolkitError('nothing to load: no files and no manifest given', 'usage');
  const shards: (BulkManifestShard | undefined)[] = manifest
    ? shardsOfFiles(given, manifest)
    : given.map(() => undefined);
  return { paths: given.length > 0 ? given : shards.map((s) => s!.path), shards };
}
