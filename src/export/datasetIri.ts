import { createHash } from 'node:crypto';
import { DEFAULT_BASE } from '../rdf/namespaces.js';
import type { ExportIdentity } from './ExportState.js';

// Apart from provenance (and its n3): a conversion's check of its inputs reads an export's state, not its quads.

/**
 * The IRI of a dump: `<base>dump/<hash>` where the hash covers the endpoint,
 * the query, the format, the record limit and the graphs, so the same export
 * always gets the same IRI.
 */
export function datasetIri(identity: ExportIdentity): string {
  // A key without graphPerRecord when it is off: the IRIs of such dumps stay what they were.
  const key = JSON.stringify([
    identity.endpoint,
    identity.query,
    identity.format,
    identity.maxRecords,
    identity.graph,
    ...(identity.graphPerRecord ? ['graph-per-record'] : []),
    // A delta is a dataset of its own: each since day another.
    ...(identity.since !== undefined ? [`since ${identity.since}`] : []),
  ]);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${identity.base ?? DEFAULT_BASE}dump/${hash}`;
}
