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
  // one pass over the lower-cased text: ASCII letters and digits make words, other ASCII
  // characters separate them; a word with non-ASCII characters is folded on its own
  const lower = text.toLowerCase();
  const n = lower.length;
  const out: string[] = [];
  let start = -1;
  let unicode = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c > 127) {
      if (start < 0) start = i;
      if (c > 127) unicode = true;
    } else if (start >= 0) {
      if (unicode) {
        for (const t of tokenizeUnicode(lower.slice(start, i))) out.push(t);
        unicode = false;
      } else out.push(lower.slice(start, i));
      start = -1;
    }
  }
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
