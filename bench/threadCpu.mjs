// CPU time by thread of a bench's child (Linux: /proc/self/task), for bench/convertJobs and bench/validateJobs.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds (user + system) of each thread of this process, by thread id (Linux; empty elsewhere). */
export function threadCpu() {
  const out = new Map();
  let tids;
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime (fields 14 and 15), in clock ticks of 10 ms.
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

/** The CPU of a conversion by thread: this one, the `jobs` busiest others (the workers when jobs > 1), the rest. */
export function threadSplit(threads, jobs) {
  const others = [...threads].filter(([tid]) => tid !== process.pid).map(([, ms]) => ms);
  others.sort((a, b) => b - a);
  const workers = jobs > 1 ? others.slice(0, jobs) : [];
  const rest = jobs > 1 ? others.slice(jobs) : others;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return { mainMs: threads.get(process.pid) ?? 0, workersMs: sum(workers), helpersMs: sum(rest) };
}

/**
 * Starts watching this process's threads: their CPU is read when the first worker is terminated (an ended thread's
 * time is the process's, no longer its own), or when `split` is called if none was. `split(jobs)` as {@link threadSplit}.
 */
export async function watchThreads() {
  const { Worker } = await import('node:worker_threads');
  let threads;
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function (...args) {
    threads ??= threadCpu();
    return terminate.apply(this, args);
  };
  return { split: (jobs) => threadSplit(threads ?? threadCpu(), jobs) };
}
