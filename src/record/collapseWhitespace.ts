/**
 * White space in a record's text: one-line text (titles, names, labels) has
 * its runs collapsed; multi-line text (an abstract) keeps its paragraphs and
 * joins its wrapped lines.
 */

// White space other than a plain space (Unicode White_Space: TAB to CR, NEL, NBSP, U+1680, U+2000-U+200A,
// LINE and PARAGRAPH SEPARATOR, U+202F, U+205F, U+3000), or two spaces: the text has white space to collapse.
const NEEDS_COLLAPSE = /[\t-\r\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]| {2}/;
// A run of two or more white-space characters, or one that is not a plain space.
const WHITE_SPACE_RUN = /\p{White_Space}{2,}|[^\P{White_Space} ]/gu;

/**
 * One-line text with every run of white space that is not a single plain
 * space (line breaks, tabs, no-break and other Unicode spaces, several
 * spaces) made one space. Text that has none is returned as it is.
 */
export function collapseWhitespace(value: string): string {
  return NEEDS_COLLAPSE.test(value) ? value.replace(WHITE_SPACE_RUN, ' ') : value;
}

/**
 * Multi-line text (an abstract, already trimmed) with its paragraphs kept
 * and its wrapped lines joined: a run of white space holding two or more
 * line breaks (a blank line, U+2029 PARAGRAPH SEPARATOR) is a paragraph
 * break, written `\n\n`; any other run that is not a single plain space
 * (one line break, tabs, several spaces) becomes one space. CR LF is one
 * line break. Text that has none is returned as it is.
 */
export function unwrapParagraphs(value: string): string {
  if (!NEEDS_COLLAPSE.test(value)) return value;
  return value.replace(WHITE_SPACE_RUN, (run) => (lineBreaks(run) >= 2 ? '\n\n' : ' '));
}

/** How many line breaks a run of white space holds (CR LF counts once, PARAGRAPH SEPARATOR twice). */
function lineBreaks(run: string): number {
  let count = 0;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    if (c === 0x0a || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028) count++;
    else if (c === 0x0d) {
      count++;
      if (run.charCodeAt(i + 1) === 0x0a) i++;
    } else if (c === 0x2029) count += 2;
  }
  return count;
}
