import { readFile, rename, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ToolkitError, ioError } from '../errors.js';
import type { DoiSet } from '../record/DoiSet.js';
import { writeText } from '../output/writeText.js';
import type { RecordWriter } from '../serialize/QuadSerializer.js';
import { CheckpointFile } from '../output/CheckpointFile.js';
import { type ExportState, writeExportState } from './ExportState.js';
import type { ShardLimits } from '../output/ShardManifest.js';
import type { ShardNaming } from '../output/ShardNaming.js';
import { ShardedOutput } from '../output/ShardedOutput.js';

/** Where an export writes. */
export interface ExportTargets {
  /** The dump file (resumable), else `stream`. */
  output?: string;
  stream?: Writable;
  /** What messages call `stream`. Defaults to `the output stream`. */
  streamName?: string;
  gzip: boolean;
  rejectsPath?: string;
  /** The state file (with `output`). */
  statePath?: string;
  signal?: AbortSignal;
  /** Cut the dump (`output`) into these shards instead of one file. */
  shards?: { naming: ShardNaming; limits: ShardLimits; writer: RecordWriter };
}

/** The name a dump in one file is written under until the export has finished (then it is renamed to `output`). */
export function partialOf(output: string): string {
  return `${output}.partial`;
}

/** Renames a finished dump written as `<output>.partial` to `output` (nothing when there is no partial file: it was renamed). */
export async function placeFinishedOutput(output: string): Promise<void> {
  try {
    await rename(partialOf(output), output);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw ioError(err, output);
  }
}

/**
 * The unfinished dump of a saved state, opened to go on (cut back to its committed bytes, their SHA-256
 * checked). A state of this version wrote it as `<output>.partial`; one of an earlier version wrote it
 * under `output` itself: that file is moved to the partial name first (and back when it is not the
 * state's: another dump is never lost).
 */
async function resumeUnfinished(output: string, saved: ExportState, gzip: boolean): Promise<CheckpointFile> {
  const partial = partialOf(output);
  const moved = saved.output.partial !== true && !(await exists(partial)) && (await exists(output));
  if (moved) await rename(output, partial);
  try {
    return await CheckpointFile.resume(partial, saved.output.length, saved.output.sha256, { gzip });
  } catch (err) {
    if (moved) await rename(partial, output).catch(() => undefined);
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files of one export run: the dump (a checkpointed file, or a stream),
 * the rejects and the side file of DOIs seen. {@link checkpoint} commits all
 * three (fsync) and only then replaces the state file, so a state always
 * points at data on disk.
 */
export class ExportFiles {
  private constructor(
    private readonly targets: ExportTargets,
    private readonly out: CheckpointFile | undefined,
    private readonly rejects: CheckpointFile | undefined,
    private readonly seenFile: CheckpointFile | undefined,
    /** The shards, instead of `out`. */
    readonly sharded: ShardedOutput | undefined,
  ) {}

  /** The DOI side file of a state file. */
  static seenPathOf(statePath: string | undefined): string | undefined {
    return statePath ? `${statePath}.seen` : undefined;
  }

  /**
   * Opens the files: afresh (emptied), or, with a saved state, cut back to
   * what the state recorded (the dump's hash checked) and `seen` reloaded.
   */
  static async open(targets: ExportTargets, saved: ExportState | undefined, seen: DoiSet): Promise<ExportFiles> {
    const opened: CheckpointFile[] = [];
    const track = async (file: Promise<CheckpointFile>): Promise<CheckpointFile> => {
      const f = await file;
      opened.push(f);
      return f;
    };
    let sharded: ShardedOutput | undefined;
    try {
      const seenPath = targets.output ? ExportFiles.seenPathOf(targets.statePath) : undefined;
      let out: CheckpointFile | undefined;
      let seenFile: CheckpointFile | undefined;
      if (targets.shards) {
        const { naming, limits, writer } = targets.shards;
        const options = { naming, limits, writer, gzip: targets.gzip, sync: true };
        if (saved && !saved.shards)
          throw new ToolkitError(
            `the saved state ${targets.statePath} is of a dump in one file, not in shards`,
            'state-mismatch',
          );
        sharded = saved ? await ShardedOutput.resume(options, saved.shards!) : ShardedOutput.create(options);
      } else if (targets.output) {
        out = await track(
          saved
            ? resumeUnfinished(targets.output, saved, targets.gzip)
            : CheckpointFile.create(partialOf(targets.output), { gzip: targets.gzip }),
        );
      }
      let rejects: CheckpointFile | undefined;
      if (targets.rejectsPath) {
        const length = saved?.rejects?.path === targets.rejectsPath ? saved.rejects.length : 0;
        rejects = await track(
          saved && (out || sharded)
            ? CheckpointFile.resume(targets.rejectsPath, length, undefined, { hash: false })
            : CheckpointFile.create(targets.rejectsPath, { hash: false }),
        );
      }
      if (seenPath) {
        seenFile = await track(
          saved
            ? CheckpointFile.resume(seenPath, saved.seen.length, undefined, { hash: false })
            : CheckpointFile.create(seenPath, { hash: false }),
        );
        if (saved) seen.load(await readFile(seenPath));
      }
      return new ExportFiles(targets, out, rejects, seenFile, sharded);
    } catch (err) {
      for (const f of opened) await f.close().catch(() => undefined);
      await sharded?.close();
      throw err;
    }
  }

  /** Whether the dump is a resumable file (not a stream). */
  get resumable(): boolean {
    return this.out !== undefined || this.sharded !== undefined;
  }

  /**
   * Appends dump text: buffered for the next checkpoint (a file), or written
   * now (a stream; waits while it is full). With shards the text is not
   * used: the records went through the shards' writer, and this writes what
   * it cut.
   */
  async write(text: string): Promise<void> {
    if (this.sharded) {
      await this.sharded.flush();
      return;
    }
    if (this.out) {
      this.out.append(text);
      return;
    }
    try {
      await writeText(this.targets.stream!, text, this.targets.signal);
    } catch (err) {
      // A stream that failed (a full disk under stdout): an `io` error naming it, not a crash.
      throw ioError(err, this.targets.streamName ?? 'the output stream');
    }
  }

  /** Appends one line to the rejects file (when there is one). */
  reject(line: string): void {
    this.rejects?.append(line);
  }

  /**
   * Commits the dump, the rejects and the new DOIs of `seen`, then writes the
   * state `stateOf` gives for the committed lengths (a file dump only).
   */
  async checkpoint(
    seen: DoiSet,
    stateOf: (files: Pick<ExportState, 'output' | 'rejects' | 'seen' | 'shards'>) => ExportState,
  ): Promise<void> {
    await this.out?.commit();
    await this.sharded?.commit();
    await this.rejects?.commit();
    if (this.seenFile) {
      this.seenFile.append(seen.drainNew());
      await this.seenFile.commit();
    }
    if (!this.targets.statePath || !this.resumable) return;
    const shards = this.sharded?.snapshot();
    const state = stateOf({
      output: this.out
        ? { length: this.out.length, sha256: this.out.sha256!, partial: true }
        : { length: shards!.current?.length ?? 0, sha256: shards!.current?.sha256 ?? '' },
      rejects: this.rejects ? { path: this.rejects.path, length: this.rejects.length } : null,
      seen: { length: this.seenFile?.length ?? 0 },
      ...(shards ? { shards } : {}),
    });
    await writeExportState(this.targets.statePath, state);
    // Finished shards get their names once a state that lists them is on disk (a resume puts in place one that did not).
    await this.sharded?.place();
  }

  /**
   * Gives the finished dump its name (after a state that says finished is on disk): the file written as
   * `<output>.partial` replaces what `output` held (a previous finished dump stays there until then).
   */
  async placeOutput(): Promise<void> {
    if (!this.out || !this.targets.output) return;
    await this.out.close();
    await placeFinishedOutput(this.targets.output);
  }

  /** Closes every file (what was not committed is not on disk). */
  async close(): Promise<void> {
    for (const f of [this.out, this.rejects, this.seenFile]) await f?.close().catch(() => undefined);
    await this.sharded?.close();
  }
}
