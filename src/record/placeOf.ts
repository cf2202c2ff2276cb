/**
 * The place of a value in a record, given in parts (`creators`, 2, `ORCID`) and joined only when a note or an
 * error names it (`creators[2].ORCID`): most values are read without either, and their places need no string.
 */
export function placeOf(path: string, at?: number, key?: string): string {
  const item = at === undefined ? path : `${path}[${at}]`;
  return key === undefined ? item : `${item}.${key}`;
}
