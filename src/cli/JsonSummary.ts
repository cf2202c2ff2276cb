import { ToolkitError } from '../errors.js';
import type { Writable } from 'node:stream';
import { inFlags } from './inFlags.js';
import type { StatusLine } from './progress/StatusLine.js';

/** Where a command's `--json` object goes: stdout, or stderr when stdout carries the command's data (a dump, a term). */
export type JsonTarget = 'stdout' | 'stderr';

/** Details of an error that a script may act on (where progress is saved, how far a run went); others are left out. */
const ERROR_DETAILS = ['statePath', 'progressSaved', 'records', 'notConforming', 'next', 'path'];

/**
 * The `--json` summary of a run: one JSON object on one line, written once at
 * the end of the run (`serve`: once it listens), with the command, its exit
 * code and what the command set; a run that fails adds `error` (its code and
 * message, and the details a script may act on).
 */
export class JsonSummary {
  private command: string | undefined;
  private target: JsonTarget = 'stdout';
  private fields: Record<string, unknown> = {};
  private printed = false;

  constructor(
    private readonly io: { stdout: Writable },
    private readonly status: StatusLine,
    /** Takes the run's secrets out of the object's text. Defaults to none. */
    private readonly hide: (text: string) => string = (text) => text,
  ) {}

  /** The command was asked for `--json`: its object goes to `target`. */
  enable(command: string, target: JsonTarget): void {
    this.command = command;
    this.target = target;
  }

  /** Whether the command was asked for `--json`. */
  get enabled(): boolean {
    return this.command !== undefined;
  }

  /** Adds fields to the object. */
  set(fields: Record<string, unknown>): void {
    Object.assign(this.fields, fields);
  }

  /** Writes the object (once; nothing when `--json` was not asked for). */
  print(exitCode: number, error?: unknown): void {
    if (this.command === undefined || this.printed) return;
    this.printed = true;
    const object: Record<string, unknown> = { command: this.command, exitCode, ...this.fields };
    if (error !== undefined) object['error'] = errorJson(error);
    const line = this.hide(JSON.stringify(object));
    if (this.target === 'stderr') {
      this.status.line(line);
    } else {
      this.status.clear();
      this.io.stdout.write(`${line}\n`);
    }
  }
}

function errorJson(error: unknown): Record<string, unknown> {
  if (!(error instanceof ToolkitError))
    return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
  const details = Object.fromEntries(
    ERROR_DETAILS.filter((k) => error.details[k] !== undefined).map((k) => [k, error.details[k]]),
  );
  return { code: error.code, message: inFlags(error.message), ...(Object.keys(details).length > 0 ? { details } : {}) };
}
