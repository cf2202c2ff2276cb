/**
 * The spellings the service uses for one record key, by endpoint and year
 * (the usual one first): the record reader (`record/`) and the local
 * service's index (`server/`) read a key by any of them.
 */
export const KEY_SPELLINGS = {
  journalId: ['journalId', 'journalid'],
  issueType: ['issueType', 'issuetype'],
  openaccess: ['openaccess', 'openAccess'],
  keywords: ['keyword', 'keywords'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** The first of the spellings of a key that a record carries a value under. */
export function spelledValue(record: Readonly<Record<string, unknown>>, spellings: readonly string[]): unknown {
  for (const key of spellings) if (record[key] !== undefined) return record[key];
  return undefined;
}
