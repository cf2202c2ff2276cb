/** A SHACL result as plain JSON (for a rejects file): terms as `<iri>` / `"literal"` strings, shape compact. */
export interface ValidationResultJson {
  severity: 'Violation' | 'Warning' | 'Info';
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
