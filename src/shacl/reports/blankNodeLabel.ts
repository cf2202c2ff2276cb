/**
 * A blank node of the data or of the shapes as the reports write it, in Turtle (`--report`), in the summary and in
 * `--json`: `_:b` and its label with every character but ASCII letters, digits and `_` made `_` (`g1:fa`, the first
 * input's `_:fa`, is `_:bg1_fa`; `s1:x`, the first shapes file's `_:x`, is `_:bs1_x`). A label Turtle accepts
 * whatever the parser gave, never one of the report's own (`_:report`, `_:r<n>`), and the same in every place a
 * person meets it, so a node named in the summary is found in the report by its text.
 */
export function blankNodeLabel(label: string): string {
  return `_:b${label.replace(/[^A-Za-z0-9_]/g, '_')}`;
}
