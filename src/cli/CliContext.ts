import type { Readable, Writable } from 'node:stream';
import type { JsonSummary } from './JsonSummary.js';
import type { StatusLine } from './progress/StatusLine.js';

/** What a CLI run talks to. Tests pass their own; `main()` passes the process's. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Whether stderr is a terminal (progress bars instead of log lines). */
  stderrIsTTY: boolean;
}

/** Handed to each command's `register` function. */
export interface CliContext {
  io: CliIo;
  /** Aborted on SIGINT/SIGTERM (in `main`) or by a test. */
  signal: AbortSignal;
  /** Sets the exit code of the run (the highest one set wins). */
  setExitCode(code: number): void;
  /** Writes one line to stderr (on its own line: a progress bar is cleared first and drawn again after). */
  log(line: string): void;
  /** The last line of stderr, where progress bars are drawn on a terminal. */
  status: StatusLine;
  /** The `--json` summary of the run, written at its end. */
  json: JsonSummary;
}
