import { rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ioError } from '../errors.js';
import { assertWritableFolder } from '../output/assertWritable.js';
import { openWriteStream } from '../output/openWriteStream.js';
import { writeText } from '../output/writeText.js';
import { ValidationReportWriter } from '../shacl/reports/ValidationReportWriter.js';

/** The text of results gathered before it is written: one write for many records' results (each was one). */
const WRITE_CHARS = 1 << 16;

/** The SHACL report being written: kept only when the whole input was validated. */
export class ReportFile {
  private readonly writer = new ValidationReportWriter();
  /** Results not written yet (less than {@link WRITE_CHARS}). */
  private pending = '';

  private constructor(
    private readonly path: string,
    private readonly stream: Writable,
  ) {
    this.stream.write(this.writer.start());
  }

  /** Creates the report file (code `io` naming it when it cannot be). */
  static async open(path: string): Promise<ReportFile> {
    return new ReportFile(path, await openWriteStream(path, { what: 'the report' }));
  }

  /** Throws `io` naming the report when its folder is not there. */
  static checkFolder(path: string): void {
    assertWritableFolder(path, 'the report');
  }

  get results(): number {
    return this.writer.results;
  }

  /**
   * Adds results: written once about 64 KiB of them are gathered, or by {@link flush}. Throws as the stream's writes
   * do (a full disk: code `io` naming the report), when they are written.
   */
  async write(results: Parameters<ValidationReportWriter['write']>[0]): Promise<void> {
    this.pending += this.writer.write(results);
    if (this.pending.length >= WRITE_CHARS) await this.flush();
  }

  /** Writes the results gathered (call it once the last are added, before {@link close}). */
  async flush(): Promise<void> {
    const text = this.pending;
    this.pending = '';
    await writeText(this.stream, text);
  }

  /** Ends the report (`complete`: after {@link flush}), or removes it. */
  async close(complete: boolean): Promise<void> {
    if (complete) {
      this.stream.end(this.writer.end());
      await finished(this.stream).catch((err: Error) => {
        rmSync(this.path, { force: true });
        throw ioError(err, this.path, 'write', 'the report');
      });
      return;
    }
    // A report of part of the input would say that the rest conforms: none is left.
    this.stream.destroy();
    await finished(this.stream).catch(() => undefined);
    rmSync(this.path, { force: true });
  }
}
