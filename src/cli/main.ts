import { Command, CommanderError } from 'commander';
import { removeTempFiles } from '../tempFiles.js';
import { ToolkitError, exitCodeFor, ioError, isIoFailure } from '../errors.js';
import type { CliContext, CliIo } from './CliContext.js';
import { COMMANDS } from './commands/index.js';
import { inFlags } from './inFlags.js';
import { JsonSummary } from './JsonSummary.js';
import { printable } from './printable.js';
import { StatusLine } from './progress/StatusLine.js';
import { hideRunSecrets, secretsOfRun } from './runSecrets.js';
import type { Writable } from 'node:stream';

/** Version printed by `--version`. */
export const VERSION = '0.1.0';

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the
 * exit code. It never calls `process.exit`; tests call it in-process.
 */
export async function run(argv: readonly string[], given: CliIo, signal?: AbortSignal): Promise<number> {
  let exitCode = 0;
  // The one way out for what is printed: every byte to stderr and the --json object have the run's secrets taken out.
  const secrets = secretsOfRun(argv, given.env);
  const hide = (text: string): string => hideRunSecrets(text, secrets);
  const io: CliIo = { ...given, stderr: redactingStream(given.stderr, hide) };
  const status = new StatusLine({
    write: (t) => io.stderr.write(t),
    tty: io.stderrIsTTY,
    columns: () => (given.stderr as { columns?: number }).columns,
  });
  const ctx: CliContext = {
    io,
    signal: signal ?? new AbortController().signal,
    setExitCode(code) {
      if (code > exitCode) exitCode = code;
    },
    log(line) {
      status.line(line);
    },
    status,
    json: new JsonSummary(io, status, hide),
  };
  // Ctrl-C: the bar stays where the run stopped, and what is said next starts on a line of its own.
  const stopStatus = () => status.stop();
  ctx.signal.addEventListener('abort', stopStatus, { once: true });
  try {
    exitCode = await runProgram(argv, ctx, () => exitCode);
  } finally {
    ctx.signal.removeEventListener('abort', stopStatus);
    status.clear();
  }
  return exitCode;
}

/** Parses `argv` and runs its command; the exit code (errors printed, and the `--json` summary). */
async function runProgram(argv: readonly string[], ctx: CliContext, exitCode: () => number): Promise<number> {
  const { io, status } = ctx;
  const program = new Command('scholarly-rdf');
  program
    .description('Harvest scholarly metadata records and turn them into linked data (schema.org + BIBO).')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => status.raw(s),
    });
  for (const register of COMMANDS) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    // A write to stdout that failed (a full disk) is told on a later turn: the run failed although its command ended.
    await new Promise((resolve) => setImmediate(resolve));
    if (stdoutFailure(ctx.signal)) throw stdoutFailure(ctx.signal);
  } catch (caught) {
    // The reader of stdout went away (`| head`): nothing more to say to anyone.
    if ((caught as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' || stdoutClosed(ctx.signal)) return exitCode();
    // Stdout could not be written (a full disk): that is what stopped the run, whatever the command then ran into.
    // A failed read or write the library did not name (exit 4, not a crash).
    const err = stdoutFailure(ctx.signal) ?? (isIoFailure(caught) ? ioError(caught, caught.path ?? 'a file') : caught);
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return err.exitCode === 0 ? 0 : 2;
    }
    // The bar (if any) stays as it was when the run stopped; the message starts on a line of its own.
    status.stop();
    if (err instanceof ToolkitError) {
      io.stderr.write(`scholarly-rdf: error [${err.code}]: ${printable(inFlags(err.message))}\n`);
      const code = Math.max(exitCode(), exitCodeFor(err.code));
      ctx.json.print(code, err);
      return code;
    }
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.stderr.write(`scholarly-rdf: internal error: ${printable(message)}\n`);
    ctx.json.print(70, err);
    return 70;
  }
  ctx.json.print(exitCode());
  return exitCode();
}

/** The error of a run stopped because stdout could not be written (a full disk), if it was. */
function stdoutFailure(signal: AbortSignal): ToolkitError | undefined {
  return signal.aborted && signal.reason instanceof ToolkitError && signal.reason.details['stdoutFailed'] === true
    ? signal.reason
    : undefined;
}

/** Whether a run was stopped because the reader of stdout went away (`| head`): a normal end, not a failure. */
function stdoutClosed(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof ToolkitError && signal.reason.details['stdoutClosed'] === true;
}

/**
 * A stream whose `write` takes `hide`'s text to `stream` (everything else is `stream`'s own: its size, its
 * events). Texts written to stderr are whole messages or lines, so a secret is never split between two writes.
 */
function redactingStream(stream: Writable, hide: (text: string) => string): Writable {
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => boolean).call(
            target,
            typeof chunk === 'string' ? hide(chunk) : Buffer.isBuffer(chunk) ? hide(chunk.toString('utf8')) : chunk,
            ...rest,
          );
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** What a failed write to stderr does: nothing (there is nowhere left to tell it). */
function ignoreStderrError(): void {}

/** Runs of main() not ended yet: while one is, its own listener tells stdout's failures. */
let runsGoing = 0;

/**
 * What a write to stdout that fails after the run ended does (help and the version are written last, and a pipe
 * tells its reader's end on a later turn): nothing when the reader went away (`--help | head`); else the run did
 * not end well after all (exit 4, said on stderr).
 */
function lateStdoutError(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE' || runsGoing > 0) return;
  process.stderr.write(`scholarly-rdf: error [io]: ${ioError(err, 'to stdout').message}\n`);
  process.exitCode = Math.max(Number(process.exitCode ?? 0), exitCodeFor('io'));
}

/** Entry point of the `scholarly-rdf` binary. */
export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  // The first signal stops the run cleanly; a second one exits at once, removing temporary files first.
  const onSignal = () => {
    if (!controller.signal.aborted) {
      const reason = new ToolkitError('interrupted', 'aborted');
      controller.abort(reason);
      // A read of stdin that waits for data would not see the signal: it fails with it. When nothing
      // reads stdin, the error it emits has no other listener and must not end the process.
      process.stdin.once('error', () => undefined);
      process.stdin.destroy(reason);
      return;
    }
    removeTempFiles();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `scholarly-rdf convert x.json | head`: stdout closes early; the run ends quietly, not with an unhandled error.
  // Any other failure (a full disk, `> /dev/full`) stops the run with an I/O error (exit 4).
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (controller.signal.aborted) return;
    if (err.code === 'EPIPE')
      controller.abort(new ToolkitError('stdout closed', 'aborted', { details: { stdoutClosed: true } }));
    else
      controller.abort(
        new ToolkitError(ioError(err, 'to stdout').message, 'io', {
          cause: err,
          details: { stdoutFailed: true, errno: err.code },
        }),
      );
  };
  process.stdout.on('error', onStdoutError);
  runsGoing++;
  if (!process.stdout.listeners('error').includes(lateStdoutError)) process.stdout.on('error', lateStdoutError);
  // A stderr that cannot be written (`2>/dev/full`, a closed terminal) loses the messages, not the run:
  // the exit status still says how it ended. The listener stays: the last message's failure is told after main() returns.
  if (!process.stderr.listeners('error').includes(ignoreStderrError)) process.stderr.on('error', ignoreStderrError);
  try {
    return await run(
      argv,
      {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: process.cwd(),
        stderrIsTTY: Boolean(process.stderr.isTTY),
      },
      controller.signal,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.off('error', onStdoutError);
    runsGoing--;
    // A run that ended (interrupted, say) while stdin stays open must not keep the process waiting on it.
    process.stdin.destroy();
  }
}
