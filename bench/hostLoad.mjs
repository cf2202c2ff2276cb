// Whether the cores were free while a bench's child ran (Linux: /proc/stat), for bench/convertJobs and
// bench/validateJobs: a low --jobs ratio then tells a loaded host apart from a slow --jobs N.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The machine's busy and stolen CPU time so far, in ms (all cores; `undefined` where /proc/stat is absent). */
export function hostCpu() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    // cpu user nice system idle iowait irq softirq steal ...: clock ticks of 10 ms.
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { busyMs: (user + nice + system + irq + softirq) * 10, stealMs: steal * 10 };
  } catch {
    return undefined;
  }
}

/**
 * Runs `run` (a child process, waited for) and adds to its figures `othersCores`: the cores that processes other than
 * the child kept busy on average over its wall time (the machine's busy time less the child's own CPU `cpuMs`), and
 * `stealCores`: time the hypervisor gave the cores to other machines. Both near 0: the run had the host to itself.
 */
export function withHostLoad(run) {
  const before = hostCpu();
  const started = performance.now();
  const figures = run();
  const wallMs = performance.now() - started;
  const after = hostCpu();
  if (!before || !after) return figures;
  return {
    ...figures,
    othersCores: Math.max(0, after.busyMs - before.busyMs - figures.cpuMs) / wallMs,
    stealCores: (after.stealMs - before.stealMs) / wallMs,
  };
}

/** The cell of a row: the median cores others held (and stolen, when any) during each mode's runs, `0.02 / 0.31`. */
export function hostLoadCell(runs, jobs, median) {
  const cores = (j, key) => median(runs[j].map((r) => r[key] ?? NaN));
  const steal = cores(1, 'stealCores') + cores(jobs, 'stealCores');
  const cell = `${cores(1, 'othersCores').toFixed(2)} / ${cores(jobs, 'othersCores').toFixed(2)}`;
  return steal > 0.005
    ? `${cell} (stolen ${cores(1, 'stealCores').toFixed(2)} / ${cores(jobs, 'stealCores').toFixed(2)})`
    : cell;
}
