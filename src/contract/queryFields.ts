import type { Plan } from './endpoints.js';

/**
 * The query fields by plan, as the service answers them since 2026 (issue 31;
 * the same lists as sprynger's `VALID_FIELDS`): on a basic key a constraint on
 * a premium-only field is refused with a 403 "premium feature".
 */
export const BASIC_FIELDS: readonly string[] = [
  'doi',
  'keyword',
  'onlinedate',
  'onlinedatefrom',
  'onlinedateto',
  'datefrom',
  'dateto',
  'date',
  'isbn',
  'issn',
  'journalid',
  'type',
];

/** Fields a basic key may not use (`openaccess:` and `sort:` included: `openaccess:true`, `sort:date`). */
export const PREMIUM_FIELDS: readonly string[] = [
  'subject',
  'discipline',
  'language',
  'year',
  'dateloaded',
  'dateloadedfrom',
  'dateloadedto',
  'country',
  'orcid',
  'title',
  'journal',
  'name',
  'orgname',
  'openaccess',
  'issue',
  'volume',
  'articletype',
  'license',
  'sort',
  'pub',
  'subjectcollection',
  'sntsubject',
  'topicalcollection',
  'issuetype',
  'grid',
  'bookdoi',
  'book',
];

const PREMIUM_SET: ReadonlySet<string> = new Set(PREMIUM_FIELDS);

/** The basic field that does a similar job, for the premium-only fields that have one. */
export const BASIC_ALTERNATIVES: Readonly<Record<string, string>> = {
  year: 'onlinedatefrom:/onlinedateto: or datefrom:/dateto: (e.g. datefrom:2015-01-01 dateto:2015-12-31)',
  dateloaded: 'onlinedate: or onlinedatefrom:/onlinedateto:',
  dateloadedfrom: 'onlinedatefrom:',
  dateloadedto: 'onlinedateto:',
  journal: 'issn: or journalid:',
  title: 'keyword: (or words of the title without a field)',
  subject: 'keyword:',
  discipline: 'keyword:',
  book: 'isbn:',
  bookdoi: 'isbn:',
};

/** One `field:value` constraint of a query. */
export interface QueryTerm {
  /** The field, lower case. */
  field: string;
  /** The term as written (`year:2015`, `title:"deep learning"`). */
  text: string;
}

/**
 * The `field:value` (and the v1 family's `field=value`) constraints of a
 * query, in order; words and phrases without a field are not constraints.
 * Quoted phrases are skipped whole, so `"year:2015"` is no constraint.
 */
export function queryTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const pattern = /"[^"]*"?|(?<=^|[\s(])[-+]?([A-Za-z][A-Za-z0-9_]*)[:=]("[^"]*"?|[^\s()]*)/g;
  for (const m of query.matchAll(pattern)) {
    if (m[1] === undefined) continue;
    terms.push({ field: m[1].toLowerCase(), text: m[0].replace(/^[-+]/, '') });
  }
  return terms;
}

/** A constraint a plan does not allow, with the basic field to use instead when there is one. */
export interface RefusedTerm extends QueryTerm {
  alternative?: string;
}

/** The constraints of a query that the plan does not allow (none on premium). */
export function refusedTerms(query: string, plan: Plan): RefusedTerm[] {
  if (plan === 'premium') return [];
  return queryTerms(query)
    .filter((t) => PREMIUM_SET.has(t.field))
    .map((t) => (BASIC_ALTERNATIVES[t.field] ? { ...t, alternative: BASIC_ALTERNATIVES[t.field]! } : t));
}

/** Says which constraints need a premium key and what a basic key can use instead. */
export function describeRefusedTerms(terms: readonly RefusedTerm[]): string {
  const parts = terms.map(
    (t) =>
      `\`${t.field}:\` (${t.text}) needs a premium key${t.alternative ? `; with a basic key use ${t.alternative}` : ''}`,
  );
  return `the query field ${parts.join('; the query field ')}`;
}
