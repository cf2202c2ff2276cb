import { printable } from '../printable.js';

/** Options of {@link StatusLine}. */
export interface StatusLineOptions {
  /** Writes text to stderr. */
  write: (text: string) => void;
  /** Whether stderr is a terminal: the status line is drawn in place only then. */
  tty: boolean;
  /** The terminal's width. Defaults to 80. */
  columns?: () => number | undefined;
}

/**
 * The last line of stderr on a terminal, where a progress bar is redrawn in
 * place, and every other line written around it: a line of its own (a
 * warning, a summary) clears the bar first and draws it again after, so no
 * message ever starts on the bar's line. Off a terminal, {@link draw} does
 * nothing and lines are written as they come.
 */
export class StatusLine {
  private shown: string | undefined;
  private stopped = false;

  constructor(private readonly options: StatusLineOptions) {}

  /** Whether stderr is a terminal. */
  get tty(): boolean {
    return this.options.tty;
  }

  /** The width a drawn line may take: the terminal's less one column (a full line would wrap). */
  get width(): number {
    const columns = this.options.columns?.() || 80;
    return Math.max(20, columns - 1);
  }

  /** Draws `text` as the status line (cut to the terminal's width); nothing off a terminal or after {@link stop}. */
  draw(text: string): void {
    if (!this.options.tty || this.stopped) return;
    const safe = printable(text);
    const fitted = safe.length > this.width ? safe.slice(0, this.width) : safe;
    this.options.write(`\r${fitted}\x1b[K`);
    this.shown = fitted;
  }

  /** Writes a line of its own (without its newline), the status line cleared before and drawn again after. */
  line(text: string): void {
    this.raw(`${text}\n`);
  }

  /** Writes text that ends with a newline (its invisible characters escaped: see {@link printable}), the status line cleared before and drawn again after. */
  raw(text: string): void {
    const shown = this.shown;
    if (shown !== undefined) this.options.write('\r\x1b[K');
    this.options.write(printable(text));
    if (shown !== undefined) this.options.write(`${shown}\x1b[K`);
  }

  /** Removes the status line (a phase ended: its summary follows). */
  clear(): void {
    if (this.shown === undefined) return;
    this.options.write('\r\x1b[K');
    this.shown = undefined;
  }

  /**
   * Leaves the status line as it is (where the run stopped) and moves to a
   * new line; nothing is drawn any more. For an interruption or an error: the
   * message that follows starts on its own line.
   */
  stop(): void {
    this.stopped = true;
    if (this.shown === undefined) return;
    this.options.write('\n');
    this.shown = undefined;
  }
}
