import { rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ioError } from '../errors.js';
import { assertWritableFolder } from '../output/assertWritable.js';
import { openWriteStream } from '../output/openWriteStream.js';
import { writeText } from '../output/writeText.js';
import { ValidationReportWriter } from '../shacl/reports/ValidationReportWriter.js';

/** The SHACL report being written: kept only when the whole input was validated. */
export class ReportFile {
  private readonly writer = new ValidationReportWriter();

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

  async write(results: Parameters<ValidationReportWriter['write']>[0]): Promise<void> {
    await writeText(this.stream, this.writer.write(results));
  }

  /** Ends the report (`complete`), or removes it. */
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
