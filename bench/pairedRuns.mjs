// What bench/convertJobs and bench/validateJobs print of paired runs (--jobs 1 against --jobs N): one row's cells.

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * The cells of a row: triples/s of each mode and their ratio, CPU ns per triple of each and their ratio, peak RSS of
 * each, and whether the outputs' SHA-256 are the same. `runs[j]`: each run's `{ ms, cpuMs, rssMb }`; `triples(r)`:
 * the triples of a run; `hashes[j]`: the SHA-256 of its output.
 */
export function pairedCells(runs, jobs, triples, hashes) {
  const rate = (j) => median(runs[j].map((r) => triples(r) / (r.ms / 1000)));
  const rss = (j) => median(runs[j].map((r) => r.rssMb));
  const cpu = (j) => median(runs[j].map((r) => (r.cpuMs * 1e6) / triples(r)));
  const same =
    hashes[1] === hashes[jobs]
      ? `${hashes[1].slice(0, 16)}`
      : `DIFFER ${hashes[1].slice(0, 8)} ${hashes[jobs].slice(0, 8)}`;
  return [
    rate(1).toFixed(0).padStart(16),
    rate(jobs).toFixed(0).padStart(17),
    `${(rate(jobs) / rate(1)).toFixed(2)}x`.padStart(6),
    cpu(1).toFixed(0).padStart(16),
    cpu(jobs).toFixed(0).padStart(16),
    `${(cpu(jobs) / cpu(1)).toFixed(2)}x`.padStart(10),
    `${rss(1).toFixed(0)} MB`.padStart(11),
    `${rss(jobs).toFixed(0)} MB`.padStart(11),
    ` ${same}`,
  ];
}

/**
 * The spread of the pairs (round by round: `runs[1][i]` against `runs[jobs][i]`, run one after the other): the
 * lowest and highest wall-time ratio (triples/s of N over 1) and CPU ratio (N over 1), as `1.62-1.79x`. A wide
 * spread says the machine was busy with other work; quote the medians with it.
 */
export function pairSpread(runs, jobs) {
  const pairs = runs[1].map((one, i) => [one, runs[jobs][i]]).filter(([, n]) => n !== undefined);
  const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;
  return {
    wall: range(pairs.map(([one, n]) => one.ms / n.ms)),
    cpu: range(pairs.map(([one, n]) => n.cpuMs / one.cpuMs)),
  };
}
