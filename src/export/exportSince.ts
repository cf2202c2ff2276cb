import { extractDateBounds } from '../client/dateWindows.js';
import { ToolkitError } from '../errors.js';
import { isCalendarDate } from '../rdf/calendar.js';
import { formatInfo, formatsWith, labelList, type FormatName } from '../formats.js';
import { type ExportState, type PreviousExport, readExportState } from './ExportState.js';
import { datasetIri } from './datasetIri.js';

/** What a delta export harvests: records the service lists as online since `since`, after the export `previous`. */
export interface ExportDelta {
  /** `YYYY-MM-DD`; undefined for a full export (`changesSince` without a finished export before it). */
  since: string | undefined;
  previous: PreviousExport | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `usage` error (naming `name`) unless `value` is a calendar date `YYYY-MM-DD`. */
export function checkSinceDate(value: string, name = '`since`'): string {
  if (!DATE.test(value) || !isCalendarDate(value))
    throw new ToolkitError(
      `${name} must be a date YYYY-MM-DD (the service's onlineDate), not ${JSON.stringify(value)}`,
      'usage',
    );
  return value;
}

/** Whether each record goes into its own named graph: `graphPerRecord`, which a delta turns on by default. */
export function usesRecordGraphs(options: {
  since?: string;
  changesSince?: boolean;
  graphPerRecord?: boolean;
}): boolean {
  return options.graphPerRecord ?? (options.since !== undefined || options.changesSince === true);
}

/**
 * Checks the options of a delta (`since` or `changesSince`): not both, and a
 * dump with a named graph per record (`load --upsert` replaces each record's
 * graph), so N-Quads or JSON-LD, without `graph` and not `graphPerRecord:
 * false`. A `usage` error naming the option otherwise.
 */
export function checkDeltaOptions(
  options: { since?: string; changesSince?: boolean; graph?: string; graphPerRecord?: boolean },
  format: FormatName,
): void {
  if (options.since === undefined && !options.changesSince) return;
  if (options.since !== undefined && options.changesSince)
    throw new ToolkitError(
      '`since` (a date) and `changesSince` (the date of the last export) do not go together',
      'usage',
    );
  const name = options.since !== undefined ? '`since`' : '`changesSince`';
  if (options.since !== undefined) checkSinceDate(options.since);
  const why =
    'writes a delta with a named graph per record (`graphPerRecord`), so that `load --upsert` replaces each record as a whole';
  if (options.graphPerRecord === false || options.graph !== undefined)
    throw new ToolkitError(
      `${name} ${why}: not with ${options.graph !== undefined ? '`graph`' : '`graphPerRecord: false`'}`,
      'usage',
    );
  if (!formatInfo(format).namedGraphs)
    throw new ToolkitError(
      `${name} ${why}: ${labelList(formatsWith('namedGraphs'))} output, not ${formatInfo(format).label}`,
      'usage',
    );
}

/**
 * The query sent for the records online since `since`: the query with the
 * term `onlinedatefrom:<since>` (a query of terms joined by AND that has a
 * later `onlinedatefrom:` keeps it; a query with OR or NOT is put in
 * parentheses first, as AND binds tighter). The query itself without `since`.
 */
export function sinceQuery(query: string, since: string | undefined): string {
  if (since === undefined) return query;
  const bounds = extractDateBounds(query);
  // The client's own parser says whether the query is terms joined by AND: only then does it take date terms as bounds.
  if (extractDateBounds(`${bounds.rest} onlinedatefrom:${since}`).from === undefined)
    return `(${query.trim()}) onlinedatefrom:${since}`;
  const from = bounds.from !== undefined && bounds.from > since ? bounds.from : since;
  return `${bounds.rest} onlinedatefrom:${from}${bounds.to !== undefined ? ` onlinedateto:${bounds.to}` : ''}`.trim();
}

/**
 * The delta an export harvests. With `since`, that date. With
 * `changesSince`, the state at `statePath`: a finished export of the same
 * query, endpoint and format gives the day it started (UTC), so nothing put
 * online while it ran is missed (records of that day are harvested again:
 * harmless with `load --upsert`); an unfinished delta (resumed or restarted)
 * keeps the date and previous export it had; no state, or an unfinished full
 * export, gives none (everything is harvested). A finished export of another
 * query: `state-mismatch`.
 */
export async function resolveDelta(
  options: { since?: string; changesSince?: boolean; query: string },
  statePath: string | undefined,
): Promise<ExportDelta> {
  if (!options.changesSince) return { since: options.since, previous: undefined };
  if (!statePath)
    throw new ToolkitError(
      '`changesSince` needs the state file of the last export (`output`, or `statePath`)',
      'usage',
    );
  const saved = await readExportState(statePath);
  if (!saved) return { since: undefined, previous: undefined };
  if (!saved.complete) return { since: saved.identity.since, previous: saved.previous };
  if (saved.identity.query !== options.query) {
    throw new ToolkitError(
      `\`changesSince\`: the state file ${statePath} is of an export of another query (${JSON.stringify(saved.identity.query)}); give the state file of this query's last export (\`statePath\`)`,
      'state-mismatch',
      { details: { statePath } },
    );
  }
  return { since: saved.startedAt.slice(0, 10), previous: previousOf(saved) };
}

/** The previous export a finished state describes. */
function previousOf(saved: ExportState): PreviousExport {
  return { dataset: datasetIri(saved.identity), startedAt: saved.startedAt };
}
