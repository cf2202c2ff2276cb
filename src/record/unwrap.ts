import { jsonText } from './jsonText.js';

/** A record found in a parsed JSON value, or why a part of it is none. */
export type Unwrapped = { kind: 'record'; raw: unknown } | { kind: 'problem'; reason: string };

/**
 * The records a parsed JSON value holds: envelopes unwrapped, arrays flattened, error bodies reported. An array
 * (one for each line of newline-delimited input: no generator to make and resume).
 */
export function unwrap(value: unknown): Unwrapped[] {
  const out: Unwrapped[] = [];
  unwrapInto(value, 0, out);
  return out;
}

function unwrapInto(value: unknown, depth: number, out: Unwrapped[]): void {
  if (Array.isArray(value)) {
    if (depth > 2) {
      out.push({ kind: 'problem', reason: 'arrays nested too deep to be records' });
      return;
    }
    for (const item of value) unwrapInto(item, depth + 1, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Array.isArray(o.records) && ('result' in o || 'query' in o || 'apiMessage' in o || depth === 0)) {
      for (const record of o.records) {
        if (Array.isArray(record))
          out.push({ kind: 'problem', reason: 'expected a record object in "records", got an array' });
        else out.push({ kind: 'record', raw: record });
      }
      return;
    }
    if (typeof o.status === 'string' && o.status.toLowerCase() === 'fail' && !('doi' in o)) {
      const message = typeof o.message === 'string' ? o.message : jsonText(o, 200);
      out.push({ kind: 'problem', reason: `an error response of the service, not records: ${message}` });
      return;
    }
  }
  out.push({ kind: 'record', raw: value });
}
