import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { ToolkitError, ioError } from '../errors.js';

/** What a lock file says about the export that holds it. */
export interface LockHolder {
  /** Its process id. */
  pid: number;
  /** When its process started (Linux: clock ticks after boot, from `/proc`), to tell a reused process id; absent when not known. */
  start?: string;
  /** The machine it runs on (a process id of another machine cannot be checked). */
  host?: string;
  /** Unique to this holding of the lock. */
  token?: string;
}

/**
 * A lock file beside an export's output (`<output>.lock`): two exports to the
 * same output would overwrite each other's state and pages. Taking it is one
 * atomic step: the lock is written whole to a file of its own, then linked to
 * its name, which fails when the name exists; so a second export never sees
 * an empty or half-written lock. It holds the process id, the start time of
 * that process and the machine. A lock left by a process that is gone
 * (killed; or its id reused by another process since, which has another
 * start time) is taken over, by one export only: the takers race to create
 * a marker named after the stale lock, and the one that creates it replaces
 * the lock.
 */
export class ExportLock {
  private constructor(
    private readonly path: string,
    private readonly marker: string | undefined,
  ) {}

  /** Takes the lock, or throws `usage` naming the process that holds it (`io` when it cannot be written). */
  static async acquire(path: string): Promise<ExportLock> {
    const me: LockHolder = {
      pid: process.pid,
      ...startOf(process.pid),
      host: hostname(),
      token: randomBytes(8).toString('hex'),
    };
    const temp = `${path}.${me.token}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(me)}\n`, { flag: 'wx' });
    } catch (err) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw ioError(err, path, 'create', 'the lock file');
    }
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        if (await linked(temp, path)) return new ExportLock(path, undefined);
        const text = await readFile(path, 'utf8').catch(() => undefined);
        if (text === undefined) continue; // released meanwhile: try again
        const holder = parseHolder(text);
        if (holder && !isGone(holder)) throw heldBy(holder, path);
        // Stale (or not a lock at all): one taker only gets to replace it, the one that creates its marker.
        const marker = `${path}.${staleId(text)}.takeover`;
        if (await linked(temp, marker)) {
          if ((await readFile(path, 'utf8').catch(() => undefined)) === text) {
            await rename(temp, path);
            await removeOtherMarkers(path, marker);
            return new ExportLock(path, marker);
          }
          await rm(marker, { force: true }); // the lock changed meanwhile: look again
        } else {
          await new Promise((r) => setTimeout(r, 10)); // another export is taking it over
        }
      }
      throw new ToolkitError(`cannot take the lock ${path}: other exports keep taking it`, 'usage');
    } finally {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  }

  /**
   * The export that holds the lock of an output, when one does and its
   * process runs; undefined when there is no lock or it is stale.
   */
  static async holder(path: string): Promise<LockHolder | undefined> {
    const text = await readFile(path, 'utf8').catch(() => undefined);
    const holder = text === undefined ? undefined : parseHolder(text);
    return holder && !isGone(holder) ? holder : undefined;
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
    if (this.marker) await rm(this.marker, { force: true });
  }
}

/**
 * Removes the takeover markers of earlier lock contents (left by an export
 * that took a lock over and was killed in turn): they name contents the lock
 * no longer has, so a taker that still races for one fails its check anyway.
 */
async function removeOtherMarkers(path: string, own: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    const marker = join(dirname(path), name);
    if (name.startsWith(prefix) && name.endsWith('.takeover') && marker !== own)
      await rm(marker, { force: true }).catch(() => undefined);
  }
}

/** Creates `name` as a hard link to `file`: false when `name` exists. */
async function linked(file: string, name: string): Promise<boolean> {
  try {
    await link(file, name);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw ioError(err, name, 'create', 'the lock file');
  }
}

/** The holder a lock file names: JSON, or (locks of earlier versions) a process id alone; undefined when it names none. */
function parseHolder(text: string): LockHolder | undefined {
  try {
    const json = JSON.parse(text) as Partial<LockHolder>;
    if (typeof json === 'object' && json !== null && Number.isInteger(json.pid) && json.pid! > 0)
      return json as LockHolder;
  } catch {
    // an earlier version's lock: the process id alone
  }
  const pid = /^\s*(\d+)\s*$/.exec(text)?.[1];
  return pid === undefined ? undefined : { pid: Number(pid) };
}

/** A name for a stale lock's content (its token, else a hash-like digest of the text). */
function staleId(text: string): string {
  const token = (parseHolder(text)?.token ?? '').replace(/[^0-9a-f]/g, '');
  if (token) return token;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** Whether the process that holds a lock is gone: not running, or its id now names a process started at another time. A process of another machine is never gone. */
function isGone(holder: LockHolder): boolean {
  if (holder.host !== undefined && holder.host !== hostname()) return false;
  if (!isRunning(holder.pid)) return true;
  if (holder.start === undefined) return false;
  const now = startOf(holder.pid).start;
  return now !== undefined && now !== holder.start;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // runs, under another user
  }
}

/** When a process started (Linux: field 22 of `/proc/<pid>/stat`, clock ticks after boot); nothing where there is no `/proc`. */
function startOf(pid: number): { start?: string } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start ? { start } : {};
  } catch {
    return {};
  }
}

function heldBy(holder: LockHolder, path: string): ToolkitError {
  const where = holder.host !== undefined && holder.host !== hostname() ? ` on ${holder.host}` : '';
  return new ToolkitError(
    `another export (process ${holder.pid}${where}) is writing this output (lock ${path}); wait for it or stop it`,
    'usage',
    {
      details: { lock: path, pid: holder.pid },
    },
  );
}
