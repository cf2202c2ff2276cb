import { ToolkitError } from '../errors.js';
import { formatInfo, type FormatName } from '../formats.js';
import { writeFileAtomically } from './writeFileAtomically.js';

/** One finished shard, as the manifest lists it. */
export interface ShardEntry {
  /** The file's name, relative to the manifest (they are in one folder). */
  file: string;
  /** Records written in it. */
  records: number;
  /**
   * Statements (triples, or quads in N-Quads) written in it, repeats
   * included: a shared node (a journal, a person) is written again by every
   * record that names it.
   */
  triples: number;
  /**
   * Of {@link triples}, the statements about a shared entity (subject a
   * journal, publisher, person with an ORCID iD, ...; no blank node:
   * `isSharedTriple`), which other records may repeat: a store holding the
   * shard holds between `triples - sharedTriples` (+1 when there is one) and
   * `triples` distinct triples. Absent in manifests written before it was
   * counted.
   */
  sharedTriples?: number;
  /** Size of the file on disk (compressed, when it is). */
  bytes: number;
  /** SHA-256 (hex) of the file on disk. */
  sha256: string;
  /** DOI of its first record; null when it holds none. */
  firstDoi: string | null;
  /** DOI of its last record; null when it holds none. */
  lastDoi: string | null;
}

/** How the records were cut into shards. */
export interface ShardLimits {
  /** At most this many records per shard. Defaults to none (no limit). */
  records?: number;
  /** At most this many bytes of text (before compression) per shard, unless one record alone is more. Defaults to none (no limit). */
  bytes?: number;
}

/** The manifest of a sharded output (`name.manifest.json`). */
export interface ShardManifest {
  version: 1;
  format: FormatName;
  mediaType: string;
  /** `gzip` when every shard is gzipped, else null. */
  compression: 'gzip' | null;
  /** The limits the shards were cut by. */
  shardRecords: number | null;
  shardBytes: number | null;
  /** The dump's IRI in its description (an export), or null. */
  dataset: string | null;
  shards: ShardEntry[];
  /** Sums over the shards. */
  totals: { shards: number; records: number; triples: number; sharedTriples?: number; bytes: number };
}

/** The manifest of finished shards. */
export function shardManifest(input: {
  format: FormatName;
  gzip: boolean;
  limits: ShardLimits;
  dataset?: string;
  shards: readonly ShardEntry[];
}): ShardManifest {
  const sum = (key: 'records' | 'triples' | 'bytes') => input.shards.reduce((n, s) => n + s[key], 0);
  // A shard of a state written before sharedTriples was counted has none: no total then (the bulk loader checks exactly).
  const shared = input.shards.every((s) => s.sharedTriples !== undefined)
    ? { sharedTriples: input.shards.reduce((n, s) => n + s.sharedTriples!, 0) }
    : {};
  return {
    version: 1,
    format: input.format,
    mediaType: formatInfo(input.format).mediaType,
    compression: input.gzip ? 'gzip' : null,
    shardRecords: input.limits.records ?? null,
    shardBytes: input.limits.bytes ?? null,
    dataset: input.dataset ?? null,
    shards: [...input.shards],
    totals: {
      shards: input.shards.length,
      records: sum('records'),
      triples: sum('triples'),
      ...shared,
      bytes: sum('bytes'),
    },
  };
}

/** The manifest as the file holds it (JSON, one shard per line, a newline at the end). */
export function manifestText(manifest: ShardManifest): string {
  const { shards, ...rest } = manifest;
  const head = JSON.stringify(rest).slice(1, -1);
  const lines = shards.map((s) => `  ${JSON.stringify(s)}`).join(',\n');
  return `{${head},\n"shards":[\n${lines}\n]}\n`;
}

/** Writes the manifest atomically (see {@link writeFileAtomically}); `io` naming it when it cannot be written. */
export async function writeManifest(path: string, manifest: ShardManifest): Promise<void> {
  await writeFileAtomically(path, manifestText(manifest), 'the manifest');
}

/**
 * The limits of shards from `shardRecords` and `shardBytes` (each a whole number of at least 1), or undefined
 * when neither is given (one output); `usage` errors when one is given without an output file or is not such
 * a number. What `export` and `convert` both check.
 */
export function checkShardLimits(
  records: number | undefined,
  bytes: number | undefined,
  hasOutputFile: boolean,
): ShardLimits | undefined {
  if (records === undefined && bytes === undefined) return undefined;
  const name = records !== undefined ? '`shardRecords`' : '`shardBytes`';
  if (!hasOutputFile)
    throw new ToolkitError(
      `${name} needs an output file (\`output\`): the shards are files named after it, and a stream cannot be cut into files`,
      'usage',
    );
  for (const [key, value] of [
    ['`shardRecords`', records],
    ['`shardBytes`', bytes],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1))
      throw new ToolkitError(`${key} must be a whole number of at least 1, not ${value}`, 'usage');
  }
  return { ...(records !== undefined ? { records } : {}), ...(bytes !== undefined ? { bytes } : {}) };
}
