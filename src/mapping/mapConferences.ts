import type * as RDF from '@rdfjs/types';
import type { ScholarlyRecord } from '../record/types.js';
import { type EntityIris, contentHash } from './entityIris.js';
import type { RecordTriples } from './RecordTriples.js';

/** Conferences, each the record's own node named by its content. */
export function mapConferences(
  t: RecordTriples,
  record: ScholarlyRecord,
  iris: EntityIris,
  doi: string,
  work: RDF.NamedNode,
): void {
  for (const info of record.conferenceInfo) {
    const json = JSON.stringify(info) ?? 'null';
    const event = t.ownIri(iris.owned(doi, `conference-${contentHash(json)}`), iris.ownedAscii(doi));
    t.add(work, t.bibo('presentedAt'), event);
    t.type(event, t.schema('Event'), t.bibo('Conference'));
    if (typeof info === 'string' || typeof info === 'number') {
      t.add(event, t.schema('name'), t.str(String(info)));
    } else if (info && typeof info === 'object') {
      const o = info as Record<string, unknown>;
      const name = ['confName', 'name', 'confTitle', 'title']
        .map((k) => o[k])
        .find((v) => typeof v === 'string' && v.trim());
      if (typeof name === 'string') t.add(event, t.schema('name'), t.str(name.trim()));
      t.add(event, t.schema('description'), t.str(json));
    }
  }
}
