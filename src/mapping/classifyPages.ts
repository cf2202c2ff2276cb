/** What the page fields of a record say (see docs/mapping.md, "Pages"). */
export type PageClass =
  | { kind: 'split'; start: string; end: string; numPages?: number }
  | { kind: 'start'; start: string }
  | { kind: 'end'; end: string }
  | { kind: 'pagination'; text: string }
  | { kind: 'placeholder'; value: string }
  | { kind: 'none' };

// A range or a list: "1-6, 9", "123–130", "iv–xii; 1-20", "S15 S17".
const RANGE_OR_LIST = /[-‐‑‒–—,;]|\s/;

/**
 * Classifies the page fields, following the definition of `schema:pagination`
 * ("free-text pages not split into a start page and an end page", vocab/pagination.ttl):
 * - start and end both given → split (`pageStart`/`pageEnd`; `numPages` when both are integers and end ≥ start);
 * - one free-text value that is a range or a list → pagination (`pagination` + `bibo:pages`);
 * - a lone start page (an article number such as `e1234`) → start only;
 * - a start page of `1` with no end on an online-first record → a placeholder, no pages.
 */
export function classifyPages(
  startingPage: string | undefined,
  endingPage: string | undefined,
  context: { onlineFirst: boolean },
): PageClass {
  const start = startingPage?.trim() || undefined;
  const end = endingPage?.trim() || undefined;
  if (start && RANGE_OR_LIST.test(start)) {
    return { kind: 'pagination', text: end && !start.endsWith(end) ? `${start}, ${end}` : start };
  }
  if (start && end) {
    if (RANGE_OR_LIST.test(end)) return { kind: 'pagination', text: `${start}-${end}` };
    const s = /^\d+$/.test(start) ? Number(start) : NaN;
    const e = /^\d+$/.test(end) ? Number(end) : NaN;
    return Number.isSafeInteger(s) && Number.isSafeInteger(e) && e >= s
      ? { kind: 'split', start, end, numPages: e - s + 1 }
      : { kind: 'split', start, end };
  }
  if (start) {
    if (start === '1' && context.onlineFirst) return { kind: 'placeholder', value: start };
    return { kind: 'start', start };
  }
  if (end) return RANGE_OR_LIST.test(end) ? { kind: 'pagination', text: end } : { kind: 'end', end };
  return { kind: 'none' };
}
