/**
 * Issue 32 on the suite's real Virtuoso 7: a bulk load killed with SIGKILL midway (its isql clients run on,
 * re-parented), then run again with --replace while another graph is loaded, then again without --replace.
 * Every other graph's count is unchanged, the re-run's graph exact; no isql client is left once the loaders
 * have exited; the password is on no process's command line at any time (every /proc/PID/cmdline read
 * while the loads run). The loads log in as a user of their own whose password is not its name (the
 * suite's dba/dba would put nothing on stdin), made a DBA (group 0) for the bulk loader's procedures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtuosoIsql, ISQL_MARK } from '../../src/store/VirtuosoIsql.js';
import { loadListOf } from '../../src/store/virtuosoBulkSteps.js';
import { bulkLoad } from '../../src/tasks/bulkLoad.js';
import { BIN, ensureBuilt, needTools, withVirtuoso, type VirtuosoServer } from './helpers.js';

const USER = 'bulkkill';
const PASSWORD = 'Bulk-Kill-Pw-7321x';
const BASE = 'https://w3id.org/scholarly-rdf/graph/it-bulk-kill';

function sqlPort(dir: string): number {
  return Number(/^SQL_PORT=(\d+)$/m.exec(readFileSync(join(dir, 'ports'), 'utf8'))![1]);
}

async function sparqlCount(v: VirtuosoServer, graph: string): Promise<number> {
  const url = new URL(v.sparql);
  url.searchParams.set('query', `SELECT (COUNT(*) AS ?n) FROM <${graph}> WHERE { ?s ?p ?o }`);
  const res = await fetch(url, { headers: { accept: 'application/sparql-results+json' } });
  return Number(
    ((await res.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value,
  );
}

/** `shards` files of `size` distinct triples each (a journal's triple repeated in every one), named `name.NNN.nt`. */
function makeShards(dir: string, name: string, shards: number, size: number): { files: string[]; distinct: number } {
  const files: string[] = [];
  for (let f = 0; f < shards; f++) {
    const lines = Array.from(
      { length: size },
      (_, i) => `<https://ex.org/${name}/s${f}-${i}> <http://schema.org/name> "${name} ${f} ${i}" .`,
    );
    lines.push('<https://w3id.org/scholarly-rdf/journal/11306> <http://schema.org/name> "Metabolomics" .');
    const file = join(dir, `${name}.${String(f).padStart(3, '0')}.nt`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  return { files, distinct: shards * size + 1 };
}

/** Processes whose command line holds `text` (every /proc/PID/cmdline this user may read). */
function commandLinesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline.replace(/\0/g, ' ')}`);
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** Processes started with the isql mark in their environment (clients of VirtuosoIsql) by another process than this one. */
function markedClients(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (environ.includes(`${ISQL_MARK}=`) && !environ.includes(`${ISQL_MARK}=${process.pid}\0`))
        found.push(Number(pid));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** Runs the built CLI; `kill()` sends SIGKILL. */
function cli(args: readonly string[]): { done: Promise<{ code: number | null; stderr: string }>; kill: () => void } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, SCHOLARLY_STORE_PASSWORD: PASSWORD },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  return { done, kill: () => child.kill('SIGKILL') };
}

describe.runIf(needTools('virtuoso'))('bulk load killed midway, then run again (Virtuoso)', () => {
  let v: VirtuosoServer;
  let work: string;
  let port: number;
  let dba: VirtuosoIsql;
  const seen: string[] = [];
  let watching = true;
  let watcher: Promise<void>;

  beforeAll(async () => {
    ensureBuilt();
    v = withVirtuoso();
    port = sqlPort(v.dir!);
    work = mkdtempSync(join(v.dir!, 'bulk-kill-'));
    dba = await VirtuosoIsql.open({ port, password: 'dba' });
    await dba.run(`DB.DBA.USER_CREATE('${USER}', '${PASSWORD}');`);
    await dba.query(`update SYS_USERS set U_GROUP = 0 where U_NAME = '${USER}';`);
    const id = (
      await dba.query(`select concat('R:', cast(U_ID as varchar)) from SYS_USERS where U_NAME = '${USER}';`)
    )[0];
    await dba.query(
      `DB.DBA.SECURITY_CL_EXEC_AND_LOG('sec_set_user_struct (?,?,?,?,?)', vector('${USER}', '${PASSWORD}', ${id}, 0, null));`,
    );
    // Every command line, read again and again while the loads run.
    watcher = (async () => {
      while (watching) {
        seen.push(...commandLinesWith(PASSWORD));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
  });
  afterAll(async () => {
    watching = false;
    await watcher;
    await dba?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'other graphs keep their counts, the re-run graph is exact, no isql is left, no password on a command line',
    { timeout: 600_000 },
    async () => {
      const a = makeShards(work, 'a', 16, 10_000);
      const b = makeShards(work, 'b', 2, 5_000);
      const c = makeShards(work, 'c', 4, 5_000);
      const graph = (n: string) => `${BASE}-${n}`;
      const base = { port, user: USER, password: PASSWORD, pollMs: 100 };
      const bSummary = await bulkLoad({ ...base, graph: graph('b'), files: b.files, replace: true });
      expect(bSummary.count).toBe(b.distinct);

      const args = (replace: boolean) => [
        'load',
        '--store',
        'virtuoso',
        '--bulk',
        '--graph',
        graph('a'),
        '--isql-port',
        String(port),
        '--user',
        USER,
        '--jobs',
        '2',
        ...(replace ? ['--replace'] : []),
        ...a.files,
      ];
      // Killed once a file is loaded and files still wait: a moment tied to the load's progress.
      const first = cli(args(true));
      let killedMidway = false;
      for (;;) {
        const rows = (await loadListOf(dba, graph('a'))).filter((r) => a.files.includes(r.file));
        if (rows.some((r) => r.state === 2) && rows.some((r) => r.state === 0)) {
          first.kill();
          killedMidway = true;
          break;
        }
        if (rows.length === a.files.length && rows.every((r) => r.state === 2)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await first.done).code).toBeNull();
      expect(killedMidway).toBe(true);

      // Again with --replace while another graph is loaded beside it.
      const again = cli(args(true));
      const beside = bulkLoad({ ...base, graph: graph('c'), files: c.files, replace: true });
      const [r1, cSummary] = await Promise.all([again.done, beside]);
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stderr).toMatch(
        new RegExp(
          `count: +${a.distinct} triples in the graph, ${a.distinct} expected for the ${a.distinct} distinct triples of the files \\(ok\\)`,
        ),
      );
      expect(cSummary.count).toBe(c.distinct);
      expect(await sparqlCount(v, graph('a'))).toBe(a.distinct);
      expect(await sparqlCount(v, graph('b'))).toBe(b.distinct);
      expect(await sparqlCount(v, graph('c'))).toBe(c.distinct);

      // And without --replace: the same triples, bounds checked, exit 0 with the note.
      const third = await cli(args(false)).done;
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).toContain('an exact count needs --replace');
      expect(await sparqlCount(v, graph('a'))).toBe(a.distinct);
      expect(await sparqlCount(v, graph('b'))).toBe(b.distinct);
      expect(await sparqlCount(v, graph('c'))).toBe(c.distinct);

      // No isql client is left (the killed load's ran on until its loaders ended; the re-run waited for them).
      expect(markedClients()).toEqual([]);
      expect(commandLinesWith(PASSWORD)).toEqual([]);
      expect(seen).toEqual([]);
    },
  );
});
