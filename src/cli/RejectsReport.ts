import { type Output, openOutput } from '../convert/openOutput.js';
import type { Rejection } from '../convert/convertItem.js';
import type { CliContext } from './CliContext.js';

/** How many rejections are printed one per line before the rest are only counted. */
const MAX_LINES = 20;

/**
 * The rejects of a CLI run: one line per problem on stderr (the first 20),
 * and every rejected record, with its reason, as a JSON line in the rejects
 * file (created on the first rejection only).
 */
export class RejectsReport {
  private output: Output | undefined;
  private count = 0;

  constructor(
    private readonly path: string | undefined,
    private readonly ctx: CliContext,
  ) {}

  /** Records one rejection. */
  async add(rejection: Rejection): Promise<void> {
    this.count++;
    if (this.count <= MAX_LINES) this.ctx.log(`rejected: ${describeRejection(rejection)}`);
    if (!this.path) return;
    this.output ??= await openOutput(this.path, this.ctx.io.stderr);
    if (!this.output.stream.write(`${JSON.stringify(rejection)}\n`)) {
      await new Promise((resolve) => this.output!.stream.once('drain', resolve));
    }
  }

  /** Closes the rejects file. */
  async close(): Promise<void> {
    await this.output?.close();
  }

  /** Prints the count and where the rejected records are. */
  report(): void {
    if (this.count === 0) return;
    const more = this.count > MAX_LINES ? ` (${this.count - MAX_LINES} not shown)` : '';
    this.ctx.log(
      this.path
        ? `${this.count} record(s) rejected${more}; the records and reasons are in ${this.path}`
        : `${this.count} record(s) rejected${more}; use --rejects FILE (or -o) to keep the rejected records`,
    );
  }
}

/** `file record 3 (10.1007/x), field creators[1].ORCID: reason` */
export function describeRejection(r: Rejection): string {
  const at = r.index !== undefined ? ` record ${r.index}` : '';
  const line = r.line !== undefined ? ` (line ${r.line})` : '';
  const id = r.recordId !== `${r.source}#${r.index}` && r.recordId !== r.source ? ` ${r.recordId}` : '';
  return `${r.source}${at}${line}${id}, field ${r.field}: ${r.reason}`;
}
