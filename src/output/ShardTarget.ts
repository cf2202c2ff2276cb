import type * as RDF from '@rdfjs/types';
import { type FormatName, isGzipPath } from '../formats.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import type { ConvertTarget } from './ConvertTarget.js';
import { removeIfExists } from './removeIfExists.js';
import { shardManifest, writeManifest } from './ShardManifest.js';
import type { ShardedOutput } from './ShardedOutput.js';

/** Shards: each record's text goes where the sharded output cuts; the shards and the manifest are put in place at the end. */
export class ShardTarget implements ConvertTarget {
  constructor(
    private readonly sharded: ShardedOutput,
    private readonly format: FormatName,
  ) {}

  get writer(): RecordWriter {
    return this.sharded.writer;
  }

  written(quads: readonly RDF.Quad[], doi: string): void {
    this.sharded.note(quads, doi);
  }

  /** The text is each shard's already (the sink's opening and closing are empty). */
  async add(): Promise<void> {
    await this.sharded.flush();
  }

  addBinary(): Promise<void> {
    return this.add();
  }

  async statements(quads: RDF.Quad[]): Promise<void> {
    this.sharded.writeStatements(quads);
    await this.sharded.flush();
  }

  async finish(): Promise<string> {
    const shards = await this.sharded.finish();
    const { naming } = this.sharded;
    // No manifest while the shards are put in place: an old one would list files that are no longer its.
    await removeIfExists(naming.manifestPath);
    await this.sharded.place();
    await writeManifest(
      naming.manifestPath,
      shardManifest({ format: this.format, gzip: isGzipPath(naming.output), limits: this.sharded.limits, shards }),
    );
    return naming.manifestPath;
  }

  discard(): Promise<void> {
    return this.sharded.discard();
  }
}
