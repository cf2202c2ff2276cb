import { ToolkitError } from '../errors.js';
import { TERM_MEDIA_TYPES } from './acceptHeader.js';
import type { FetchedTerm } from './fetchTerm.js';
import { loadShippedTerm } from './loadShippedTerm.js';

/** One format asked for by {@link checkTerm}: what came back, or the error. */
export interface TermFormatResult {
  /** The media type asked for. */
  asked: string;
  term?: FetchedTerm;
  error?: Error;
}

/** Two graphs that differ: the triples (N-Triples lines) only in the first, only in the second. */
export interface TermDiff {
  /** What the first is (a media type asked for). */
  asked: string;
  onlyInFirst: readonly string[];
  onlyInSecond: readonly string[];
}

/** What {@link checkTerm} found. */
export interface TermCheck {
  /** Every format asked for, in the order asked. */
  formats: TermFormatResult[];
  /** The media types that came back as another format (the service does not negotiate them). */
  notServed: string[];
  /** Whether the formats that came back are the same graph (none came back: false). */
  agree: boolean;
  /** The formats that came back and differ from the first one that did, each against it (its media type: `reference`). */
  differences: TermDiff[];
  /** The media type the others were compared with; undefined when none came back. */
  reference: string | undefined;
  /**
   * The shipped copy (vocab/): undefined when none came back to compare; `missing` when there is none (why);
   * else the formats that differ from it (empty: all the same).
   */
  shipped: { missing: string } | { unlike: TermDiff[] } | undefined;
  /** Whether all is well: every format served as asked, the same graph, and the shipped one. */
  ok: boolean;
}

/**
 * Asks for a term in every format (`term --check`): whether each is served
 * as asked, whether they are the same graph, and whether it is the shipped
 * copy's. `get` fetches one format (the network, or the shipped copies).
 * When nothing at all came back (the service down, the term unknown), that
 * error is thrown rather than a comparison of nothing.
 */
export async function checkTerm(name: string, get: (mediaType: string) => Promise<FetchedTerm>): Promise<TermCheck> {
  // Graph isomorphism (rdf-isomorphic) is loaded for the check only.
  const { compareGraphs } = await import('./compareGraphs.js');
  const formats: TermFormatResult[] = [];
  for (const asked of TERM_MEDIA_TYPES) {
    try {
      formats.push({ asked, term: await get(asked) });
    } catch (err) {
      if (err instanceof ToolkitError && err.code === 'aborted') throw err;
      formats.push({ asked, error: err as Error });
    }
  }
  const ok = formats.filter((r) => r.term);
  if (ok.length === 0 && formats.some((r) => !(r.error instanceof ToolkitError && r.error.code === 'parse')))
    throw formats[0]!.error!;
  const notServed = ok.filter((r) => r.term!.mediaType !== r.asked).map((r) => r.asked);
  const reference = ok[0];
  const differences: TermDiff[] = [];
  for (const r of ok.slice(1)) {
    const cmp = compareGraphs(r.term!.quads, reference!.term!.quads);
    if (!cmp.same) differences.push({ asked: r.asked, onlyInFirst: cmp.onlyInFirst, onlyInSecond: cmp.onlyInSecond });
  }
  let shipped: TermCheck['shipped'];
  if (ok.length > 0) {
    try {
      const copy = await loadShippedTerm(name, 'ntriples');
      // Every format that came back, not only the first: they may disagree among themselves.
      const unlike = ok
        .map((r) => ({ asked: r.asked, cmp: compareGraphs(r.term!.quads, copy.quads) }))
        .filter((c) => !c.cmp.same)
        .map((c) => ({ asked: c.asked, onlyInFirst: c.cmp.onlyInFirst, onlyInSecond: c.cmp.onlyInSecond }));
      shipped = { unlike };
    } catch (err) {
      shipped = { missing: (err as Error).message };
    }
  }
  const agree = ok.length > 0 && differences.length === 0;
  const failed = formats.length - ok.length;
  return {
    formats,
    notServed,
    agree,
    differences,
    reference: reference?.asked,
    shipped,
    ok:
      failed === 0 &&
      notServed.length === 0 &&
      agree &&
      (shipped === undefined || !('unlike' in shipped) || shipped.unlike.length === 0),
  };
}
