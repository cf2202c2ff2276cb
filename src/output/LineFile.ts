import type { Writable } from 'node:stream';
import { ToolkitError, ioError } from '../errors.js';
import { assertWritable } from './assertWritable.js';
import { writeText } from './writeText.js';
import { type Output, openOutput } from './openOutput.js';

/**
 * A file of JSON lines (rejects, notes) created on its first line only, so a
 * run with nothing to say leaves no empty file. Written beside its name and
 * put in place by {@link close}, like every output.
 */
export class LineFile {
  private output: Output | undefined;
  /** Lines written. */
  lines = 0;
  /** The first failure of a write (a full disk): later lines are not written, {@link close} reports it. */
  private failure: unknown;

  /**
   * `fallback` is written to when `path` is `-`. A path that cannot be written (its folder missing or not
   * writable, a folder, a file not writable) is refused now (code `io`, naming `path` as given), before the
   * run, not at the first line.
   */
  constructor(
    readonly path: string,
    private readonly fallback: Writable,
  ) {
    if (path === '-') return;
    assertWritable(path);
  }

  /**
   * Appends one line (`text` ends with its newline). A write that fails does not stop the run: the file is
   * dropped, the lines after it are counted only, and {@link close} throws (so an error of a side file never
   * costs the main output).
   */
  async append(text: string): Promise<void> {
    this.lines++;
    if (this.failure !== undefined) return;
    try {
      this.output ??= await openOutput(this.path, this.fallback);
      await writeText(this.output.stream, text);
    } catch (err) {
      this.failure = err;
      await this.output?.discard().catch(() => undefined);
      this.output = undefined;
    }
  }

  /** Puts the file in place (nothing when no line was written); `io` naming the file when a write of it failed. */
  async close(): Promise<void> {
    if (this.failure !== undefined) {
      const cause = ioError(this.failure, this.path);
      throw new ToolkitError(
        `${cause.message}; its ${this.lines} line(s) are not kept (the output itself is written whole)`,
        'io',
        { cause: this.failure, details: { path: this.path, lines: this.lines } },
      );
    }
    await this.output?.close();
  }
}
