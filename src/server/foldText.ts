const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const SPACES = /\s+/g;

/**
 * Case- and accent-insensitive form of a text: lower case, diacritics removed
 * (`Cañueto` → `canueto`), runs of white space collapsed, trimmed. Values of
 * exact-match fields are compared in this form.
 */
export function foldText(text: string): string {
  let out = text.toLowerCase();
  if (NON_ASCII.test(out)) out = out.normalize('NFD').replace(MARKS, '').normalize('NFC');
  return out.replace(SPACES, ' ').trim();
}

/**
 * Splits a text into search tokens: folded (see {@link foldText}) runs of
 * letters and digits. Punctuation separates tokens (`protein–ligand` →
 * `protein`, `ligand`). Scripts without spaces (Japanese) give one token per run.
 */
export function tokenize(text: string): string[] {
  if (text === '') return [];
  const n = text.length;
  for (let i = 0; i < n; i++) if (text.charCodeAt(i) > 127) return tokenizeUnicode(text);
  // ASCII: letters and digits, lower-cased (the same result as the Unicode path, faster)
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}

function tokenizeUnicode(text: string): string[] {
  // decomposed and without marks; no recomposition needed, queries fold the same way
  const folded = text.toLowerCase().normalize('NFD').replace(MARKS, '');
  const parts = folded.split(SEPARATORS);
  const out: string[] = [];
  for (const p of parts) if (p !== '') out.push(p);
  return out;
}
