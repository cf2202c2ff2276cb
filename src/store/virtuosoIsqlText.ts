import { ToolkitError, type ErrorCode } from '../errors.js';

/**
 * The text side of talking to Virtuoso through its `isql` client: quoting
 * values into SQL, and reading what `isql` prints back. No process here
 * ({@link VirtuosoIsql} runs the client), so all of it is tested without a
 * server.
 *
 * The conversation is line based: every statement is one line ending in `;`,
 * every result row the toolkit asks for is one column that starts with
 * {@link ROW_PREFIX}, and after each statement a marker `select` prints a
 * line the reader waits for. `isql` runs with `VERBOSE=OFF BANNER=OFF
 * PROMPT=OFF ECHO=OFF ERRORS=STDOUT`, so its output holds rows, error blocks
 * (`*** Error 42000: [Virtuoso Driver][Virtuoso Server]FA003: ...`) and the
 * markers, in the order of the statements.
 */

/** What each result row the toolkit selects starts with (the rest of a printed line is padding, error text or echo). */
export const ROW_PREFIX = 'R:';

/** The `isql` settings of the conversation (after host, user and password on its command line). */
export const ISQL_SETTINGS = [
  'VERBOSE=OFF',
  'BANNER=OFF',
  'PROMPT=OFF',
  'ECHO=OFF',
  'ERRORS=STDOUT',
  'BLOBS=ON',
] as const;

/** The marker statement printed after statement number `n`, and the line it prints. */
export function markerOf(n: number): { statement: string; line: string } {
  const line = `scholarly-rdf-isql-end-${n}`;
  return { statement: `select '${line}';`, line };
}

/**
 * A text as a Virtuoso SQL string literal: `'` doubled and `\` escaped
 * (Virtuoso reads backslash escapes in literals: `'a\b'` is two characters).
 * A line break or other control character is refused (`usage`): a statement
 * must stay on one line, and no file name or IRI the loader handles has one.
 */
export function sqlString(text: string, what = 'a value'): string {
  if (/[\u0000-\u001f\u007f]/.test(text)) {
    throw new ToolkitError(
      `${what} has a control character (a line break, a tab, ...) and cannot be given to Virtuoso: ${JSON.stringify(text)}`,
      'usage',
    );
  }
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** An IRI for a SPARQL query inside a SQL statement (`<...>`); one with `<`, `>`, `"`, a space, `{`, `}`, `|`, `^`, `` ` `` or `\` is refused (`usage`). */
export function sparqlIri(iri: string, what = 'the graph IRI'): string {
  if (iri === '' || /[\u0000-\u0020<>"{}|^`\\]/.test(iri))
    throw new ToolkitError(`${what} is not a valid IRI: ${JSON.stringify(iri)}`, 'usage');
  return `<${iri}>`;
}

/** The answer to one statement: its rows (the prefix taken off, padding trimmed) or the error `isql` printed. */
export interface IsqlAnswer {
  rows: string[];
  /** The first `*** Error` block: its SQL state and message (`FA003: Access to ... denied ...`). */
  error?: { state: string; message: string };
}

/** Reads the lines printed for one statement (those before its marker). */
export function readIsqlAnswer(lines: readonly string[]): IsqlAnswer {
  const rows: string[] = [];
  let error: IsqlAnswer['error'];
  for (const line of lines) {
    if (line.startsWith(ROW_PREFIX)) {
      rows.push(line.slice(ROW_PREFIX.length).trimEnd());
      continue;
    }
    const m = /^\*\*\* Error ([0-9A-Z]+): (.*)$/.exec(line);
    if (m && !error) error = { state: m[1]!, message: m[2]!.trim() };
  }
  return error ? { rows, error } : { rows };
}

/** The message of an `isql` error without the driver's brackets (`[Virtuoso Driver][Virtuoso Server]`). */
export function plainIsqlMessage(message: string): string {
  return message.replace(/^(\[[^\]]*\])+\s*/, '');
}

/**
 * The code of a failed statement or connection: a refused login is `auth`,
 * a connection that failed or broke is `network`, anything else the server
 * refused is `http-status` (the store answered with an error: the toolkit's
 * code for a store's refusal, as over HTTP).
 */
export function codeOfIsqlError(error: { state: string; message: string }): ErrorCode {
  if (error.state === '28000' || /CL034|Bad login/i.test(error.message)) return 'auth';
  if (error.state.startsWith('08') || /CL033|Connect failed|connection (lost|closed)/i.test(error.message))
    return 'network';
  return 'http-status';
}

/** Whether an `isql` error says a file is outside the server's `DirsAllowed` (`FA003: Access to '...' is denied due to access control in ini file`). */
export function isAccessDenied(error: { message: string } | undefined): boolean {
  return error !== undefined && /FA003|denied due to access control/i.test(error.message);
}

/** A `load_list` row as the loader selects it: file, state, error (tab separated, the error's tabs and line breaks made spaces). */
export interface LoadListRow {
  file: string;
  /** 0 waiting, 1 being loaded, 2 done (with or without an error). */
  state: number;
  /** `ll_error`; null when the file loaded without one. */
  error: string | null;
}

/** The SQL expression that selects a `load_list` row as one text ({@link parseLoadListRow} reads it). */
export const LOAD_LIST_ROW_SQL =
  `concat('${ROW_PREFIX}', ll_file, '\\t', cast(ll_state as varchar), '\\t', ` +
  `coalesce(replace(replace(replace(ll_error, '\\t', ' '), '\\n', ' '), '\\r', ' '), '-'))`;

/** Reads a row selected by {@link LOAD_LIST_ROW_SQL}; throws `bad-response` when it is not one. */
export function parseLoadListRow(row: string): LoadListRow {
  const parts = row.split('\t');
  const state = Number(parts[1]);
  if (parts.length < 3 || !Number.isInteger(state))
    throw new ToolkitError(`unexpected load_list row from isql: ${JSON.stringify(row.slice(0, 200))}`, 'bad-response');
  const error = parts.slice(2).join(' ').trim();
  return { file: parts[0]!, state, error: error === '-' || error === '' ? null : error };
}
