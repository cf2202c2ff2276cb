import { appendFileSync, readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/**
 * An opt-in timeline of `validate --jobs` (a diagnostic, for `bench/validateJobs.bench.mjs --timeline`): with the
 * environment variable `SCHOLARLY_RDF_TIMELINE` set to a file, each thread appends one JSON line an event to it:
 * `{ th, ev, t, run, wait, ...data }`, `th` the thread (0: the main one), `t` the wall clock (ms since the epoch,
 * the same clock in every thread), `run` and `wait` the thread's time on a core and waiting for one (ns, Linux's
 * /proc/thread-self/schedstat; absent elsewhere). Off (undefined) without the variable: nothing is read or written.
 */
export const timeline: { mark(ev: string, data?: Record<string, number | string>): void } | undefined = (() => {
  const file = process.env['SCHOLARLY_RDF_TIMELINE'];
  if (!file) return undefined;
  const sched = (): { run?: number; wait?: number } => {
    try {
      const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
      return { run: run!, wait: wait! };
    } catch {
      return {};
    }
  };
  return {
    mark(ev, data = {}) {
      const line = { th: threadId, ev, t: performance.timeOrigin + performance.now(), ...sched(), ...data };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
  };
})();
