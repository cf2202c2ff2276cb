import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { ioError } from '../errors.js';
import { writeText } from '../pipeline/writeText.js';
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

  /**
   * `fallback` is written to when `path` is `-`. A folder that is not there
   * is refused now (code `io`), before the run, not at the first line.
   */
  constructor(
    readonly path: string,
    private readonly fallback: Writable,
  ) {
    if (path === '-') return;
    try {
      if (!statSync(dirname(resolve(path))).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    } catch (err) {
      throw ioError(err, path, 'create');
    }
  }

  /** Appends one line (`text` ends with its newline). */
  async append(text: string): Promise<void> {
    this.output ??= await openOutput(this.path, this.fallback);
    this.lines++;
    await writeText(this.output.stream, text);
  }

  /** Puts the file in place (nothing when no line was written). */
  async close(): Promise<void> {
    await this.output?.close();
  }
}
