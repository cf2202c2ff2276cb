import { NTriplesWriter } from '../rdf/NTriplesWriter.js';
import type { NTriplesRecordGroup } from './groupNTriplesRecords.js';
import type { RecordGroup } from './groupRecords.js';

/**
 * The groups of {@link groupRecords} as N-Triples lines (for {@link regroupRecords}):
 * how a dump in another format is regrouped. Blank nodes keep their labels.
 */
export async function* recordTextsOf(
  groups: AsyncIterable<RecordGroup>,
  source: string,
): AsyncGenerator<NTriplesRecordGroup, void, undefined> {
  const writer = new NTriplesWriter(false, 'N-Triples', undefined);
  for await (const g of groups)
    yield { key: g.key, format: 'ntriples', source, text: writer.write(g.quads), lines: [] };
}
