import { Command, CommanderError } from 'commander';
import { removeTempFiles } from '../tempFiles.js';
import { ToolkitError, exitCodeFor } from '../errors.js';
import type { CliContext, CliIo } from './CliContext.js';
import { COMMANDS } from './commands/index.js';
import { inFlags } from './inFlags.js';

/** Version printed by `--version`. */
export const VERSION = '0.1.0';

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the
 * exit code. It never calls `process.exit`; tests call it in-process.
 */
export async function run(argv: readonly string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  let exitCode = 0;
  const ctx: CliContext = {
    io,
    signal: signal ?? new AbortController().signal,
    setExitCode(code) {
      if (code > exitCode) exitCode = code;
    },
    log(line) {
      io.stderr.write(`${line}\n`);
    },
  };
  const program = new Command('scholarly-rdf');
  program
    .description('Harvest scholarly metadata records and turn them into linked data (schema.org + BIBO).')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  for (const register of COMMANDS) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    // The reader of stdout went away (`| head`): nothing more to say to anyone.
    if ((err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' || stdoutClosed(ctx.signal)) return exitCode;
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof ToolkitError) {
      io.stderr.write(`scholarly-rdf: error [${err.code}]: ${inFlags(err.message)}\n`);
      return Math.max(exitCode, exitCodeFor(err.code));
    }
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.stderr.write(`scholarly-rdf: internal error: ${message}\n`);
    return 70;
  }
  return exitCode;
}

/** Whether a run was stopped because the reader of stdout went away (`| head`): a normal end, not a failure. */
function stdoutClosed(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof ToolkitError && signal.reason.details['stdoutClosed'] === true;
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
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    controller.abort(new ToolkitError('stdout closed', 'aborted', { details: { stdoutClosed: true } }));
  };
  process.stdout.on('error', onStdoutError);
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
    // A run that ended (interrupted, say) while stdin stays open must not keep the process waiting on it.
    process.stdin.destroy();
  }
}
