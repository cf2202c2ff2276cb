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
  const folded = foldText(text);
  if (folded === '') return [];
  const parts = folded.split(SEPARATORS);
  const out: string[] = [];
  for (const p of parts) if (p !== '') out.push(p);
  return out;
}
