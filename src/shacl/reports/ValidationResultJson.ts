/** A SHACL result as plain JSON (for a rejects file): terms as `<iri>` / `"literal"` strings, shape compact. */
export interface ValidationResultJson {
  /** `Violation`, `Warning`, `Info`, or the IRI of a severity of the shapes' own in angle brackets. */
  severity: 'Violation' | 'Warning' | 'Info' | `<${string}>`;
  /** Compact when named (`srsh:Work-doi`), a blank shape as the Turtle report labels it (`_:bs1_b0`). */
  shape: string;
  focusNode: string;
  path?: string;
  value?: string;
  message: string;
}

/** One line for a person: `Violation srsh:Work-doi <https://doi.org/...> bibo:doi: message`. */
export function describeResultJson(j: ValidationResultJson): string {
  return `${j.severity} ${j.shape} ${j.focusNode}${j.path ? ` ${j.path}` : ''}${j.value ? ` = ${j.value}` : ''}: ${j.message}`;
}
