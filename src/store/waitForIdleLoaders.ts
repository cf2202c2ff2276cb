import { sleep } from '../abort.js';
import type { VirtuosoIsql } from './VirtuosoIsql.js';
import { orphanIsqlClients, type OrphanIsqlClient } from './orphanIsqlClients.js';
import { filesBeingLoaded, type LoadingFile } from './virtuosoBulkSteps.js';

/** What a bulk load found running before it changed anything, and waits for. */
export interface BusyLoaders {
  /** Files Virtuoso's loaders are reading now (`load_list` state 1), in any graph. */
  loading: LoadingFile[];
  /** `isql` clients of a killed load, still running on this machine. */
  orphans: OrphanIsqlClient[];
}

/**
 * Waits until no loader runs on the server (no file of `load_list` in state 1) and no `isql` client of a
 * killed load runs here, reading both every `pollMs` and telling `onWait` what it found each time. A
 * `CLEAR GRAPH` or a new `rdf_loader_run()` beside running loaders is what lost triples of other graphs
 * (issue 32), so nothing is changed before this returns. After something was found, the server is read
 * once more a poll later (a loader takes its next file right after the last). Rejects `aborted` on `signal`.
 */
export async function waitForIdleLoaders(
  isql: VirtuosoIsql,
  options: {
    pollMs: number;
    signal?: AbortSignal;
    onWait?: (busy: BusyLoaders) => void;
    findOrphans?: () => OrphanIsqlClient[];
  },
): Promise<BusyLoaders | undefined> {
  const findOrphans = options.findOrphans ?? orphanIsqlClients;
  let found: BusyLoaders | undefined;
  let quietReads = 0;
  for (;;) {
    const busy: BusyLoaders = { loading: await filesBeingLoaded(isql), orphans: findOrphans() };
    if (busy.loading.length === 0 && busy.orphans.length === 0) {
      if (!found || ++quietReads >= 2) return found;
    } else {
      quietReads = 0;
      found = busy;
      options.onWait?.(busy);
    }
    await sleep(options.pollMs, options.signal);
  }
}

/** What {@link BusyLoaders} says, in words: "2 files being loaded (a.nt into <g>, ...); isql clients of a killed load (pids 12, 13)". */
export function describeBusyLoaders(busy: BusyLoaders): string {
  const parts: string[] = [];
  if (busy.loading.length > 0) {
    const files = busy.loading
      .slice(0, 5)
      .map((f) => `${f.file} into <${f.graph}>`)
      .join(', ');
    parts.push(
      `Virtuoso is loading ${busy.loading.length} file(s) now (${files}${busy.loading.length > 5 ? ', ...' : ''})`,
    );
  }
  if (busy.orphans.length > 0) {
    parts.push(
      `isql clients of a load that was killed run on (pid ${busy.orphans.map((o) => o.pid).join(', ')}, started by process ${[...new Set(busy.orphans.map((o) => o.startedBy))].join(', ')})`,
    );
  }
  return parts.join('; ');
}
