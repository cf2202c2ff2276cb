import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/CliContext.js';
import { run } from '../../src/cli/main.js';

/** What an in-process CLI run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with the given argv (and stdin text), capturing its output. */
export async function runCli(
  argv: readonly string[],
  options: {
    stdin?: string | Buffer;
    env?: Record<string, string | undefined>;
    cwd?: string;
    signal?: AbortSignal;
  } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const io: CliIo = {
    stdin: Readable.from(options.stdin !== undefined ? [Buffer.from(options.stdin)] : []),
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stderrIsTTY: false,
  };
  const code = await run(argv, io, options.signal);
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
