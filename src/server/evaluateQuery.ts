import type { Catalogue } from './Catalogue.js';
import type { ValueIndexName } from './normalizeValue.js';
import type { TokenIndexName } from './WordIndexBuilder.js';
import { tokenize } from './foldText.js';
import type { QueryNode, TermNode } from './parseQuery.js';
import * as fields from './recordFields.js';
import { EMPTY, complement, difference, intersect, unionAll } from './sortedSets.js';

/** Word indexes searched by free words and phrases. */
const FREE_TEXT: readonly TokenIndexName[] = ['title', 'name', 'journal', 'subjectWords', 'keywordWords'];

/** Exact-value fields and their index. */
const VALUE_FIELDS: Readonly<Record<string, ValueIndexName>> = {
  doi: 'doi',
  year: 'year',
  subject: 'subject',
  keyword: 'keyword',
  journalid: 'journalid',
  issn: 'issn',
  isbn: 'isbn',
  type: 'type',
  language: 'language',
  pub: 'pub',
  country: 'country',
  openaccess: 'openaccess',
};

/** Word fields and their index. */
const TOKEN_FIELDS: Readonly<Record<string, TokenIndexName>> = { title: 'title', name: 'name', journal: 'journal' };

/**
 * The ids (sorted, ascending: catalogue order) of the records that match a
 * parsed query.
 */
export function evaluateQuery(catalogue: Catalogue, node: QueryNode): Int32Array {
  switch (node.type) {
    case 'term':
      return evaluateTerm(catalogue, node);
    case 'not':
      return complement(evaluateQuery(catalogue, node.child), catalogue.size);
    case 'or':
      return unionAll(
        node.children.map((c) => evaluateQuery(catalogue, c)),
        catalogue.size,
      );
    case 'and': {
      const positives = node.children.filter((c) => c.type !== 'not');
      const negatives = node.children.filter((c): c is Extract<QueryNode, { type: 'not' }> => c.type === 'not');
      let result: Int32Array;
      if (positives.length === 0) {
        result = complement(
          unionAll(
            negatives.map((n) => evaluateQuery(catalogue, n.child)),
            catalogue.size,
          ),
          catalogue.size,
        );
        return result;
      }
      const lists = positives.map((c) => evaluateQuery(catalogue, c)).sort((a, b) => a.length - b.length);
      result = lists[0]!;
      for (let i = 1; i < lists.length && result.length > 0; i++) result = intersect(result, lists[i]!);
      for (const n of negatives) {
        if (result.length === 0) break;
        result = difference(result, evaluateQuery(catalogue, n.child));
      }
      return result;
    }
  }
}

function evaluateTerm(catalogue: Catalogue, term: TermNode): Int32Array {
  const field = term.field;
  if (field === undefined) {
    return unionAll(
      FREE_TEXT.map((index) => wordMatch(catalogue, index, term)),
      catalogue.size,
    );
  }
  const tokenIndex = TOKEN_FIELDS[field];
  if (tokenIndex) return wordMatch(catalogue, tokenIndex, term);
  const valueIndex = VALUE_FIELDS[field];
  if (valueIndex) {
    return term.prefix
      ? catalogue.valuePrefixPostings(valueIndex, term.value)
      : catalogue.valuePostings(valueIndex, term.value);
  }
  const [from, to] = dateBounds(term.value.trim());
  switch (field) {
    case 'date':
      return catalogue.dateRange('publication', from, to);
    case 'onlinedate':
      return catalogue.dateRange('online', from, to);
    case 'datefrom':
      return catalogue.dateRange('publication', from, 99991231);
    case 'dateto':
      return catalogue.dateRange('publication', 1, to);
    case 'onlinedatefrom':
      return catalogue.dateRange('online', from, 99991231);
    case 'onlinedateto':
      return catalogue.dateRange('online', 1, to);
    default:
      return EMPTY;
  }
}

/** First and last YYYYMMDD number of a YYYY, YYYY-MM or YYYY-MM-DD period. */
function dateBounds(value: string): [number, number] {
  const [y, m, d] = value.split('-').map(Number) as [number, number?, number?];
  if (m === undefined) return [y * 10000, y * 10000 + 1299];
  if (d === undefined) return [y * 10000 + m * 100, y * 10000 + m * 100 + 99];
  const n = y * 10000 + m * 100 + d;
  return [n, n];
}

/** Records whose words (in one index) contain all the words of the term, in order for a phrase. */
function wordMatch(catalogue: Catalogue, index: TokenIndexName, term: TermNode): Int32Array {
  const words = tokenize(term.value);
  if (words.length === 0) return EMPTY;
  const lists = words.map((w, i) =>
    term.prefix && i === words.length - 1 ? catalogue.tokenPrefixPostings(index, w) : catalogue.tokenPostings(index, w),
  );
  lists.sort((a, b) => a.length - b.length);
  let result = lists[0]!;
  for (let i = 1; i < lists.length && result.length > 0; i++) result = intersect(result, lists[i]!);
  if (!term.phrase || words.length < 2 || result.length === 0) return result;
  // a phrase: check word order in the candidates' texts
  const out = new Int32Array(result.length);
  let n = 0;
  for (let i = 0; i < result.length; i++) {
    const id = result[i]!;
    let texts = textsFromJson(catalogue.rawText(id), index);
    if (texts.length === 0) texts = textsOf(catalogue.record(id), index);
    if (texts.some((t) => containsSequence(tokenize(t), words, term.prefix))) out[n++] = id;
  }
  return out.subarray(0, n);
}

const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const ARRAY = String.raw`\[((?:\s*"(?:[^"\\]|\\.)*"\s*,?)*)\s*\]`;
const stringsOf = (key: string) => new RegExp(`"${key}":${STRING}`, 'g');
const arraysOf = (key: string) => new RegExp(`"${key}":${ARRAY}`, 'g');

/** Where the texts of each word index are in compact record JSON. */
const EXTRACTORS: Readonly<Record<TokenIndexName, readonly { re: RegExp; array: boolean }[]>> = {
  title: [{ re: stringsOf('title'), array: false }],
  name: [{ re: stringsOf('creator'), array: false }],
  journal: [
    { re: stringsOf('publicationName'), array: false },
    { re: stringsOf('journalTitle'), array: false },
  ],
  subjectWords: [
    { re: arraysOf('subjects'), array: true },
    { re: arraysOf('_subjects'), array: true },
    { re: stringsOf('term'), array: false },
  ],
  keywordWords: ['keyword', 'keywords', '_keywords'].flatMap((k) => [
    { re: arraysOf(k), array: true },
    { re: stringsOf(k), array: false },
  ]),
};

/**
 * The texts of a word index read from a record's JSON text with regular
 * expressions (several times faster than parsing the record); empty when the
 * text is not in the compact form they expect, and the caller parses instead.
 */
function textsFromJson(text: string, index: TokenIndexName): string[] {
  const out: string[] = [];
  try {
    for (const { re, array } of EXTRACTORS[index]) {
      for (const m of text.matchAll(re)) {
        if (array) out.push(...(JSON.parse(`[${m[1]}]`) as string[]));
        else out.push(JSON.parse(`"${m[1]}"`) as string);
      }
    }
  } catch {
    return [];
  }
  return out;
}

function textsOf(r: Record<string, unknown>, index: TokenIndexName): string[] {
  switch (index) {
    case 'title':
      return [fields.titleOf(r)];
    case 'name':
      return fields.namesOf(r);
    case 'journal':
      return [fields.publicationNameOf(r)];
    case 'subjectWords':
      return fields.subjectsOf(r);
    case 'keywordWords':
      return fields.keywordsOf(r);
  }
}

function containsSequence(haystack: readonly string[], needle: readonly string[], lastIsPrefix: boolean): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) {
      const h = haystack[i + k]!;
      const w = needle[k]!;
      const ok = lastIsPrefix && k === needle.length - 1 ? h.startsWith(w) : h === w;
      if (!ok) continue outer;
    }
    return true;
  }
  return false;
}
