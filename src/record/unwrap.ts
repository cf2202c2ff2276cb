import { jsonText } from './jsonText.js';

/** A record found in a parsed JSON value, or why a part of it is none. */
export type Unwrapped = { kind: 'record'; raw: unknown } | { kind: 'problem'; reason: string };

/** The records a parsed JSON value holds: envelopes unwrapped, arrays flattened, error bodies reported. */
export function* unwrap(value: unknown, depth = 0): Generator<Unwrapped> {
  if (Array.isArray(value)) {
    if (depth > 2) {
      yield { kind: 'problem', reason: 'arrays nested too deep to be records' };
      return;
    }
    for (const item of value) yield* unwrap(item, depth + 1);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Array.isArray(o.records) && ('result' in o || 'query' in o || 'apiMessage' in o || depth === 0)) {
      for (const record of o.records) {
        if (Array.isArray(record))
          yield { kind: 'problem', reason: 'expected a record object in "records", got an array' };
        else yield { kind: 'record', raw: record };
      }
      return;
    }
    if (typeof o.status === 'string' && o.status.toLowerCase() === 'fail' && !('doi' in o)) {
      const message = typeof o.message === 'string' ? o.message : jsonText(o, 200);
      yield { kind: 'problem', reason: `an error response of the service, not records: ${message}` };
      return;
    }
  }
  yield { kind: 'record', raw: value };
}
