import { abortError } from '../abort.js';
import type { VirtuosoIsql } from './VirtuosoIsql.js';
import { runLoader, stopLoaders } from './virtuosoBulkSteps.js';

/** What {@link runBulkJobs} needs. */
export interface BulkJobsOptions {
  /** The session that reads progress and, on abort, stops the loaders. */
  control: VirtuosoIsql;
  /** `rdf_loader_run()` sessions at once. */
  jobs: number;
  /** Opens one more session (one per job). */
  open: () => Promise<VirtuosoIsql>;
  /** Called every `pollMs` while the loaders run (reads `load_list`); a failure of it is ignored (progress only). */
  poll: () => Promise<void>;
  pollMs: number;
  signal?: AbortSignal;
}

/**
 * Runs `rdf_loader_run()` in `jobs` sessions at once and waits until every
 * one returns (no file is left waiting), calling `poll` in between. On abort
 * the loaders are told to stop after their current file (`rdf_load_stop()`
 * on the control session), awaited, and `aborted` is thrown. A session that
 * fails (the connection broke) fails the run once the others returned.
 */
export async function runBulkJobs(options: BulkJobsOptions): Promise<void> {
  const { control, jobs, signal } = options;
  // One at a time: each login is a refused try and a good one (see VirtuosoIsql), and the server refuses an IP after 4 refused in a row.
  const sessions: VirtuosoIsql[] = [];
  try {
    for (let i = 0; i < jobs; i++) sessions.push(await options.open());
  } catch (err) {
    await Promise.all(sessions.map((s) => s.close()));
    throw err;
  }
  let stopping: Promise<void> | undefined;
  const onAbort = () => {
    stopping ??= stopLoaders(control).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  let finished = false;
  const all = Promise.allSettled(sessions.map((s) => runLoader(s).finally(() => s.close()))).then((results) => {
    finished = true;
    return results;
  });
  try {
    while (!finished) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, options.pollMs)))]);
      clearTimeout(timer);
      if (!finished && !signal?.aborted) await options.poll().catch(() => undefined);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const results = await all;
  await stopping;
  if (signal?.aborted) throw abortError(signal);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
