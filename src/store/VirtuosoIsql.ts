import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ToolkitError, hideSecrets } from '../errors.js';
import {
  ISQL_SETTINGS,
  ROW_PREFIX,
  codeOfIsqlError,
  markerOf,
  plainIsqlMessage,
  readIsqlAnswer,
  type IsqlAnswer,
} from './virtuosoIsqlText.js';

/** How to reach Virtuoso's SQL port with `isql`. */
export interface VirtuosoIsqlOptions {
  /** Host of Virtuoso's SQL port. Defaults to `127.0.0.1`. */
  host?: string;
  /** Virtuoso's SQL port (`ServerPort` of `[Parameters]` in virtuoso.ini; not the HTTP port). Defaults to 1111. */
  port?: number;
  /** The SQL user; the bulk loader needs `dba` or a user granted its procedures. Defaults to `dba`. */
  user?: string;
  /** The user's password. Never printed, logged or put in an error. */
  password: string;
  /** The `isql` client of Virtuoso (`isql-vt` on Debian and Ubuntu, `isql` in OpenLink's builds). Defaults to `isql-vt`. */
  command?: string;
}

/** The environment variable every isql client this class starts has, set to the starting process's pid (so that a later run can find clients a killed one left). */
export const ISQL_MARK = 'SCHOLARLY_RDF_ISQL_OF';

interface Pending {
  marker: string;
  lines: string[];
  resolve: (answer: IsqlAnswer) => void;
  reject: (err: unknown) => void;
}

/**
 * One `isql` session with Virtuoso: a client process that stays connected,
 * is fed one statement at a time on its standard input and answers on its
 * standard output (see virtuosoIsqlText.ts for the conversation). Statements
 * run in the order they are given; each resolves with its rows or error.
 *
 * The password is never on the client's command line (where every user of
 * the machine sees it in `ps` and /proc/PID/cmdline). Measured on
 * `isql-vt` 07.20.3229: it reads no environment variable and no file for it
 * (only OPENSSL_CONF, TZ and the CGI variables), and without one on its
 * command line it first tries the user's name as the password, then prints
 * "Enter password for USER :" and reads the password from /dev/tty, or from
 * its standard input when it has no terminal. So the client is started in a
 * session of its own (no controlling terminal) and the password is the first
 * line of its standard input. The first try is a failed login in the server's
 * log; the login that follows resets the server's count of failed logins
 * (which refuses an IP for 60 s after 4 in a row), so sessions are opened one
 * at a time. A password equal to the user's name is not written (the first
 * try succeeds). Every text this class puts in an error has the password
 * taken out.
 */
export class VirtuosoIsql {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private buffer = '';
  private stderr = '';
  private exited: { code: number | null; signal: NodeJS.Signals | null; error?: Error } | undefined;
  private readonly exit: Promise<void>;
  private count = 0;
  private readonly where: string;
  /** Whether isql asks for the password (it first tried the user's name): its refusal of that try comes before the first answer. */
  private readonly prompted: boolean;

  private constructor(private readonly options: VirtuosoIsqlOptions) {
    const host = options.host ?? '127.0.0.1';
    const port = options.port ?? 1111;
    this.where = `${host}:${port}`;
    const user = options.user ?? 'dba';
    if (/[\u0000-\u001f\u007f]/.test(options.password))
      throw new ToolkitError(
        'the Virtuoso password has a line break or another control character: isql cannot be given it',
        'usage',
      );
    // detached: a session of its own, no terminal, so that isql reads the password from its standard input.
    this.child = spawn(options.command ?? 'isql-vt', [this.where, user, ...ISQL_SETTINGS], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, [ISQL_MARK]: String(process.pid) },
    });
    this.prompted = options.password !== user;
    if (this.prompted) this.child.stdin.write(`${options.password}\n`);
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.take(text));
    this.child.stderr.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-4000);
    });
    this.child.stdin.on('error', () => undefined); // a client that exited: the exit handler reports it
    this.exit = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.exited ??= { code: null, signal: null, error };
        this.failAll();
        resolve();
      });
      this.child.on('close', (code, signal) => {
        this.exited ??= { code, signal };
        this.failAll();
        resolve();
      });
    });
  }

  /** Starts a session and checks that the server accepts the login (`auth`, `network` or `usage` when the client is missing). */
  static async open(options: VirtuosoIsqlOptions): Promise<VirtuosoIsql> {
    const session = new VirtuosoIsql(options);
    try {
      const answer = await session.run(`select '${ROW_PREFIX}ok';`);
      // The refused first try (the user's name as the password) is printed before the answer; the select answered, so the login succeeded.
      if (answer.rows[0] !== 'ok' && answer.error) throw session.statementError('the login check', answer.error);
    } catch (err) {
      session.kill();
      await session.exit;
      throw err;
    }
    return session;
  }

  /** Runs one statement (one line ending in `;`); resolves with its rows, or its error as `isql` printed it. */
  run(statement: string): Promise<IsqlAnswer> {
    if (this.exited) return Promise.reject(this.exitError(undefined));
    const { statement: markerStatement, line } = markerOf(++this.count);
    return new Promise((resolve, reject) => {
      this.queue.push({ marker: line, lines: [], resolve, reject });
      this.child.stdin.write(`${statement.trim()}\n${markerStatement}\n`);
    });
  }

  /** Runs one statement; resolves with its rows, rejects with a {@link ToolkitError} when the server refused it. */
  async query(statement: string): Promise<string[]> {
    const answer = await this.run(statement);
    if (answer.error) throw this.statementError(statement, answer.error);
    return answer.rows;
  }

  /** The error of a refused statement, the password taken out. */
  statementError(statement: string, error: { state: string; message: string }): ToolkitError {
    const message = this.hide(
      `Virtuoso at ${this.where} refused \`${statement.slice(0, 300)}\`: ${plainIsqlMessage(error.message)}`,
    );
    return new ToolkitError(message, codeOfIsqlError(error), { details: { sqlState: error.state } });
  }

  /** Ends the session (its standard input closed) and waits for the client to exit. */
  async close(): Promise<void> {
    if (!this.exited) this.child.stdin.end();
    await this.exit;
  }

  /** Stops the client at once (its statement may still run on the server). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGTERM');
  }

  private take(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      const pending = this.queue[0];
      if (!pending) continue;
      if (line.trimEnd() === pending.marker) {
        this.queue.shift();
        pending.resolve(readIsqlAnswer(pending.lines));
      } else {
        pending.lines.push(line);
      }
    }
  }

  private failAll(): void {
    for (const pending of this.queue.splice(0)) pending.reject(this.exitError(pending));
  }

  /** Why the client is gone: it is missing, the login was refused, the connection failed or broke. */
  private exitError(pending: Pending | undefined): ToolkitError {
    const exited = this.exited!;
    const command = this.options.command ?? 'isql-vt';
    if ((exited.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      return new ToolkitError(
        `Virtuoso's isql client \`${command}\` was not found (apt-get install virtuoso-opensource-7-bin, or give the client's path)`,
        'usage',
      );
    }
    const printed = pending ? readIsqlAnswer([...pending.lines, ...this.buffer.split('\n')]).error : undefined;
    if (printed) {
      const code = codeOfIsqlError(printed);
      const hint =
        code === 'auth'
          ? ' (check the user and password; Virtuoso refuses an IP for 60 s after 4 failed logins from it)'
          : '';
      return new ToolkitError(
        this.hide(`Virtuoso at ${this.where}: ${plainIsqlMessage(printed.message)}${hint}`),
        code,
        { details: { sqlState: printed.state } },
      );
    }
    const how = exited.error
      ? exited.error.message
      : exited.signal
        ? `was stopped by ${exited.signal}`
        : `exited with code ${exited.code}`;
    const said = this.stderr.trim()
      ? `: ${this.stderr.trim().length > 500 ? `…${this.stderr.trim().slice(-500)}` : this.stderr.trim()}`
      : '';
    return new ToolkitError(
      this.hide(`the isql session with Virtuoso at ${this.where} ended (${command} ${how})${said}`),
      'network',
    );
  }

  private hide(text: string): string {
    return hideSecrets(text, [this.options.password], '***');
  }
}
