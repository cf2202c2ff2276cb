import { type Output, openOutput } from '../convert/openOutput.js';
import type { CliContext } from './CliContext.js';

/** The notes of one written record: what the mapper changed or left out, and why. */
export interface RecordNotes {
  source: string;
  index?: number;
  line?: number;
  recordId: string;
  notes: readonly string[];
}

/**
 * The notes file of a CLI run (`--notes FILE`): one JSON line per written
 * record that has notes (a date kept as text, a mistyped ORCID not linked,
 * characters removed, ...), created on the first one only.
 */
export class NotesReport {
  private output: Output | undefined;

  constructor(
    private readonly path: string,
    private readonly ctx: CliContext,
  ) {}

  /** Records the notes of one record (nothing when it has none). */
  async add(record: RecordNotes): Promise<void> {
    if (record.notes.length === 0) return;
    this.output ??= await openOutput(this.path, this.ctx.io.stderr);
    if (!this.output.stream.write(`${JSON.stringify(record)}\n`)) {
      await new Promise((resolve) => this.output!.stream.once('drain', resolve));
    }
  }

  /** Closes the notes file. */
  async close(): Promise<void> {
    await this.output?.close();
  }
}
