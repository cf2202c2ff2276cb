/**
 * The records a truncated response of the service still holds whole: in the text of a JSON document that
 * ends before its `records` array is closed (a download cut off, a full disk), each object of that array
 * that is complete before the cut. Returns undefined when the text has no `"records": [` array, or not one
 * record is whole (the caller then reports the document as before).
 */
export function recoverTruncatedRecords(
  text: string,
  parse: (json: string) => unknown | undefined,
): { records: { raw: unknown; at: number }[]; cutAfter: number } | undefined {
  const start = /"records"\s*:\s*\[/.exec(text);
  if (!start) return undefined;
  const records: { raw: unknown; at: number }[] = [];
  let i = start.index + start[0].length;
  let cutAfter = i;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
    if (text[i] !== '{') break;
    const end = objectEnd(text, i);
    if (end < 0) break;
    const value = parse(text.slice(i, end));
    if (value === undefined) break;
    records.push({ raw: value, at: i });
    i = end;
    cutAfter = end;
  }
  return records.length > 0 ? { records, cutAfter } : undefined;
}

/** The index after the object that starts at `from` (strings and escapes skipped), or -1 when the text ends first. */
function objectEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * The start of a text for a rejects file or message: at most 200 characters, after the values of the key
 * fields a service echoes (`"apiKey": "…"`, `api_key=…`) are taken out (before the cut, so that no part of
 * one is left).
 */
export function excerptOf(text: string): string {
  return text
    .slice(0, 4000)
    .replace(/("(?:api_?key|apikey|key)"\s*:\s*")(?:[^"\\]|\\.)*("?)/gi, '$1***$2')
    .replace(/([?&](?:api_?key|apikey)=)[^&"\s]*/gi, '$1***')
    .trim()
    .slice(0, 200);
}
