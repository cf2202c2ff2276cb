import { type Rejection, describeRejection } from '../pipeline/Rejection.js';
import { inFlags } from './inFlags.js';
import type { CliContext } from './CliContext.js';

/** How many rejections are printed one per line before the rest are only counted. */
const MAX_LINES = 20;

/**
 * The rejects of a CLI run on screen: one line per problem on stderr (the
 * first 20), then the count and where the rejected records are. The
 * rejects file itself is written by the library.
 */
export class RejectsReport {
  private count = 0;

  constructor(private readonly ctx: CliContext) {}

  /** How many rejections were seen. */
  get rejected(): number {
    return this.count;
  }

  /** Prints one rejection (the first 20). */
  add(rejection: Rejection): void {
    this.count++;
    if (this.count <= MAX_LINES) this.ctx.log(`rejected: ${inFlags(describeRejection(rejection))}`);
  }

  /** Prints the count and where the rejected records are (`path`: the rejects file, if one was written). */
  report(path: string | undefined): void {
    if (this.count === 0) return;
    const more = this.count > MAX_LINES ? ` (${this.count - MAX_LINES} not shown above)` : '';
    this.ctx.log(
      path
        ? `${this.count} record(s) rejected${more}; the records and reasons are in ${path}`
        : `${this.count} record(s) rejected${more}; use --rejects FILE (or -o) to keep the rejected records`,
    );
  }
}
