/**
 * Server-side content negotiation (RFC 9110 §12.5.1): picks the best of
 * `available` media types for an `Accept` header, honouring q-values,
 * `type/*` and `*\/*`. Returns `undefined` when nothing is acceptable
 * (the server answers 406). An empty or missing header accepts the first
 * available type.
 */
export function negotiate(acceptHeader: string | undefined | null, available: readonly string[]): string | undefined {
  if (available.length === 0) return undefined;
  const header = (acceptHeader ?? '').trim();
  if (header === '') return available[0];
  const ranges = parseAccept(header);
  if (ranges.length === 0) return available[0];
  let best: string | undefined;
  let bestQ = 0;
  for (const type of available) {
    const q = qualityOf(type, ranges);
    if (q > bestQ) {
      best = type;
      bestQ = q;
    }
  }
  return best;
}

/** One media range of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Number of parameters other than q (more specific ranges win). */
  params: number;
}

/** Parses an Accept header into media ranges; malformed parts are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of splitOutsideQuotes(header, ',')) {
    const [range, ...params] = splitOutsideQuotes(part, ';').map((s) => s.trim());
    if (!range) continue;
    const slash = range.indexOf('/');
    if (slash <= 0 || slash === range.length - 1) continue;
    const type = range.slice(0, slash).toLowerCase();
    const subtype = range.slice(slash + 1).toLowerCase();
    let q = 1;
    let otherParams = 0;
    for (const p of params) {
      const eq = p.indexOf('=');
      const key = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      if (key === 'q') {
        const value = Number(p.slice(eq + 1).trim());
        q = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
      } else if (key) {
        otherParams++;
      }
    }
    out.push({ type, subtype, q, params: otherParams });
  }
  return out;
}

/** Splits at `separator` except inside double-quoted strings (`profile="a, b"`). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
  // Parameters of the offered type (`text/turtle; charset=utf-8`) do not take part in matching.
  const [type, subtype] = mediaType.split(';')[0]!.trim().toLowerCase().split('/');
  let bestSpecificity = -1;
  let q = 0;
  for (const r of ranges) {
    let specificity: number;
    if (r.type === type && r.subtype === subtype) specificity = 2 + r.params;
    else if (r.type === type && r.subtype === '*') specificity = 1;
    else if (r.type === '*' && r.subtype === '*') specificity = 0;
    else continue;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      q = r.q;
    }
  }
  return q;
}
