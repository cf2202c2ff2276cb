/**
 * JSON nested deeper than a limit, cut before it is parsed: `JSON.parse` of
 * 100 MB of `[[[[…` builds 50 million arrays (gigabytes), and what reads the
 * value afterwards (the normaliser, a rejects line) walks them all. Each
 * object or array that would open one level too deep is replaced, with
 * everything inside it, by a marker object (`{"\u0000maxDepth": offset}`);
 * {@link findTooDeep} finds the marker in a parsed value, so the record that
 * holds it is rejected and the others of the same document are read.
 */

/** The key of the marker object that stands for a value cut off. */
export const TOO_DEEP_KEY = '\u0000maxDepth';

/** The default of `maxDepth`: levels of nesting of JSON read whole. */
export const DEFAULT_MAX_DEPTH = 64;

/** JSON text with its too-deep values cut off. */
export interface CutJson {
  /** The text, each too-deep value replaced by a marker object. */
  text: string;
  /** The values cut off, in order: where each starts (its `{` or `[`) and ends in the original text, and the length of its marker. */
  cuts: { at: number; end: number; marker: number }[];
}

/**
 * Cuts the values of JSON text that nest deeper than `maxDepth` levels (an
 * object or array is one level; `{"a":[1]}` is two). Returns `undefined`
 * when nothing is that deep, the usual case (one pass over the text, no
 * copy). Text that is not JSON is scanned all the same: a value never closed
 * is cut to the end of the text, so parsing the result fails as the original
 * would.
 */
export function cutDeepJson(text: string, maxDepth: number): CutJson | undefined {
  if (opensAtMost(text, maxDepth)) return undefined;
  let depth = 0;
  let parts: string[] | undefined;
  let last = 0;
  const cuts: CutJson['cuts'] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i) - 1;
    else if (c === 123 || c === 91) {
      if (depth < maxDepth) {
        depth++;
        continue;
      }
      const end = valueEnd(text, i);
      const marker = `{"\\u0000maxDepth":${i}}`;
      (parts ??= []).push(text.slice(last, i), marker);
      cuts.push({ at: i, end, marker: marker.length });
      last = end;
      i = end - 1;
    } else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  if (!parts) return undefined;
  parts.push(text.slice(last));
  return { text: parts.join(''), cuts };
}

/**
 * Whether text holds at most `n` opening brackets (`{`, `[`, those in strings
 * too): it cannot nest deeper than `n` levels then. A record holds far fewer
 * than the limit: counting them (a native search for each) spares the scan.
 */
function opensAtMost(text: string, n: number): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++count > n) return false;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++count > n) return false;
  return true;
}

/** An offset in the cut text, as an offset in the original text. */
export function originalOffset(cut: CutJson, offset: number): number {
  // Original offset minus cut offset, after the markers passed so far.
  let shift = 0;
  for (const { at, end, marker } of cut.cuts) {
    const markerStart = at - shift;
    if (offset < markerStart) break;
    if (offset < markerStart + marker) return at;
    shift += end - at - marker;
  }
  return offset + shift;
}

/**
 * Where a parsed value holds a marker of {@link cutDeepJson}: the path to it
 * from the value (`title`, `creators[0].creator`, cut after 8 steps), or
 * `undefined` when it holds none. Iterative: the value may be as deep as the
 * limit.
 */
export function findTooDeep(value: unknown): string | undefined {
  const stack: { value: unknown; path: string; steps: number }[] = [{ value, path: '', steps: 0 }];
  while (stack.length > 0) {
    const { value: v, path, steps } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const at = (step: string) => (steps < PATH_STEPS ? `${path}${step}` : steps === PATH_STEPS ? `${path}…` : path);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: at(`[${i}]`), steps: steps + 1 });
      continue;
    }
    if (Object.hasOwn(v, TOO_DEEP_KEY)) return path === '' ? '(record)' : path;
    const entries = Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      stack.push({ value: x, path: at(path === '' ? k : `.${k}`), steps: steps + 1 });
    }
  }
  return undefined;
}

/** Steps of a path {@link findTooDeep} spells out; deeper ones end in `…`. */
const PATH_STEPS = 8;

/** Offset after the JSON string that starts at `start` (a `"`), or the text's length when it does not end. */
function stringEnd(text: string, start: number): number {
  for (let j = text.indexOf('"', start + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
  }
  return text.length;
}

/** Offset after the object or array that starts at `start`, or the text's length when it does not close. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i) - 1;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}
