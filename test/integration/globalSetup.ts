/**
 * Global setup of the integration suite: starts one private Virtuoso 7 instance
 * (scripts/virtuoso.sh) and one private Apache Jena Fuseki 5.6 (scripts/fuseki.sh:
 * an in-memory, a TDB2 and a Basic-auth dataset), loopback only, on free ports,
 * for every test file, and stops them at the end. Tests reach them through
 * `withVirtuoso()` and `withFuseki()` in helpers.ts.
 *
 * The instances live in `$SCHOLARLY_VIRTUOSO_DIR` and `$SCHOLARLY_FUSEKI_DIR` when
 * set (.ci/run sets them, so its exit trap can stop a server left by a crashed
 * run), else in temp dirs. When `virtuoso-t` is missing, or `$SCHOLARLY_JENA_LIB`
 * (the Jena 5.6 jars) is not set, the setup provides the reason instead; the
 * helpers then fail in CI and skip elsewhere.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../scripts/virtuoso.sh');
const FUSEKI_SCRIPT = resolve(import.meta.dirname, '../../scripts/fuseki.sh');

/** What the tests get from `inject('virtuoso')`. */
export interface VirtuosoInfo {
  /** Base URL, e.g. `http://127.0.0.1:8890`; absent when the server could not start. */
  baseUrl?: string;
  /** Why there is no server. */
  unavailable?: string;
  /** The instance's directory (for tests that want its log). */
  dir?: string;
}

/** What the tests get from `inject('fuseki')`. */
export interface FusekiInfo {
  /** Base URL, e.g. `http://127.0.0.1:3030`; absent when the server could not start. */
  baseUrl?: string;
  /** Why there is no server. */
  unavailable?: string;
  /** The instance's folder (its log, `passwd`, the TDB2 database `tdb/`). */
  dir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    virtuoso: VirtuosoInfo;
    fuseki: FusekiInfo;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function hasVirtuoso(): Promise<boolean> {
  try {
    await run('sh', ['-c', 'command -v virtuoso-t && command -v isql-vt && command -v curl']);
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stopFuseki = await startFuseki(project);
  const stopVirtuoso = await startVirtuoso(project);
  return async () => {
    await Promise.all([stopFuseki(), stopVirtuoso()]);
  };
}

/** Starts the suite's Fuseki (scripts/fuseki.sh) on a free port; its stop. */
async function startFuseki(project: TestProject): Promise<() => Promise<void>> {
  if (!process.env['SCHOLARLY_JENA_LIB']) {
    project.provide('fuseki', {
      unavailable:
        'SCHOLARLY_JENA_LIB is not set: the Apache Jena 5.6 jars (scripts/jenaJars.sh DIR prints the folder to export)',
    });
    return async () => {};
  }
  const ownDir = !process.env['SCHOLARLY_FUSEKI_DIR'];
  const dir = process.env['SCHOLARLY_FUSEKI_DIR'] ?? (await mkdtemp(join(tmpdir(), 'scholarly-fuseki-')));
  const env = { ...process.env, FUSEKI_PORT: String(await freePort()) };
  const stop = async () => {
    await run('bash', [FUSEKI_SCRIPT, 'stop', dir], { timeout: 60_000 }).catch(() => undefined);
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('bash', [FUSEKI_SCRIPT, 'start', dir], { env, timeout: 180_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    project.provide('fuseki', { unavailable: `Fuseki did not start: ${e.stderr || e.message}`, dir });
    return stop;
  }
  project.provide('fuseki', { baseUrl: `http://127.0.0.1:${env.FUSEKI_PORT}`, dir });
  return stop;
}

/** Starts the suite's Virtuoso (scripts/virtuoso.sh) on free ports; its stop. */
async function startVirtuoso(project: TestProject): Promise<() => Promise<void>> {
  if (!(await hasVirtuoso())) {
    project.provide('virtuoso', {
      unavailable: 'virtuoso-t, isql-vt or curl not found (apt-get install virtuoso-opensource-7-bin curl)',
    });
    return async () => {};
  }
  const ownDir = !process.env['SCHOLARLY_VIRTUOSO_DIR'];
  const dir = process.env['SCHOLARLY_VIRTUOSO_DIR'] ?? (await mkdtemp(join(tmpdir(), 'scholarly-virtuoso-')));
  const sqlPort = await freePort();
  let httpPort = await freePort();
  while (httpPort === sqlPort) httpPort = await freePort();
  const env = { ...process.env, VIRTUOSO_PORT: String(sqlPort), VIRTUOSO_HTTP_PORT: String(httpPort) };
  try {
    await run('bash', [SCRIPT, 'start', dir], { env, timeout: 180_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    project.provide('virtuoso', { unavailable: `Virtuoso did not start: ${e.stderr || e.message}`, dir });
    return async () => {
      await run('bash', [SCRIPT, 'stop', dir]).catch(() => undefined);
    };
  }
  project.provide('virtuoso', { baseUrl: `http://127.0.0.1:${httpPort}`, dir });
  return async () => {
    await run('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 });
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
}
