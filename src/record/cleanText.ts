/**
 * Text cleaning: the one place where a record's strings become text that all
 * five RDF formats can carry. The normaliser cleans every string of a record
 * with it; the mapper only again where it cuts a cleaned string apart.
 */

// Characters no RDF format can carry everywhere: XML 1.0 forbids C0 controls other than TAB/LF/CR,
// U+FFFE/U+FFFF and lone surrogates, and RDF/XML is one of our formats.
const NOT_CARRIABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cleans text for a literal: removes the characters XML 1.0 cannot carry
 * (C0 controls but TAB/LF/CR, U+FFFE, U+FFFF), replaces lone surrogates by
 * U+FFFD, and puts the text in Unicode Normalization Form C (the W3C
 * character model's form for the Web; Jena's RDF/XML reader warns on any
 * other, and NFC only changes how canonically equivalent text is encoded),
 * and gives a leading combining character U+25CC DOTTED CIRCLE as its base.
 * Returns the text and how many changes were made (one for the NFC step).
 */
export function cleanText(value: string): { text: string; changed: number } {
  // Text without controls and without characters from U+0300 on (no marks, surrogates or U+FFFE/U+FFFF) is
  // left as it is by every step below: one scan says so.
  if (!MAY_NEED_CLEANING.test(value)) return { text: value, changed: 0 };
  let changed = 0;
  let text = !MAY_NOT_BE_CARRIABLE.test(value)
    ? value
    : value.replace(NOT_CARRIABLE, (ch) => {
        changed++;
        return ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff ? '\uFFFD' : '';
      });
  // Text without combining marks or characters from U+0300 on is in NFC already: skip the work.
  if (MAY_NEED_NFC.test(text)) {
    const nfc = text.normalize('NFC');
    if (nfc !== text) {
      changed++;
      text = nfc;
    }
  }
  // A text that starts (after white space, which callers trim) with a combining character is not
  // "fully normalized" (W3C character model; Jena's RDF/XML reader warns): the mark gets U+25CC DOTTED
  // CIRCLE as its base, the Unicode convention for showing a mark on its own.
  const lead = LEADING_COMPOSING.exec(text);
  if (lead) {
    changed++;
    text = `${text.slice(0, lead[1]!.length)}\u25CC${text.slice(lead[1]!.length)}`;
  }
  return { text, changed };
}

/**
 * Whether {@link cleanText} may change a text: one without controls and without characters from U+0300 on (most
 * of a record's strings) it gives back as it is. Asked first, no result object is made for such a text.
 */
export function mayNeedCleaning(value: string): boolean {
  return MAY_NEED_CLEANING.test(value);
}

/**
 * Whether a one-line text may be changed by more than a trim: by {@link cleanText} or by collapsing its white space
 * (`collapseWhitespace`). One scan for both: a text with neither (most of a record's names, titles and labels) is
 * its own, trimmed. Its characters hold those of {@link MAY_NEED_CLEANING} and `collapseWhitespace`'s (white space
 * other than a plain space, from TAB to CR, NEL, NBSP and the rest from U+0300 on; two spaces).
 */
export function mayNeedLineCleaning(value: string): boolean {
  return MAY_NEED_LINE_CLEANING.test(value);
}

/** {@link cleanText}'s text alone. */
export function cleanedText(value: string): string {
  return MAY_NEED_CLEANING.test(value) ? cleanText(value).text : value;
}

const MAY_NEED_NFC = /[\u0300-\uFFFF]/;
// What any step may change: the characters of NOT_CARRIABLE, and those of MAY_NEED_NFC (every combining mark
// and Hangul jamo of LEADING_COMPOSING is one of them).
const MAY_NEED_CLEANING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0300-\uFFFF]/;
// MAY_NEED_CLEANING's characters, those of collapseWhitespace's NEEDS_COLLAPSE (TAB to CR are controls, the Unicode
// spaces from U+1680 on are past U+0300; NEL and NBSP added) and its two spaces.
const MAY_NEED_LINE_CLEANING = /[\u0000-\u001F\u0085\u00A0\u0300-\uFFFF]| {2}/;
// NOT_CARRIABLE's characters, surrogates paired or not (tested before the slower search for lone ones).
const MAY_NOT_BE_CARRIABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// Combining marks, and the Hangul vowel and final jamo that compose with what precedes them, after white space
// (NEL too: not `\s`, but the white space one-line text collapses and trims).
const LEADING_COMPOSING = /^([\s\u0085]*)[\p{M}\u1160-\u11FF\uD7B0-\uD7FF]/u;
