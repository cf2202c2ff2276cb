/**
 * Helpers of the integration suite: the external judges (Apache Jena's riot
 * and SHACL, Debian's 4.5 and 5.6 from `$SCHOLARLY_JENA_LIB`; rapper; Python
 * rdflib; pySHACL from `$SCHOLARLY_PYTHON`) and the suite's Virtuoso and
 * Fuseki servers.
 *
 * A missing tool: every helper throws (it cannot judge anything). To let a
 * developer without the tools run the rest, guard a block with
 * `describe.runIf(needTools('jena', 'rapper'))`; when `process.env.CI` is set
 * `needTools` throws instead of returning false, so in CI a missing tool fails
 * the file and is never a skip.
 */
import { runCli as runCliInProcess } from '../helpers/cli.js';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { readExportState } from '../../src/export/ExportState.js';

const exec = promisify(execFile);

/** The project's root directory. */
export const ROOT = resolve(import.meta.dirname, '../..');
const JENA = resolve(ROOT, 'scripts/jena.sh');
const RDFLIB = resolve(ROOT, 'scripts/rdflib-parse.py');

/** The tools the suite knows: `jena` is Debian's Jena 4.5 (scripts/jena.sh), `jena5` the Jena 5.6 jars of `$SCHOLARLY_JENA_LIB`. */
export type Tool = 'jena' | 'jena5' | 'rapper' | 'rdflib' | 'pyshacl' | 'virtuoso' | 'fuseki';

/** The folder of the Jena 5.6 jars (scripts/jenaJars.sh), or undefined. */
export const JENA_LIB = process.env['SCHOLARLY_JENA_LIB'] || undefined;
/** The Python of the run's virtual environment (pySHACL, the official clients), or undefined. */
const PYTHON = process.env['SCHOLARLY_PYTHON'] || undefined;

/** The arguments of `java` running a class of the Jena 5.6 jars. */
export function jena5Args(mainClass: string, args: readonly string[]): string[] {
  return ['-Xmx1g', '-cp', `${JENA_LIB}/*`, mainClass, ...args];
}

const probes: Record<Tool, () => boolean> = {
  jena: () => probe('bash', [JENA, 'riot', '--version']),
  jena5: () => JENA_LIB !== undefined && probe('java', jena5Args('riotcmd.riot', ['--version'])),
  rapper: () => probe('rapper', ['--version']),
  rdflib: () => probe('/usr/bin/python3', ['-c', 'import rdflib']),
  pyshacl: () => PYTHON !== undefined && probe(PYTHON, ['-c', 'import pyshacl']),
  virtuoso: () => inject('virtuoso').baseUrl !== undefined,
  fuseki: () => inject('fuseki').baseUrl !== undefined,
};
const known = new Map<Tool, boolean>();

function probe(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

function missingReason(tool: Tool): string {
  switch (tool) {
    case 'jena':
      return 'Apache Jena does not run (apt-get install libapache-jena-java libxerces2-java unzip; see scripts/jena.sh)';
    case 'rapper':
      return 'rapper not found (apt-get install raptor2-utils)';
    case 'rdflib':
      return 'Python rdflib not found (apt-get install python3-rdflib)';
    case 'jena5':
      return JENA_LIB
        ? `Jena 5.6 riot does not run from ${JENA_LIB}`
        : 'SCHOLARLY_JENA_LIB is not set (the Jena 5.6 jars: scripts/jenaJars.sh DIR prints the folder)';
    case 'pyshacl':
      return PYTHON
        ? `pySHACL is not installed for ${PYTHON}`
        : 'SCHOLARLY_PYTHON is not set (a Python with pyshacl: pip install -r scripts/ci-requirements.txt)';
    case 'virtuoso':
      return inject('virtuoso').unavailable ?? 'Virtuoso is not available';
    case 'fuseki':
      return inject('fuseki').unavailable ?? 'Fuseki is not available';
  }
}

/** Whether a tool is there (probed once per file). */
export function hasTool(tool: Tool): boolean {
  let ok = known.get(tool);
  if (ok === undefined) {
    ok = probes[tool]();
    known.set(tool, ok);
  }
  return ok;
}

/**
 * True when every tool is there. A tool missing: throws when `process.env.CI`
 * is set (a failure in CI), else returns false (the caller skips).
 */
export function needTools(...tools: Tool[]): boolean {
  const missing = tools.filter((t) => !hasTool(t));
  if (missing.length === 0) return true;
  const why = missing.map(missingReason).join('; ');
  if (process.env['CI']) throw new Error(`integration tools missing in CI: ${why}`);
  console.warn(`skipping: ${why}`);
  return false;
}

function requireTool(tool: Tool): void {
  if (!hasTool(tool)) throw new Error(missingReason(tool));
}

/** The result of running an external judge. */
export interface ToolResult {
  ok: boolean;
  exitCode: number;
  /** stdout and stderr together (the judge's messages). */
  output: string;
  stdout: string;
}

async function runTool(cmd: string, args: string[]): Promise<ToolResult> {
  try {
    const { stdout, stderr } = await exec(cmd, args, { maxBuffer: 1 << 30, timeout: 600_000 });
    return { ok: true, exitCode: 0, output: `${stdout}${stderr}`, stdout };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    const exitCode = typeof e.code === 'number' ? e.code : -1;
    return { ok: false, exitCode, output: `${e.stdout ?? ''}${e.stderr ?? e.message}`, stdout: e.stdout ?? '' };
  }
}

/**
 * `riot --validate` over files: ok only when Jena reports no error and no
 * warning (ill-typed literals included). JSON-LD files (`.jsonld`) are read as
 * JSON-LD 1.0 (`--syntax=jsonld10`), the only JSON-LD Jena 4.5 on Debian reads.
 */
export async function riotValidate(files: readonly string[]): Promise<ToolResult> {
  requireTool('jena');
  const jsonld = files.filter((f) => /\.jsonld(\.gz)?$/i.test(f));
  const others = files.filter((f) => !jsonld.includes(f));
  const results: ToolResult[] = [];
  if (others.length > 0) results.push(await runTool('bash', [JENA, 'riot', '--validate', ...others]));
  if (jsonld.length > 0)
    results.push(await runTool('bash', [JENA, 'riot', '--validate', '--syntax=jsonld10', ...jsonld]));
  return {
    ok: results.every((r) => r.ok),
    exitCode: results.find((r) => !r.ok)?.exitCode ?? 0,
    output: results.map((r) => r.output).join(''),
    stdout: results.map((r) => r.stdout).join(''),
  };
}

/** A file's triples as N-Triples, written by Jena's riot (`--syntax` for JSON-LD 1.0 when asked). */
export async function riotNTriples(file: string, syntax?: string): Promise<string> {
  requireTool('jena');
  const args = [JENA, 'riot', '--output=nt', ...(syntax ? [`--syntax=${syntax}`] : []), file];
  const r = await runTool('bash', args);
  if (!r.ok) throw new Error(`riot could not read ${file}: ${r.output}`);
  return r.stdout;
}

/** `riot --validate` of Jena 5.6 over files (JSON-LD read as JSON-LD 1.1, its default): ok only with no error and no warning. */
export async function riot5Validate(files: readonly string[]): Promise<ToolResult> {
  requireTool('jena5');
  const r = await runTool('java', jena5Args('riotcmd.riot', ['--validate', ...files]));
  // riot exits 0 after warnings; a warning (an ill-typed literal, a bad IRI) is a failure here.
  return { ...r, ok: r.ok && !/\b(WARN|ERROR)\b/.test(r.output) };
}

/** A file's triples as N-Triples, written by Jena 5.6 riot. */
export async function riot5NTriples(file: string): Promise<string> {
  requireTool('jena5');
  const r = await runTool('java', jena5Args('riotcmd.riot', ['--output=nt', file]));
  if (!r.ok) throw new Error(`Jena 5.6 riot could not read ${file}: ${r.output}`);
  return r.stdout;
}

/** Jena 5.6 SHACL (`shacl.shacl validate`) of a data file: `conforms` and the report (Turtle). */
export async function jena5Shacl(shapes: string, data: string): Promise<{ conforms: boolean; report: string }> {
  requireTool('jena5');
  const r = await runTool('java', jena5Args('shacl.shacl', ['validate', '--shapes', shapes, '--data', data]));
  if (!r.ok) throw new Error(`Jena 5.6 SHACL failed on ${data}: ${r.output}`);
  // Jena 5.6 logs to stdout (its warnings on ill-typed literals): the report is the rest.
  const report = r.stdout.replace(/^\d\d:\d\d:\d\d (TRACE|DEBUG|INFO|WARN|ERROR) .*\n/gm, '');
  const m = /sh:conforms\s+(true|false)/.exec(report);
  if (!m) throw new Error(`no sh:conforms in Jena 5.6's report: ${r.stdout}`);
  return { conforms: m[1] === 'true', report };
}

/**
 * pySHACL (`$SCHOLARLY_PYTHON -m pyshacl`) of a data file against the shapes, SHACL-SPARQL on (`--advanced`), no
 * inference: `conforms` and the report as Turtle. Exit 0 conforms, 1 does not, anything else is a failure of the tool.
 */
export async function pyShacl(shapes: string, data: string): Promise<{ conforms: boolean; report: string }> {
  requireTool('pyshacl');
  const r = await runTool(PYTHON!, [
    '-m',
    'pyshacl',
    '--shacl',
    shapes,
    '--advanced',
    '--format',
    'turtle',
    '--shacl-file-format',
    'turtle',
    '--data-file-format',
    'nt',
    data,
  ]);
  if (!r.ok && r.exitCode !== 1) throw new Error(`pySHACL failed on ${data}: ${r.output}`);
  const m = /sh:conforms\s+(true|false)/.exec(r.stdout);
  if (!m) throw new Error(`no sh:conforms in pySHACL's report: ${r.output.slice(0, 2000)}`);
  return { conforms: m[1] === 'true', report: r.stdout };
}

/** The syntaxes rapper reads (it has no JSON-LD). */
export type RapperSyntax = 'turtle' | 'ntriples' | 'nquads' | 'rdfxml' | 'trig';

/** `rapper -i SYNTAX -c FILE`: ok when rapper reports no error and no warning; `triples` is rapper's count. */
export async function rapperParse(file: string, syntax: RapperSyntax): Promise<ToolResult & { triples: number }> {
  requireTool('rapper');
  const r = await runTool('rapper', ['-i', syntax, '-c', file]);
  const m = /returned (\d+) (triples|statements)/.exec(r.output);
  const warned = /rapper: (Warning|Error)/.test(r.output);
  return { ...r, ok: r.ok && !warned, triples: m ? Number(m[1]) : -1 };
}

/** Triple count (quads for N-Quads) of a file read by Python rdflib; throws on a parse error. */
export async function rdflibCount(file: string, format: string): Promise<number> {
  requireTool('rdflib');
  const r = await runTool('/usr/bin/python3', [RDFLIB, file, format]);
  if (!r.ok) throw new Error(`rdflib could not parse ${file} as ${format}: ${r.output}`);
  return Number(r.stdout.trim());
}

/** A file's triples as N-Triples, written by Python rdflib (reads JSON-LD 1.1). */
export async function rdflibNTriples(file: string, format: string): Promise<string> {
  requireTool('rdflib');
  const r = await runTool('/usr/bin/python3', [RDFLIB, file, format, '--ntriples']);
  if (!r.ok) throw new Error(`rdflib could not parse ${file} as ${format}: ${r.output}`);
  return r.stdout;
}

/** A file's quads as N-Quads, written by Python rdflib (every graph; the default graph's quads as triples). */
export async function rdflibNQuads(file: string, format: string): Promise<string> {
  requireTool('rdflib');
  const r = await runTool('/usr/bin/python3', [RDFLIB, file, format, '--nquads']);
  if (!r.ok) throw new Error(`rdflib could not parse ${file} as ${format}: ${r.output}`);
  return r.stdout;
}

/** A file's quads as N-Quads, written by rapper (`-i SYNTAX -o nquads`); throws on an error or a warning. */
export async function rapperNQuads(file: string, syntax: RapperSyntax): Promise<string> {
  requireTool('rapper');
  const r = await runTool('rapper', ['-q', '-i', syntax, '-o', 'nquads', file]);
  if (!r.ok || /rapper: (Warning|Error)/.test(r.output))
    throw new Error(`rapper could not read ${file} as ${syntax}: ${r.output}`);
  return r.stdout;
}

/**
 * `riot` of Apache Jena 5.6 (the jars of `$SCHOLARLY_JENA_LIB`, which .ci/run fetches with scripts/jenaJars.sh):
 * a file's quads as N-Quads, after `--validate`-strict reading (an error or a warning throws).
 */
export async function riot5NQuads(file: string): Promise<string> {
  requireTool('jena5');
  const check = await runTool('java', jena5Args('riotcmd.riot', ['--validate', file]));
  if (!check.ok || /WARN|ERROR/.test(check.output))
    throw new Error(`Jena 5.6 riot --validate ${file}: ${check.output}`);
  const r = await runTool('java', jena5Args('riotcmd.riot', ['--output=nq', file]));
  if (!r.ok) throw new Error(`Jena 5.6 riot could not read ${file}: ${r.output}`);
  return r.stdout;
}

/** Jena SHACL validation of a data file: `conforms` from the validation report. */
export async function jenaShacl(shapes: string, data: string): Promise<{ conforms: boolean; report: string }> {
  requireTool('jena');
  const r = await runTool('bash', [JENA, 'shacl', 'validate', '--shapes', shapes, '--data', data]);
  if (!r.ok) throw new Error(`Jena SHACL failed on ${data}: ${r.output}`);
  const m = /sh:conforms\s+(true|false)/.exec(r.stdout);
  if (!m) throw new Error(`no sh:conforms in Jena's report: ${r.stdout}`);
  return { conforms: m[1] === 'true', report: r.stdout };
}

/** The suite's Virtuoso server. */
export interface VirtuosoServer {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  /** SPARQL protocol endpoint (`/sparql`). */
  sparql: string;
  /** Anonymous Graph Store endpoint (`/sparql-graph-crud`). */
  gsp: string;
  /** Graph Store endpoint with HTTP Digest (`/sparql-graph-crud-auth`, user dba/dba). */
  gspAuth: string;
  dir: string | undefined;
}

/** The Virtuoso started by the global setup; throws when there is none. */
export function withVirtuoso(): VirtuosoServer {
  const info = inject('virtuoso');
  if (!info.baseUrl) throw new Error(missingReason('virtuoso'));
  return {
    baseUrl: info.baseUrl,
    sparql: `${info.baseUrl}/sparql`,
    gsp: `${info.baseUrl}/sparql-graph-crud`,
    gspAuth: `${info.baseUrl}/sparql-graph-crud-auth`,
    dir: info.dir,
  };
}

/** The suite's Fuseki 5.6 (scripts/fuseki.sh): three datasets on one server. */
export interface FusekiServer {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  /** In-memory dataset, updatable: `…/mem`. */
  mem: string;
  /** TDB2 dataset, updatable, persistent in `dir/tdb`: `…/tdb`. */
  tdb: string;
  /** In-memory dataset behind HTTP Basic (user `user`, password `password`): `…/auth`. */
  auth: string;
  user: string;
  password: string;
  dir: string;
}

/** The Fuseki started by the global setup; throws when there is none. */
export function withFuseki(): FusekiServer {
  const info = inject('fuseki');
  if (!info.baseUrl || !info.dir) throw new Error(missingReason('fuseki'));
  const password = /^loader: (.*)$/m.exec(readFileSync(resolve(info.dir, 'passwd'), 'utf8'))![1]!;
  return {
    baseUrl: info.baseUrl,
    mem: `${info.baseUrl}/mem`,
    tdb: `${info.baseUrl}/tdb`,
    auth: `${info.baseUrl}/auth`,
    user: 'loader',
    password,
    dir: info.dir,
  };
}

/** A store the suite loads into, as the store-generic tests see it. */
export interface StoreTarget {
  /** `load --endpoint` */
  endpoint: string;
  /** `load --store` */
  store: 'virtuoso' | 'fuseki';
  /** SPARQL query endpoint (GET `?query=`, POST form). */
  query: string;
  /** An endpoint that wants credentials (Virtuoso: the same server, its `-auth` endpoints with Digest; Fuseki: the `/auth` dataset with Basic). */
  auth: { endpoint: string; user: string; password: string; graphStorePath: string };
}

/** The stores the store-generic tests run against: the tool each needs, and its target. */
export const STORES: { name: string; tool: Tool; target: () => StoreTarget }[] = [
  {
    name: 'Virtuoso 7',
    tool: 'virtuoso',
    target: () => {
      const v = withVirtuoso();
      return {
        endpoint: v.baseUrl,
        store: 'virtuoso',
        query: v.sparql,
        auth: { endpoint: v.baseUrl, user: 'dba', password: 'dba', graphStorePath: '/sparql-graph-crud-auth?graph=' },
      };
    },
  },
  {
    name: 'Fuseki 5.6 (TDB2)',
    tool: 'fuseki',
    target: () => {
      const f = withFuseki();
      return {
        endpoint: f.tdb,
        store: 'fuseki',
        query: `${f.tdb}/query`,
        auth: { endpoint: f.auth, user: f.user, password: f.password, graphStorePath: '/auth/data?graph=' },
      };
    },
  },
];

/** A TCP port free on the loopback interface right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      server.close(() => resolvePort(port));
    });
  });
}

/** The {@link STORES} whose tool is there (in CI a missing one throws: {@link needTools}). */
export function storesToTest(): typeof STORES {
  return STORES.filter((s) => needTools(s.tool));
}

/** The bindings of a SPARQL SELECT over the protocol (GET), their values as text; `headers` for credentials. */
export async function sparqlSelect(
  queryUrl: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<Record<string, string>[]> {
  const url = new URL(queryUrl);
  url.searchParams.set('query', query);
  const res = await fetch(url, { headers: { accept: 'application/sparql-results+json', ...headers } });
  if (res.status !== 200) throw new Error(`SPARQL query at ${queryUrl} answered ${res.status}: ${await res.text()}`);
  const json = (await res.json()) as { results: { bindings: Record<string, { value: string }>[] } };
  return json.results.bindings.map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, t.value])));
}

/** The result of an in-process CLI run. */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process (`runCli` of test/helpers/cli.ts, from the project root by default) and captures its output. */
export async function runCli(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; signal?: AbortSignal; cwd?: string } = {},
): Promise<CliResult> {
  const { code, stdout, stderr } = await runCliInProcess(argv, { ...options, cwd: options.cwd ?? ROOT });
  return { exitCode: code, stdout, stderr };
}

/** The built binary (`npm run build`). */
export const BIN = resolve(ROOT, 'bin/scholarly-rdf.js');

/** Builds /work/main/dist when it is missing (a run of one integration file before any build). */
export function ensureBuilt(): void {
  if (!existsSync(resolve(ROOT, 'dist/cli/main.js')))
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

/** Runs the built binary in `cwd` to its end: exit code, stdout, stderr (a failure is a result, not a throw). */
export async function runBin(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A run of the built binary in a child process: `kill()` sends SIGKILL; `done` is its exit code, null when killed. */
export interface SpawnedCli {
  done: Promise<number | null>;
  kill: () => void;
}

/**
 * Runs the built binary with `args` in a child process (the API key in its
 * environment), to be killed with SIGKILL at a chosen moment; its stderr is
 * printed when it ends with an error of its own.
 */
export function spawnCli(args: readonly string[], apiKey: string): SpawnedCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, SCHOLARLY_API_KEY: apiKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && code !== 0) console.error(stderr);
      resolve(signal === 'SIGKILL' ? null : code);
    }),
  );
  return { done, kill: () => child.kill('SIGKILL') };
}

/**
 * Waits for `child` to end, killing it with SIGKILL once the checkpoint at
 * `statePath` counts `records` more records than when it started, plus
 * `jitterMs` (so that the kill falls anywhere in the next page); after
 * `giveUpMs` it is killed anyway. A moment tied to progress, not to the clock:
 * a run that starts faster still dies midway. Resolves to its exit code (null when killed).
 */
export async function killAfterProgress(
  start: () => SpawnedCli,
  statePath: string,
  o: { records: number; jitterMs: number; giveUpMs: number },
): Promise<number | null> {
  const recordsNow = async () => (await readExportState(statePath).catch(() => null))?.counts.records ?? 0;
  const target = (await recordsNow()) + o.records;
  const child = start();
  let ended = false;
  const watch = (async () => {
    const deadline = Date.now() + o.giveUpMs;
    while (!ended && Date.now() < deadline && (await recordsNow()) < target) await new Promise((r) => setTimeout(r, 5));
    if (!ended) await new Promise((r) => setTimeout(r, o.jitterMs));
    if (!ended) child.kill();
  })();
  const code = await child.done;
  ended = true;
  await watch;
  return code;
}
