import { readdirSync, readFileSync } from 'node:fs';
import { ISQL_MARK } from './VirtuosoIsql.js';

/** An `isql` client that a process started and that outlived it. */
export interface OrphanIsqlClient {
  pid: number;
  /** The pid of the process that started it (no longer running). */
  startedBy: number;
}

/**
 * The `isql` clients of {@link VirtuosoIsql} whose starting process is gone (a load killed with SIGKILL: its
 * clients run on until their statement, `rdf_loader_run()`, returns). Found by the mark in their environment,
 * in /proc (Linux; elsewhere none are found); processes of other users are not readable and not listed.
 */
export function orphanIsqlClients(procDir = '/proc'): OrphanIsqlClient[] {
  let entries: string[];
  try {
    entries = readdirSync(procDir);
  } catch {
    return [];
  }
  const found: OrphanIsqlClient[] = [];
  const prefix = `${ISQL_MARK}=`;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`${procDir}/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    const mark = environ.split('\0').find((v) => v.startsWith(prefix));
    if (!mark) continue;
    const startedBy = Number(mark.slice(prefix.length));
    if (startedBy === process.pid || isRunning(startedBy)) continue;
    found.push({ pid: Number(entry), startedBy });
  }
  return found;
}

/** Whether a process is running (a zombie counts as gone). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
