import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { ToolkitError, ioError } from '../errors.js';
import type { ShardEntry } from './ShardManifest.js';
import type { ShardNaming } from './ShardNaming.js';

/**
 * Checks every finished shard is on disk as its entry says (its size and
 * SHA-256; code `state-mismatch` otherwise) and puts one still `.partial`
 * (its run stopped before renaming it) in place.
 */
export async function placeFinishedShards(naming: ShardNaming, done: readonly ShardEntry[]): Promise<void> {
  for (const [i, entry] of done.entries()) await checkFinished(naming.path(i + 1), naming.partialPath(i + 1), entry);
}

/** Checks a finished shard is on disk as its entry says; puts one still `.partial` in place. */
async function checkFinished(path: string, partial: string, entry: ShardEntry): Promise<void> {
  let at = path;
  let size = await stat(path).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) {
    // Finished and listed in the state, but not renamed yet when the run stopped.
    size = await stat(partial).then(
      (s) => s.size,
      () => undefined,
    );
    at = partial;
  }
  const changed = (why: string) =>
    new ToolkitError(
      `the finished shard ${path} ${why}: it was changed since the saved state; start afresh with \`restart\` instead of \`resume\``,
      'state-mismatch',
      { details: { path } },
    );
  if (size === undefined) throw changed('is missing');
  if (size !== entry.bytes) throw changed(`has ${size} bytes, not the ${entry.bytes} the state recorded`);
  if ((await sha256Of(at)) !== entry.sha256) throw changed('is not the file the state recorded (its SHA-256 differs)');
  if (at === partial) {
    try {
      await rename(partial, path);
    } catch (err) {
      throw ioError(err, path);
    }
  }
}

/** SHA-256 (hex) of a file's bytes. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (err) {
    throw ioError(err, path, 'read');
  }
  return hash.digest('hex');
}
