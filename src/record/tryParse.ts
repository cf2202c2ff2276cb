import { cutDeepJson, originalOffset } from './cutDeepJson.js';

/**
 * JSON text parsed, or why it could not be. `deep`: values nested deeper
 * than the limit were cut off before parsing (see {@link cutDeepJson}: the
 * value holds markers where they were).
 */
export type Parsed = { ok: true; value: unknown; deep?: true } | { ok: false; reason: string };

/**
 * `JSON.parse`, with a second try after repairing raw control characters
 * inside strings; never throws. Values nested deeper than `maxDepth` levels
 * are cut off first ({@link cutDeepJson}); positions in the reason of a
 * failure are then those of `text`. Defaults to no limit.
 */
export function tryParse(text: string, maxDepth = Infinity): Parsed {
  const cut = maxDepth === Infinity ? undefined : cutDeepJson(text, maxDepth);
  if (!cut) return parseWhole(text);
  const parsed = parseWhole(cut.text);
  if (parsed.ok) return { ok: true, value: parsed.value, deep: true };
  return {
    ok: false,
    reason: parsed.reason.replace(
      / at position (\d+)/,
      (_, at: string) => ` at position ${originalOffset(cut, Number(at))}`,
    ),
  };
}

function parseWhole(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const repaired = escapeControlCharsInStrings(text);
    if (repaired !== text) {
      try {
        return { ok: true, value: JSON.parse(repaired) };
      } catch {
        // fall through with the first error
      }
    }
    return { ok: false, reason: (err as Error).message };
  }
}

/**
 * Escapes raw control characters (CR, LF, TAB, ...) that stand inside JSON
 * strings, which JSON forbids but old saved responses contain.
 */
export function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      else if (c < 0x20) {
        out +=
          text.slice(last, i) +
          (c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : `\\u${c.toString(16).padStart(4, '0')}`);
        last = i + 1;
      }
    } else if (c === 0x22) inString = true;
  }
  return last === 0 ? text : out + text.slice(last);
}
