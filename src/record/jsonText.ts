/**
 * `JSON.stringify` for values read from JSON (plain objects, arrays, strings,
 * numbers, booleans, null), without recursion: a record nested 100,000 levels
 * deep (which `JSON.parse` reads) is written back instead of overflowing the
 * stack. With `maxLength`, stops once the text is that long (the text is then
 * cut, not valid JSON: for messages). Values JSON cannot hold (`undefined`,
 * functions) are written as `null`, as in an array.
 */
export function jsonText(value: unknown, maxLength = Infinity): string {
  let out = '';
  // Work list: values to write, or literal text (closing brackets, commas, keys).
  const stack: ({ text: string } | { value: unknown })[] = [{ value }];
  while (stack.length > 0) {
    if (out.length >= maxLength) return out.slice(0, maxLength);
    const next = stack.pop()!;
    if ('text' in next) {
      out += next.text;
      continue;
    }
    const v = next.value;
    if (v === null || typeof v !== 'object') {
      out +=
        typeof v === 'string'
          ? JSON.stringify(v)
          : typeof v === 'number'
            ? Number.isFinite(v)
              ? String(v)
              : 'null'
            : typeof v === 'boolean'
              ? String(v)
              : 'null';
      continue;
    }
    if (Array.isArray(v)) {
      out += '[';
      stack.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push({ text: ',' });
      }
      continue;
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(
      ([, x]) => x !== undefined && typeof x !== 'function',
    );
    out += '{';
    stack.push({ text: '}' });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      stack.push({ value: x });
      stack.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` });
    }
  }
  return out;
}
