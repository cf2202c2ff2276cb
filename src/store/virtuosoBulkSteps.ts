import { dirname } from 'node:path';
import { ToolkitError } from '../errors.js';
import type { VirtuosoIsql } from './VirtuosoIsql.js';
import {
  LOAD_LIST_ROW_SQL,
  ROW_PREFIX,
  isAccessDenied,
  parseLoadListRow,
  sparqlIri,
  sqlString,
  type LoadListRow,
} from './virtuosoIsqlText.js';

/**
 * The SQL steps of a Virtuoso bulk load, each over an `isql` session
 * ({@link VirtuosoIsql}): check that the server may read the files, register
 * them in `DB.DBA.load_list`, run `rdf_loader_run()`, read the list back,
 * `checkpoint`, count the graph. The task `bulkLoad` puts them in order.
 */

/** The setting of virtuoso.ini that lists the folders the server may read files in. */
export const DIRS_ALLOWED = 'DirsAllowed';

/**
 * Checks that the server sees each file and may read it (Virtuoso reads the
 * files itself). Throws `io` naming the folders that are not in the server's
 * `DirsAllowed` (the setting, its value, the folders to add), or the files the
 * server does not see (a `serverDir` that is not where the server sees them).
 */
export async function checkServerCanRead(isql: VirtuosoIsql, serverPaths: readonly string[]): Promise<void> {
  const denied = new Set<string>();
  const missing: string[] = [];
  for (const path of serverPaths) {
    const answer = await isql.run(
      `select concat('${ROW_PREFIX}', cast(length(file_to_string_output(${sqlString(path, 'a file name')}, 0, 0)) as varchar));`,
    );
    if (isAccessDenied(answer.error)) denied.add(dirname(path));
    else if (answer.error && /FA112|Can't stat|No such file/i.test(answer.error.message)) missing.push(path);
  }
  if (denied.size > 0) {
    const folders = [...denied];
    const now = await dirsAllowed(isql);
    throw new ToolkitError(
      `Virtuoso may not read the files in ${folders.join(', ')}: add ${folders.length === 1 ? 'that folder' : 'those folders'} to ${DIRS_ALLOWED} in the [Parameters] section of the server's virtuoso.ini` +
        ` (now: ${now === undefined ? 'unknown' : JSON.stringify(now)}) and restart Virtuoso, or put the files in a folder listed there and give it as the server folder (serverDir)`,
      'io',
      { details: { setting: `[Parameters] ${DIRS_ALLOWED}`, folders, dirsAllowed: now } },
    );
  }
  if (missing.length > 0) {
    const names = missing.slice(0, 5).join(', ');
    throw new ToolkitError(
      `Virtuoso sees no file at ${names}${missing.length > 5 ? `, ... (${missing.length} files)` : ''}: the server reads the files itself, so they must be on its machine; give the folder the server sees them in (serverDir) when it is not this one`,
      'io',
      { details: { files: missing } },
    );
  }
}

/** The server's `DirsAllowed`, or undefined when it cannot be read. */
async function dirsAllowed(isql: VirtuosoIsql): Promise<string | undefined> {
  const answer = await isql.run(
    `select concat('${ROW_PREFIX}', cfg_item_value(virtuoso_ini_path(), 'Parameters', '${DIRS_ALLOWED}'));`,
  );
  return answer.error ? undefined : answer.rows[0];
}

/** The `load_list` rows of one graph. */
export async function loadListOf(isql: VirtuosoIsql, graph: string): Promise<LoadListRow[]> {
  const rows = await isql.query(
    `select ${LOAD_LIST_ROW_SQL} from DB.DBA.load_list where ll_graph = ${sqlString(graph, 'the graph IRI')};`,
  );
  return rows.map(parseLoadListRow);
}

/** How many files of `load_list` wait to be loaded into graphs other than `graph` (a run of `rdf_loader_run()` loads them too). */
export async function otherWaitingFiles(isql: VirtuosoIsql, graph: string): Promise<number> {
  const rows = await isql.query(
    `select concat('${ROW_PREFIX}', cast(count(*) as varchar)) from DB.DBA.load_list where ll_state = 0 and ll_graph <> ${sqlString(graph, 'the graph IRI')};`,
  );
  return Number(rows[0] ?? 0);
}

/**
 * Registers the files for loading into `graph` (`ld_add`), after removing
 * their earlier rows (`ld_add` keeps a file already listed, loaded or not, so
 * a second load of it would do nothing). Throws `usage` when one of them is
 * being loaded right now (state 1).
 */
export async function registerFiles(isql: VirtuosoIsql, serverPaths: readonly string[], graph: string): Promise<void> {
  for (const path of serverPaths) {
    const file = sqlString(path, 'a file name');
    const busy = await isql.query(
      `select concat('${ROW_PREFIX}', ll_graph) from DB.DBA.load_list where ll_file = ${file} and ll_state = 1;`,
    );
    if (busy.length > 0)
      throw new ToolkitError(
        `${path} is being loaded by Virtuoso right now (into <${busy[0]}>); wait for that load to end`,
        'usage',
        { details: { file: path } },
      );
    await isql.query(`delete from DB.DBA.load_list where ll_file = ${file};`);
    await isql.query(`ld_add(${file}, ${sqlString(graph, 'the graph IRI')});`);
  }
}

/** Takes the files that still wait (state 0) out of `load_list` (after a cancelled load: no later `rdf_loader_run()` should load them). */
export async function unregisterWaiting(isql: VirtuosoIsql, serverPaths: readonly string[]): Promise<void> {
  for (const path of serverPaths)
    await isql.query(
      `delete from DB.DBA.load_list where ll_file = ${sqlString(path, 'a file name')} and ll_state = 0;`,
    );
}

/** Runs `rdf_loader_run()` in a session (until no file waits); resolves when it returns. */
export async function runLoader(isql: VirtuosoIsql): Promise<void> {
  await isql.query('rdf_loader_run();');
}

/** Asks the running loaders to stop after the file each is loading (`rdf_load_stop()`). */
export async function stopLoaders(isql: VirtuosoIsql): Promise<void> {
  await isql.query('rdf_load_stop();');
}

/** Makes the loaded triples durable (`checkpoint`: the bulk loader writes no transaction log). */
export async function checkpoint(isql: VirtuosoIsql): Promise<void> {
  await isql.query('checkpoint;');
}

/** Empties the graph (`SPARQL CLEAR GRAPH`, without a transaction log: `log_enable(3, 1)`, then back to `log_enable(1, 1)`). */
export async function clearGraph(isql: VirtuosoIsql, graph: string): Promise<void> {
  await isql.query('log_enable(3, 1);');
  try {
    await isql.query(`SPARQL CLEAR GRAPH ${sparqlIri(graph)};`);
  } finally {
    await isql.query('log_enable(1, 1);');
  }
}

/** The graph's triple count: `SELECT COUNT(*) FROM <g> WHERE { ?s ?p ?o }` (the `FROM` form; see countGraph.ts). */
export async function countTriples(isql: VirtuosoIsql, graph: string): Promise<number> {
  const rows = await isql.query(
    `SPARQL SELECT (CONCAT("${ROW_PREFIX}", STR(COUNT(*))) AS ?n) FROM ${sparqlIri(graph)} WHERE { ?s ?p ?o };`,
  );
  const n = Number(rows[0]);
  if (rows.length !== 1 || !Number.isSafeInteger(n))
    throw new ToolkitError(
      `Virtuoso's COUNT of <${graph}> has no count: ${JSON.stringify(rows.slice(0, 2))}`,
      'bad-response',
    );
  return n;
}

/** A file Virtuoso's loaders are reading now (`ll_state = 1`), in any graph. */
export interface LoadingFile {
  file: string;
  graph: string;
}

/** The files of `load_list` being loaded now, in every graph (a load of someone else, or the loaders of a killed load running on). */
export async function filesBeingLoaded(isql: VirtuosoIsql): Promise<LoadingFile[]> {
  const rows = await isql.query(
    `select concat('${ROW_PREFIX}', ll_file, '\\t', ll_graph) from DB.DBA.load_list where ll_state = 1;`,
  );
  return rows.map((row) => {
    const [file = '', graph = ''] = row.split('\t');
    return { file, graph };
  });
}

/**
 * Files of `load_list` waiting (state 0) to be loaded into `graph` that are not among `serverPaths`: another
 * load of the same graph, which the loaders of this one would load too (and a `replace` would not make exact).
 */
export async function otherLoadsOfGraph(
  isql: VirtuosoIsql,
  graph: string,
  serverPaths: readonly string[],
): Promise<string[]> {
  const ours = new Set(serverPaths);
  const rows = await isql.query(
    `select concat('${ROW_PREFIX}', ll_file) from DB.DBA.load_list where ll_state = 0 and ll_graph = ${sqlString(graph, 'the graph IRI')};`,
  );
  return rows.filter((file) => !ours.has(file));
}
