import type { HarvestPage } from '../client/harvest.js';
import type { DoiContents } from '../pipeline/DoiContents.js';
import type { RecordSink } from '../pipeline/RecordSink.js';
import { normalizeRecord } from '../record/normalizeRecord.js';
import type { ReadItem } from '../record/readRecords.js';
import { recordDigest } from '../record/recordDigest.js';
import { sentRecordDoi } from '../record/recordDoi.js';

/** A record of a page the harvest dropped as a duplicate, with its place in the page (1-based). */
export type DroppedRecord = HarvestPage['duplicateRecords'][number];

/**
 * A page's records through the sink, and the records the harvest dropped as duplicates handed to `compare` in
 * their place among them (conflicts are counted in the order of the page). Returns the text the sink made.
 */
export async function takePage(
  sink: RecordSink,
  items: readonly ReadItem[],
  dropped: readonly DroppedRecord[],
  compare: (dropped: DroppedRecord) => void,
): Promise<string> {
  let text = '';
  let from = 0;
  for (const [k, copy] of dropped.entries()) {
    // The page's records before this copy: its place, less the copies before it.
    const upTo = copy.place - 1 - k;
    if (upTo > from) text += await sink.take(items.slice(from, upTo));
    from = Math.max(from, upTo);
    compare(copy);
  }
  return text + (await sink.take(items.slice(from)));
}

/**
 * A record of a page the harvest dropped as a duplicate, compared with the record of its DOI written in this
 * run (`contents`): the conflict's note when its content differs (the first is in the dump). One that cannot
 * be read is let be (the first is written; this copy says nothing that can be compared).
 */
export function droppedConflict(
  contents: DoiContents,
  hp: HarvestPage,
  { record, place }: DroppedRecord,
  endpoint: string,
): string | undefined {
  const doi = sentRecordDoi(record);
  if (doi === undefined) return undefined;
  let digest: [number, number];
  try {
    digest = recordDigest(normalizeRecord(record, { recordLabel: doi }));
  } catch {
    return undefined;
  }
  const window = hp.window ? ` of ${hp.window.from}..${hp.window.to}` : '';
  const label = `${endpoint} result ${hp.page.start + place - 1}${window} (dropped as a duplicate)`;
  return contents.dropped(doi, digest, label)?.conflict?.note;
}
