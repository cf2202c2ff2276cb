import { NO_DATA_MESSAGE } from '../contract/statusBodies.js';

/** The envelopes made of a "no data" 404. */
const NO_DATA_ENVELOPES = new WeakSet<object>();

/** The envelope of a "no data" 404: no records, total 0, the service's message as its notice. */
export function noDataEnvelope(body: string): Record<string, unknown> {
  let message = NO_DATA_MESSAGE;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if (typeof json['message'] === 'string' && json['message'] !== '') message = json['message'];
  } catch {
    // the message is enough
  }
  const envelope = { apiMessage: message, result: [{ total: '0' }], records: [], facets: [] };
  NO_DATA_ENVELOPES.add(envelope);
  return envelope;
}

/** Whether an envelope is one {@link noDataEnvelope} made (the client's summary says `noData`). */
export function isNoDataEnvelope(envelope: object): boolean {
  return NO_DATA_ENVELOPES.has(envelope);
}
