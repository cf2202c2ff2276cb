import { readFile } from 'node:fs/promises';
import type { HarvestCursor } from '../client/harvest.js';
import type { SplitUnit } from '../client/dateWindows.js';
import { ToolkitError, ioError } from '../errors.js';
import type { FormatName } from '../formats.js';
import type { ShardedState } from '../output/ShardedOutput.js';
import { writeFileAtomically } from '../output/writeFileAtomically.js';

/** Counts of an export so far. */
export interface ExportCounts {
  pages: number;
  records: number;
  duplicates: number;
  rejects: number;
  /**
   * Statements (triples or quads) of the records written, repeats included:
   * a shared node (journal, publisher, person with an ORCID, ...) is written
   * again in every record that names it, so this is not the number of
   * distinct triples of the dump.
   */
  triples: number;
  /**
   * The distinct statements of the dump (what a graph loaded with it holds): `triples` less the repeats of
   * statements about shared entities (`isSharedTriple`), kept as 53-bit keys, memory growing with the
   * distinct statements about shared entities, not with the records. Exact for a run that was not
   * resumed (up to the keys' collisions, n²/2^54 among n); after a resume the keys of the statements
   * written before it are not at hand, and a shared entity's statements written again count again: an
   * upper bound (`distinctExact` false). Absent in a state written before they were counted.
   */
  distinctTriples?: number;
  /** Whether {@link distinctTriples} is exact (else an upper bound). */
  distinctExact?: boolean;
  retries: number;
}

/** The counts of an export that has written nothing yet. */
export function noCounts(): ExportCounts {
  return {
    pages: 0,
    records: 0,
    duplicates: 0,
    rejects: 0,
    triples: 0,
    distinctTriples: 0,
    distinctExact: true,
    retries: 0,
  };
}

/** The finished export a delta continues (`changesSince`), as its state recorded it. */
export interface PreviousExport {
  /** Its dataset IRI (the description of the delta says it was derived from it). */
  dataset: string;
  /** When it started (ISO 8601, UTC): the delta's `since` is this day. */
  startedAt: string;
}

/** The options that must be the same when an export is resumed. */
export interface ExportIdentity {
  query: string;
  /** Endpoint URL, without the key. */
  endpoint: string;
  format: FormatName;
  gzip: boolean;
  pageSize: number;
  maxStart: number;
  maxRecords: number | null;
  splitBy: SplitUnit | null;
  graph: string | null;
  /** Whether each record is in its own named graph (`--graph-per-record`). */
  graphPerRecord: boolean;
  base: string | null;
  /** Whether records are checked against the shapes (`--validate`). */
  validate: boolean;
  /** The limits of the shards; absent for a dump in one file. */
  shards?: { records: number | null; bytes: number | null };
  /** A delta (`since`, `changesSince`): the records online since this day (`YYYY-MM-DD`); absent for a full export. */
  since?: string;
}

/**
 * The checkpoint of a resumable export, written (temp file + fsync + rename)
 * after every page. It only ever points at fsynced data: the output, rejects
 * and DOI side files are committed before it.
 */
export interface ExportState {
  /** 2 since the graph model of issue 17 (shared nodes; other counts): a state of version 1 is not resumed. */
  version: 2;
  identity: ExportIdentity;
  cursor: HarvestCursor;
  counts: ExportCounts;
  /** Works (records written) per class IRI of the work (for the VoID class partitions). */
  classes: Record<string, number>;
  /** Classes of the other nodes written (journals, persons, ...), sorted: a work class among them has no exact count. */
  otherClasses: string[];
  /** The query's total from its first page. */
  total: number | null;
  /** The service's notice text (`apiMessage`), described as what it is in the dataset description. */
  apiMessage: string | null;
  startedAt: string;
  /**
   * Output bytes committed (before any closing part) and their SHA-256; with shards, the shard being written's.
   * `partial`: the dump is written as `<output>.partial` and renamed to its name once the export has finished
   * (absent in states of earlier versions, which wrote it under its name).
   */
  output: { length: number; sha256: string; partial?: boolean };
  /** With shards: those finished and the one being written. */
  shards?: ShardedState;
  /** Bytes of the rejects file committed. */
  rejects: { path: string; length: number } | null;
  /** Bytes of the DOI side file committed (8 bytes per DOI). */
  seen: { length: number };
  /** Whether the export finished (the output then holds its closing part too). */
  complete: boolean;
  /** When it finished (with `complete`): the end time of its provenance, so a description written again says the same. */
  endedAt?: string;
  /** The description file (`metaPath`) written after the export finished; absent until it is (a `resume` then writes it). */
  metaWritten?: string;
  /** A delta of `changesSince`: the finished export it follows (its `since` is the day that one started). */
  previous?: PreviousExport;
}

/** Reads a state file; `undefined` when there is none. */
export async function readExportState(path: string): Promise<ExportState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(err, path, 'read', 'the state file');
  }
  try {
    const state = JSON.parse(text) as ExportState;
    if ((state.version as number) === 1)
      throw new Error(
        'written by an earlier version, whose records are mapped differently: the dump would mix the two',
      );
    if (state.version !== 2 || !state.identity || !state.cursor) throw new Error('not a state file of this version');
    return state;
  } catch (err) {
    throw new ToolkitError(
      `the state file ${path} is not usable (${(err as Error).message}); remove it and start afresh`,
      'state-mismatch',
      { cause: err },
    );
  }
}

/**
 * Writes a state file atomically: a temp file beside it, fsynced, renamed
 * over it, and the folder fsynced. A write that fails (a full disk) throws
 * `io` naming the state file, and leaves the state as it was (the temp file
 * removed).
 */
export async function writeExportState(path: string, state: ExportState): Promise<void> {
  await writeFileAtomically(path, `${JSON.stringify(state, null, 1)}\n`, 'the state file');
}

/** Names what differs between a saved identity and the current one, or `undefined` when they match. */
export function identityMismatch(saved: ExportIdentity, current: ExportIdentity): string | undefined {
  const diffs: string[] = [];
  // Both sides' keys: a key only one of them has (`shards`) differs too.
  for (const key of new Set([...Object.keys(current), ...Object.keys(saved)]) as Set<keyof ExportIdentity>) {
    if (JSON.stringify(saved[key]) !== JSON.stringify(current[key]))
      diffs.push(`${key} (saved ${JSON.stringify(saved[key])}, now ${JSON.stringify(current[key])})`);
  }
  return diffs.length ? diffs.join(', ') : undefined;
}
