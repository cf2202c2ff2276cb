import { ParseError } from '../errors.js';

/**
 * The query language of `serve` (documented in docs/service.md):
 *
 * ```
 * query    := or
 * or       := and ( "OR" and )*
 * and      := unary ( "AND"? unary )*        juxtaposition means AND
 * unary    := "NOT" unary | primary
 * primary  := "(" or ")" | term
 * term     := FIELD ":" value | value         (also FIELD "=" value on the v1 family)
 * value    := '"' phrase '"' | word ["*"]
 * ```
 *
 * `AND`, `OR`, `NOT` are operators only in upper case. A word runs to the
 * next white space; closing parentheses at its end close groups unless the
 * word opened them itself (so `doi:10.1002/(SICI)1097` keeps its parentheses).
 * A trailing `*` makes a prefix search. Field names are case-insensitive.
 */
export type QueryNode = AndNode | OrNode | NotNode | TermNode;

/** All children must match. */
export interface AndNode {
  type: 'and';
  children: QueryNode[];
}

/** Any child may match. */
export interface OrNode {
  type: 'or';
  children: QueryNode[];
}

/** The child must not match. */
export interface NotNode {
  type: 'not';
  child: QueryNode;
}

/** One constraint: a field and a value, or a free word or phrase (`field` undefined). */
export interface TermNode {
  type: 'term';
  field: QueryField | undefined;
  value: string;
  /** A double-quoted value: its words must appear in this order. */
  phrase: boolean;
  /** A trailing `*`: the (last) word is a prefix. */
  prefix: boolean;
  /** 0-based position of the term in the query. */
  position: number;
}

/** The fields a query can constrain. */
export const QUERY_FIELDS = [
  'doi',
  'year',
  'date',
  'onlinedate',
  'onlinedatefrom',
  'onlinedateto',
  'datefrom',
  'dateto',
  'subject',
  'keyword',
  'title',
  'name',
  'journal',
  'journalid',
  'issn',
  'isbn',
  'type',
  'language',
  'pub',
  'country',
  'openaccess',
] as const;

/** A field name of the query language. */
export type QueryField = (typeof QUERY_FIELDS)[number];

const FIELD_SET: ReadonlySet<string> = new Set(QUERY_FIELDS);
const DATE_FIELDS: ReadonlySet<string> = new Set([
  'date',
  'onlinedate',
  'onlinedatefrom',
  'onlinedateto',
  'datefrom',
  'dateto',
]);

/** Options of {@link parseQuery}. */
export interface ParseQueryOptions {
  /** Accept `field=value` as well as `field:value` (the v1 family's `doi=<doi>`). Defaults to false. */
  allowEquals?: boolean;
  /** Longest query accepted, in characters. Defaults to 2000. */
  maxLength?: number;
  /** Deepest nesting of parentheses and NOT accepted. Defaults to 12. */
  maxDepth?: number;
  /** Most terms accepted. Defaults to 100. */
  maxTerms?: number;
}

/** A query that cannot be parsed; `position` is 0-based, `column` 1-based. */
export class QuerySyntaxError extends ParseError {
  constructor(
    override readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position + 1}`, 'query', 1, position + 1);
  }
}

type Token =
  | { kind: '(' | ')'; pos: number }
  | { kind: 'op'; op: 'AND' | 'OR' | 'NOT'; pos: number }
  | { kind: 'term'; term: TermNode };

const DATE_VALUE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}

/**
 * Parses a query into a tree. Throws {@link QuerySyntaxError} saying what is
 * wrong and where (`unexpected ')' at position 13`).
 */
export function parseQuery(query: string, options: ParseQueryOptions = {}): QueryNode {
  const maxLength = options.maxLength ?? 2000;
  const maxDepth = options.maxDepth ?? 12;
  const maxTerms = options.maxTerms ?? 100;
  if (query.length > maxLength) throw new QuerySyntaxError(`query longer than ${maxLength} characters`, maxLength);
  const tokens = lex(query, options.allowEquals === true);
  const terms = tokens.filter((t) => t.kind === 'term').length;
  if (terms > maxTerms) throw new QuerySyntaxError(`more than ${maxTerms} terms`, 0);
  let i = 0;
  const peek = (): Token | undefined => tokens[i];

  const parseOr = (depth: number): QueryNode => {
    const children = [parseAnd(depth)];
    for (let t = peek(); t?.kind === 'op' && t.op === 'OR'; t = peek()) {
      i++;
      children.push(parseAnd(depth));
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  };

  const parseAnd = (depth: number): QueryNode => {
    const children = [parseUnary(depth)];
    for (;;) {
      const t = peek();
      if (!t || t.kind === ')' || (t.kind === 'op' && t.op === 'OR')) break;
      if (t.kind === 'op' && t.op === 'AND') i++;
      children.push(parseUnary(depth));
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  };

  const parseUnary = (depth: number): QueryNode => {
    const t = peek();
    if (t?.kind === 'op' && t.op === 'NOT') {
      if (depth >= maxDepth) throw new QuerySyntaxError(`nesting deeper than ${maxDepth}`, t.pos);
      i++;
      return { type: 'not', child: parseUnary(depth + 1) };
    }
    return parsePrimary(depth);
  };

  const parsePrimary = (depth: number): QueryNode => {
    const t = peek();
    if (!t) throw new QuerySyntaxError('unexpected end of query, a term was expected', query.length);
    if (t.kind === '(') {
      if (depth >= maxDepth) throw new QuerySyntaxError(`nesting deeper than ${maxDepth}`, t.pos);
      i++;
      const inner = parseOr(depth + 1);
      const close = peek();
      if (!close || close.kind !== ')') {
        if (close) throw new QuerySyntaxError("expected ')'", tokenPos(close));
        throw new QuerySyntaxError("'(' is never closed", t.pos);
      }
      i++;
      return inner;
    }
    if (t.kind === 'term') {
      i++;
      return t.term;
    }
    if (t.kind === 'op') throw new QuerySyntaxError(`unexpected operator ${t.op}, a term was expected`, t.pos);
    throw new QuerySyntaxError("unexpected ')'", t.pos);
  };

  if (tokens.length === 0) throw new QuerySyntaxError('empty query', 0);
  const tree = parseOr(0);
  const rest = peek();
  if (rest) {
    throw new QuerySyntaxError(rest.kind === ')' ? "unexpected ')'" : 'unexpected input', tokenPos(rest));
  }
  return tree;
}

function tokenPos(t: Token): number {
  return t.kind === 'term' ? t.term.position : t.pos;
}

function lex(query: string, allowEquals: boolean): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  const n = query.length;
  while (pos < n) {
    const c = query[pos]!;
    if (isSpace(c)) {
      pos++;
      continue;
    }
    if (c === '(') {
      tokens.push({ kind: '(', pos });
      pos++;
      continue;
    }
    if (c === ')') {
      tokens.push({ kind: ')', pos });
      pos++;
      continue;
    }
    const start = pos;
    if (c === '"') {
      const [value, end] = readQuoted(query, pos);
      pos = end;
      tokens.push({ kind: 'term', term: makeTerm(undefined, value, true, start, start) });
      continue;
    }
    // a word, or a field with its value
    let end = pos;
    while (end < n && !isSpace(query[end]!) && query[end] !== '"') end++;
    let word = query.slice(pos, end);
    const field = /^([A-Za-z]+)([:=])/.exec(word);
    if (field && (field[2] === ':' || allowEquals)) {
      const name = field[1]!.toLowerCase();
      if (!FIELD_SET.has(name)) {
        throw new QuerySyntaxError(`unknown field '${field[1]}' (known: ${[...QUERY_FIELDS].join(', ')})`, start);
      }
      const valueStart = start + field[0].length;
      if (query[valueStart] === '"') {
        const [value, qend] = readQuoted(query, valueStart);
        tokens.push({ kind: 'term', term: makeTerm(name as QueryField, value, true, start, valueStart) });
        pos = qend;
        continue;
      }
      word = query.slice(valueStart, end);
      const [value, closers] = splitClosers(word);
      if (value === '') throw new QuerySyntaxError(`empty value for field '${name}'`, valueStart);
      tokens.push({ kind: 'term', term: makeTerm(name as QueryField, value, false, start, valueStart) });
      for (let k = 0; k < closers; k++) {
        tokens.push({ kind: ')', pos: end - closers + k });
      }
      pos = end;
      continue;
    }
    if (word === 'AND' || word === 'OR' || word === 'NOT') {
      tokens.push({ kind: 'op', op: word, pos: start });
      pos = end;
      continue;
    }
    const [value, closers] = splitClosers(word);
    if (value !== '') tokens.push({ kind: 'term', term: makeTerm(undefined, value, false, start, start) });
    for (let k = 0; k < closers; k++) tokens.push({ kind: ')', pos: end - closers + k });
    pos = end;
  }
  return tokens;
}

/**
 * Splits closing parentheses off the end of a word unless the word opened
 * them itself (`10.1002/(SICI)1097` keeps its own; `2015))` gives two).
 */
function splitClosers(word: string): [string, number] {
  let opens = 0;
  let closes = 0;
  for (const ch of word) {
    if (ch === '(') opens++;
    else if (ch === ')') closes++;
  }
  let end = word.length;
  let closers = 0;
  while (end > 0 && word[end - 1] === ')' && closes > opens) {
    end--;
    closes--;
    closers++;
  }
  return [word.slice(0, end), closers];
}

function readQuoted(query: string, start: number): [string, number] {
  const close = query.indexOf('"', start + 1);
  if (close < 0) throw new QuerySyntaxError("unterminated '\"'", start);
  return [query.slice(start + 1, close), close + 1];
}

function makeTerm(
  field: QueryField | undefined,
  raw: string,
  phrase: boolean,
  position: number,
  valuePos: number,
): TermNode {
  let value = raw;
  let prefix = false;
  if (!phrase && value.endsWith('*')) {
    value = value.replace(/\*+$/, '');
    prefix = true;
    if (value === '') throw new QuerySyntaxError("a '*' needs a prefix before it", valuePos);
  }
  if (phrase && value.trim() === '') throw new QuerySyntaxError('empty phrase', valuePos);
  if (field !== undefined) validateValue(field, value, prefix, valuePos);
  return { type: 'term', field, value, phrase, prefix, position };
}

function validateValue(field: QueryField, value: string, prefix: boolean, pos: number): void {
  if (DATE_FIELDS.has(field)) {
    if (prefix) throw new QuerySyntaxError(`'*' is not allowed in ${field}`, pos);
    if (!DATE_VALUE.test(value.trim()))
      throw new QuerySyntaxError(`${field} needs a date YYYY, YYYY-MM or YYYY-MM-DD, got '${value}'`, pos);
  } else if (field === 'year') {
    if (!/^\d{4}$/.test(value.trim()) && !(prefix && /^\d{1,3}$/.test(value))) {
      throw new QuerySyntaxError(`year needs four digits, got '${value}'`, pos);
    }
  } else if (field === 'openaccess') {
    if (!/^(true|false)$/i.test(value.trim()))
      throw new QuerySyntaxError(`openaccess needs true or false, got '${value}'`, pos);
  }
}
