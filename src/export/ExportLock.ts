import { open, readFile, rm } from 'node:fs/promises';
import { ToolkitError } from '../errors.js';

/**
 * A lock file beside an export's output (`<output>.lock`, holding the process
 * id): two exports to the same output would overwrite each other's state and
 * pages. A lock left by a process that no longer runs (killed) is taken over.
 */
export class ExportLock {
  private constructor(private readonly path: string) {}

  /** Takes the lock, or throws `usage` naming the process that holds it. */
  static async acquire(path: string): Promise<ExportLock> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, 'wx');
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return new ExportLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new ToolkitError(`cannot create the lock file ${path}: ${(err as Error).message}`, 'io', { cause: err });
        }
      }
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && isRunning(holder)) {
        throw new ToolkitError(`another export (process ${holder}) is writing this output (lock ${path}); wait for it or stop it`, 'usage');
      }
      await rm(path, { force: true }); // stale: its process is gone
    }
    throw new ToolkitError(`cannot take the lock ${path}: another export took it first`, 'usage');
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // runs, under another user
  }
}
