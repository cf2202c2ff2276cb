import { type Output, openOutput } from '../convert/openOutput.js';
import type { Rejection } from '../convert/convertItem.js';
import { jsonText } from '../record/jsonText.js';
import type { CliContext } from './CliContext.js';

/** How many rejections are printed one per line before the rest are only counted. */
const MAX_LINES = 20;
/** How long one printed value (a DOI, a reason) may be before it is cut. */
const MAX_VALUE = 200;

/**
 * The rejects of a CLI run: one line per problem on stderr (the first 20),
 * and every rejected record, with its reason, as a JSON line in the rejects
 * file (created on the first rejection only). The file keeps each record as
 * it was read, however deeply nested.
 */
export class RejectsReport {
  private output: Output | undefined;
  private count = 0;

  constructor(
    private readonly path: string | undefined,
    private readonly ctx: CliContext,
  ) {}

  /** How many rejections were recorded. */
  get rejected(): number {
    return this.count;
  }

  /** Records one rejection. */
  async add(rejection: Rejection): Promise<void> {
    this.count++;
    if (this.count <= MAX_LINES) this.ctx.log(`rejected: ${describeRejection(rejection)}`);
    if (!this.path) return;
    this.output ??= await openOutput(this.path, this.ctx.io.stderr);
    if (!this.output.stream.write(`${jsonText(rejection)}\n`)) {
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
    const more = this.count > MAX_LINES ? ` (${this.count - MAX_LINES} not shown above)` : '';
    this.ctx.log(
      this.path
        ? `${this.count} record(s) rejected${more}; the records and reasons are in ${this.path}`
        : `${this.count} record(s) rejected${more}; use --rejects FILE (or -o) to keep the rejected records`,
    );
  }
}

/**
 * One line a person can act on: the file, the record (its index, line and
 * DOI), the field and what was wrong, e.g.
 * `in.json record 3 (line 3) 10.1007/x, field creators[1].ORCID: reason`.
 * Control and invisible characters are shown as `\uXXXX`; long values are cut.
 */
export function describeRejection(r: Rejection): string {
  const at = r.index !== undefined ? ` record ${r.index}` : '';
  const line = r.line !== undefined ? ` (line ${r.line})` : '';
  const id = r.recordId !== `${r.source}#${r.index}` && r.recordId !== r.source ? ` ${oneLine(r.recordId)}` : '';
  return `${oneLine(r.source)}${at}${line}${id}, field ${oneLine(r.field)}: ${oneLine(r.reason, 2 * MAX_VALUE)}`;
}

// Characters that would break a line or a terminal: controls (C0, DEL, C1), line and paragraph separators,
// bidi and other format characters, non-characters, lone surrogates.
const INVISIBLE = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A value made safe for one line of a terminal: invisible characters as `\uXXXX`, cut to `max` characters. */
export function oneLine(text: string, max = MAX_VALUE): string {
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  return cut.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
