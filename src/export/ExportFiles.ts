import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ioError } from '../errors.js';
import type { DoiSet } from '../record/DoiSet.js';
import { writeText } from '../pipeline/writeText.js';
import { CheckpointFile } from './CheckpointFile.js';
import { type ExportState, writeExportState } from './ExportState.js';

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
    try {
      const seenPath = targets.output ? ExportFiles.seenPathOf(targets.statePath) : undefined;
      let out: CheckpointFile | undefined;
      let seenFile: CheckpointFile | undefined;
      if (targets.output) {
        out = await track(saved ? CheckpointFile.resume(targets.output, saved.output.length, saved.output.sha256, { gzip: targets.gzip }) : CheckpointFile.create(targets.output, { gzip: targets.gzip }));
      }
      let rejects: CheckpointFile | undefined;
      if (targets.rejectsPath) {
        const length = saved?.rejects?.path === targets.rejectsPath ? saved.rejects.length : 0;
        rejects = await track(saved && out ? CheckpointFile.resume(targets.rejectsPath, length, undefined, { hash: false }) : CheckpointFile.create(targets.rejectsPath, { hash: false }));
      }
      if (seenPath) {
        seenFile = await track(saved ? CheckpointFile.resume(seenPath, saved.seen.length, undefined, { hash: false }) : CheckpointFile.create(seenPath, { hash: false }));
        if (saved) seen.load(await readFile(seenPath));
      }
      return new ExportFiles(targets, out, rejects, seenFile);
    } catch (err) {
      for (const f of opened) await f.close().catch(() => undefined);
      throw err;
    }
  }

  /** Whether the dump is a resumable file (not a stream). */
  get resumable(): boolean {
    return this.out !== undefined;
  }

  /** Appends dump text: buffered for the next checkpoint (a file), or written now (a stream; waits while it is full). */
  async write(text: string): Promise<void> {
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
  async checkpoint(seen: DoiSet, stateOf: (files: Pick<ExportState, 'output' | 'rejects' | 'seen'>) => ExportState): Promise<void> {
    await this.out?.commit();
    await this.rejects?.commit();
    if (this.seenFile) {
      this.seenFile.append(seen.drainNew());
      await this.seenFile.commit();
    }
    if (!this.targets.statePath || !this.out) return;
    const state = stateOf({
      output: { length: this.out.length, sha256: this.out.sha256! },
      rejects: this.rejects ? { path: this.rejects.path, length: this.rejects.length } : null,
      seen: { length: this.seenFile?.length ?? 0 },
    });
    await writeExportState(this.targets.statePath, state);
  }

  /** Closes every file (what was not committed is not on disk). */
  async close(): Promise<void> {
    for (const f of [this.out, this.rejects, this.seenFile]) await f?.close().catch(() => undefined);
  }
}
