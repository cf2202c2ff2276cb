import type { Writable } from 'node:stream';
import { isGzipPath, type FormatName } from '../formats.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import type { ConvertTarget } from './ConvertTarget.js';
import { FileTarget } from './FileTarget.js';
import { openOutput } from './openOutput.js';
import type { ShardLimits } from './ShardManifest.js';
import type { ShardNaming } from './ShardNaming.js';
import { ShardedOutput } from './ShardedOutput.js';
import { ShardTarget } from './ShardTarget.js';

/** Where {@link openTarget} writes. */
export interface TargetOptions {
  /** The output file (`.gz` compresses), written beside its name and put in place at the end; undefined: `stream`. */
  path: string | undefined;
  /** Where the text goes without `path`. */
  stream: Writable;
  format: FormatName;
  /** The writer the records go through. */
  writer: RecordWriter;
  /** Shards named after `path`, cut at these limits. Defaults to none (one file). */
  shards?: { naming: ShardNaming; limits: ShardLimits } | undefined;
  /** Stops the writes. Defaults to none. */
  signal?: AbortSignal | undefined;
}

/** Uncompressed bytes a shard of a conversion gathers before it is written. */
const SHARD_COMMIT = 1 << 20;

/** Opens where a conversion writes: one file (or the stream), or shards with their manifest. */
export async function openTarget(options: TargetOptions): Promise<ConvertTarget> {
  const { shards } = options;
  if (shards)
    return new ShardTarget(
      ShardedOutput.create({
        naming: shards.naming,
        writer: options.writer,
        limits: shards.limits,
        gzip: isGzipPath(shards.naming.output),
        commitEvery: SHARD_COMMIT,
      }),
      options.format,
    );
  return new FileTarget(await openOutput(options.path, options.stream), options.writer, options.signal);
}
