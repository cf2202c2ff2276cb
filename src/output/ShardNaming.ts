import { basename, dirname, join } from 'node:path';
import { formatFromPath, formatInfo, isGzipPath, type FormatName } from '../formats.js';

/** Digits of a shard's number (more when there are more shards than that many digits hold). */
const DIGITS = 5;

/**
 * The names of a sharded output, from the name it is asked for: `-o
 * dump.nq.gz` writes `dump.00001.nq.gz`, `dump.00002.nq.gz`, … and the
 * manifest `dump.manifest.json`, in the folder of `dump.nq.gz` (which itself
 * is not written). A name without a format's extension gets the format's
 * (`-o dump -f ntriples`: `dump.00001.nt`). A shard being written is
 * `<shard>.partial` until it is finished.
 */
export class ShardNaming {
  /** The folder of every shard and of the manifest. */
  readonly folder: string;
  /** The name before the number (`dump`). */
  readonly stem: string;
  /** The name after the number, with its dot (`.nq.gz`). */
  readonly suffix: string;

  constructor(
    /** The output as asked for (`dump.nq.gz`). */
    readonly output: string,
    format: FormatName,
    gzip: boolean = isGzipPath(output),
  ) {
    this.folder = dirname(output);
    let name = basename(output);
    let suffix: string;
    if (isGzipPath(name)) name = name.slice(0, -3);
    if (formatFromPath(name) !== undefined) {
      const dot = name.lastIndexOf('.');
      suffix = name.slice(dot);
      name = name.slice(0, dot);
    } else {
      suffix = `.${formatInfo(format).extensions[0]}`;
    }
    this.stem = name;
    this.suffix = suffix + (gzip ? '.gz' : '');
  }

  /** The file name (no folder) of shard `index` (from 1). */
  fileName(index: number): string {
    return `${this.stem}.${String(index).padStart(DIGITS, '0')}${this.suffix}`;
  }

  /** The path of shard `index` (from 1). */
  path(index: number): string {
    return join(this.folder, this.fileName(index));
  }

  /** Where shard `index` is written until it is finished. */
  partialPath(index: number): string {
    return `${this.path(index)}.partial`;
  }

  /** The manifest's path (`dump.manifest.json`). */
  get manifestPath(): string {
    return join(this.folder, `${this.stem}.manifest.json`);
  }

  /** Whether a file name (no folder) is one of these shards, finished or partial. */
  isShardName(name: string): boolean {
    if (!name.startsWith(`${this.stem}.`)) return false;
    const rest = name.slice(this.stem.length + 1);
    const m = /^(\d{5,})(.*)$/.exec(rest);
    return m !== null && (m[2] === this.suffix || m[2] === `${this.suffix}.partial`);
  }
}
