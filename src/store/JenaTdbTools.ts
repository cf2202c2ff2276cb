import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { abortError } from '../abort.js';
import { ToolkitError } from '../errors.js';
import { countQuery } from './countGraph.js';

/** The TDB2 commands of Apache Jena this module runs. */
export type TdbCommand = 'tdb2.tdbloader' | 'tdb2.tdbquery' | 'tdb2.tdbupdate';

/** How one TDB2 command is run: a program and the arguments before the command's own. */
export interface TdbInvocation {
  program: string;
  args: string[];
}

/** What a run of a TDB2 command printed, and how it ended. */
export interface TdbRun {
  exitCode: number | null;
  stdout: string;
  /** The last 64 KiB of stdout and stderr as they came (Jena logs to stdout, and prints exceptions on stderr). */
  output: string;
}

/** A file the loader finished (`End file: NAME (triples/quads = N)` in its log). */
export interface TdbFileDone {
  /** The file's name as the loader prints it (its base name). */
  name: string;
  tuples: number;
}

const JENA_CMDS_JAR = /^jena-cmds-[0-9].*\.jar$/;

/**
 * Apache Jena's TDB2 command-line tools (`tdb2.tdbloader`, `tdb2.tdbquery`, `tdb2.tdbupdate`), found from
 * one path, the way `isql` is found for Virtuoso:
 *
 * - the `tdb2.tdbloader` script of a Jena distribution (`apache-jena-5.6.0/bin/tdb2.tdbloader`), or its
 *   name on `PATH` (the default): the other tools are its neighbours in the same folder (or on `PATH`);
 * - a folder of Jena's jars (one holding `jena-cmds-*.jar`, such as `scripts/jenaJars.sh` fetches), or a
 *   distribution's root (its `lib/`): the tools run as `java -cp 'DIR/*' tdb2.tdbloader …`, with the
 *   `java` of `$JAVA_HOME` (else `java` on `PATH`) and `$JVM_ARGS` before the class, as Jena's scripts do.
 *
 * Jena 5 needs Java 17, Jena 6 Java 21.
 */
export class JenaTdbTools {
  private constructor(
    private readonly how: (command: TdbCommand) => TdbInvocation,
    /** Names the tools in messages. */
    readonly source: string,
  ) {}

  /** The tools of `path` (see the class); `usage` when it is a folder without Jena's jars. */
  static find(path: string, env: NodeJS.ProcessEnv = process.env): JenaTdbTools {
    const lib = jarFolderOf(path);
    if (lib !== undefined) {
      const java = env['JAVA_HOME'] ? join(env['JAVA_HOME'], 'bin', 'java') : 'java';
      const jvmArgs = (env['JVM_ARGS'] ?? '').split(/\s+/).filter((a) => a !== '');
      return new JenaTdbTools(
        (command) => ({ program: java, args: [...jvmArgs, '-cp', `${lib}/*`, command] }),
        `the Jena jars in ${lib}`,
      );
    }
    const name = basename(path);
    if (!/tdbloader/.test(name)) {
      throw new ToolkitError(
        `--tdbloader: ${path} is neither Jena's tdb2.tdbloader script nor a folder of Jena's jars (one holding jena-cmds-*.jar)`,
        'usage',
      );
    }
    const folder = path.includes('/') ? dirname(path) : undefined;
    const neighbour = (command: TdbCommand) => {
      const own = name.replace(/tdb2?\.?tdbloader/, command);
      return folder !== undefined ? join(folder, own) : own;
    };
    return new JenaTdbTools(
      (command) => ({ program: command === 'tdb2.tdbloader' ? path : neighbour(command), args: [] }),
      path,
    );
  }

  /** The program and arguments of a command (for messages and tests). */
  invocation(command: TdbCommand): TdbInvocation {
    return this.how(command);
  }

  /**
   * Runs a command with `args`; resolves with its exit code and output (a non-zero exit is a result, not a
   * throw). `usage` when the program is not there; `aborted` when `signal` ends it (the process is killed:
   * the TDB2 loader commits nothing then).
   */
  run(
    command: TdbCommand,
    args: readonly string[],
    options: { signal?: AbortSignal; onLine?: (line: string) => void } = {},
  ): Promise<TdbRun> {
    const { program, args: before } = this.how(command);
    const { signal, onLine } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const child = spawn(program, [...before, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let output = '';
      const partial = { stdout: '', stderr: '' };
      const take = (stream: 'stdout' | 'stderr', text: string) => {
        output = (output + text).slice(-65536);
        if (!onLine) return;
        const lines = (partial[stream] + text).split('\n');
        partial[stream] = lines.pop()!;
        for (const line of lines) onLine(line);
      };
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (text: string) => {
        if (stdout.length < 1 << 20) stdout += text;
        take('stdout', text);
      });
      child.stderr.on('data', (text: string) => take('stderr', text));
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (err: NodeJS.ErrnoException) => {
        signal?.removeEventListener('abort', onAbort);
        if (err.code === 'ENOENT') {
          reject(
            new ToolkitError(
              `Jena's ${command} (${program}) was not found: give --tdbloader the path of Jena's bin/tdb2.tdbloader, or a folder of Jena's jars (see docs/fuseki.md)`,
              'usage',
              { cause: err },
            ),
          );
        } else {
          reject(new ToolkitError(`cannot run Jena's ${command} (${program}): ${err.message}`, 'io', { cause: err }));
        }
      });
      child.on('close', (exitCode) => {
        signal?.removeEventListener('abort', onAbort);
        for (const rest of [partial.stdout, partial.stderr]) if (rest && onLine) onLine(rest);
        if (signal?.aborted) reject(abortError(signal));
        else resolve({ exitCode, stdout, output });
      });
    });
  }

  /** The triples of `graph` in the TDB2 database at `location` (`tdb2.tdbquery`, the query `load` counts with). */
  async count(location: string, graph: string, signal?: AbortSignal): Promise<number> {
    const r = await this.run(
      'tdb2.tdbquery',
      ['--loc', location, '--results=csv', countQuery(graph)],
      signal ? { signal } : {},
    );
    const n = /(?:^|\n)n\r?\n(\d+)\r?(?:\n|$)/.exec(r.stdout);
    if (r.exitCode !== 0 || !n) throw toolError('tdb2.tdbquery', location, r, `the count of <${graph}>`);
    return Number(n[1]);
  }

  /** Empties `graph` in the database at `location` (`tdb2.tdbupdate`, `DROP SILENT GRAPH`). */
  async dropGraph(location: string, graph: string, signal?: AbortSignal): Promise<void> {
    const r = await this.run(
      'tdb2.tdbupdate',
      ['--loc', location, `DROP SILENT GRAPH <${graph}>`],
      signal ? { signal } : {},
    );
    if (r.exitCode !== 0) throw toolError('tdb2.tdbupdate', location, r, `emptying <${graph}>`);
  }
}

/** The folder of Jena's jars `path` names (itself, or its `lib/`), or undefined when it is no folder. */
function jarFolderOf(path: string): string | undefined {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    return undefined;
  }
  if (!isFolder) return undefined;
  for (const folder of [path, join(path, 'lib')]) {
    if (existsSync(folder) && readdirSync(folder).some((f) => JENA_CMDS_JAR.test(f))) return folder;
  }
  throw new ToolkitError(
    `--tdbloader: the folder ${path} holds no jena-cmds-*.jar (nor does its lib/): give Jena's bin/tdb2.tdbloader, or the folder of Jena's jars`,
    'usage',
  );
}

/** Jena's own message in a tool's output: its ERROR lines, else the first line of an exception, else the last lines. */
export function jenaMessage(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
  const errors = lines.filter((l) => /\bERROR\b/.test(l)).map((l) => l.replace(/^\S*\s*ERROR\s+\S+\s+::\s*/, ''));
  if (errors.length > 0) return errors.slice(0, 3).join('; ');
  const exception = lines.find((l) => /^(\S+\.)?\w+(Exception|Error)\b/.test(l) && !/^\s*at /.test(l));
  if (exception) return exception;
  return lines.slice(-3).join('; ') || 'no message';
}

/** The error of a TDB2 tool that failed: `io` naming the database and Jena's message (a database in use says so). */
export function toolError(command: TdbCommand, location: string, r: TdbRun, doing: string): ToolkitError {
  const message = jenaMessage(r.output);
  const locked = /Failed to get a lock|already locked|held by process/i.test(message);
  const hint = locked
    ? ' (a running Fuseki, or another loader, holds the database: stop it first; TDB2 is opened by one process at a time)'
    : '';
  return new ToolkitError(
    `Jena's ${command} failed (${doing}, database ${location}, exit code ${r.exitCode ?? 'none'}): ${message}${hint}`,
    'io',
    {
      details: { command, location, exitCode: r.exitCode },
    },
  );
}

/**
 * The file a `tdb2.tdbloader` log line says is done, or undefined: `End file: NAME (triples/quads = N)` of a
 * load of several files, `Finished: NAME: N tuples in …` of a load of one (not `Finished: 2 files: …`).
 */
export function fileDoneOf(line: string): TdbFileDone | undefined {
  const m =
    /:: +End file: (.+) \(triples\/quads = ([\d,]+)\)\s*$/.exec(line) ??
    /:: Finished: (.+): ([\d,]+) tuples in /.exec(line);
  if (!m || /^[\d,]+ files$/.test(m[1]!)) return undefined;
  return { name: m[1]!, tuples: Number(m[2]!.replaceAll(',', '')) };
}
