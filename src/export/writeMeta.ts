import type * as RDF from '@rdfjs/types';
import { rename, rm } from 'node:fs/promises';
import { ToolkitError, ioError } from '../errors.js';
import { formatFromPath, isGzipPath } from '../formats.js';
import { CheckpointFile } from '../output/CheckpointFile.js';
import { serializerFor } from '../serialize/serializers.js';

/** Writes the provenance to a file atomically, in the format of its extension (Turtle by default); `io` naming it when it cannot be written (no temp file left). */
export async function writeMeta(path: string, quads: RDF.Quad[]): Promise<void> {
  const format = formatFromPath(path) ?? 'turtle';
  const writer = serializerFor(format).createWriter();
  const text = writer.start() + writer.write(quads) + writer.end();
  const temp = `${path}.tmp`;
  try {
    const file = await CheckpointFile.create(temp, { gzip: isGzipPath(path), hash: false });
    try {
      file.append(text);
      await file.commit();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    // Named by its own path, not its temp file's.
    throw ioError(
      err instanceof ToolkitError && err.code === 'io' && err.cause ? err.cause : err,
      path,
      'write',
      'the description (`metaPath`)',
    );
  }
}
