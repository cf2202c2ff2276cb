import type * as RDF from '@rdfjs/types';
import { isCalendarDate } from '../../rdf/calendar.js';
import { RDF_LANG_STRING, XSD } from './vocabulary.js';

const INTEGER = /^[+-]?[0-9]+$/;
const DECIMAL = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
const FLOAT = /^([+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?INF|NaN)$/;
const BOOLEAN = /^(true|false|1|0)$/;
const TIMEZONE = '(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00))?';
const DATE = new RegExp(`^-?([1-9][0-9]{3,}|0[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])${TIMEZONE}$`);
const DATE_TIME = new RegExp(
  `^-?([1-9][0-9]{3,}|0[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?|24:00:00(\\.0+)?)${TIMEZONE}$`,
);
const TIME = new RegExp(`^(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?|24:00:00(\\.0+)?)${TIMEZONE}$`);
const G_YEAR = new RegExp(`^-?([1-9][0-9]{3,}|0[0-9]{3})${TIMEZONE}$`);
const G_YEAR_MONTH = new RegExp(`^-?([1-9][0-9]{3,}|0[0-9]{3})-(0[1-9]|1[0-2])${TIMEZONE}$`);
/** Characters XML allows (no lone surrogate, no U+FFFE/U+FFFF, no C0 control but tab, newline, return). */
const XML_STRING = /^[^\p{Cs}\uFFFE\uFFFF\u0000-\u0008\u000B\u000C\u000E-\u001F]*$/u;
/** Any code unit {@link XML_STRING} may refuse (surrogates of a pair included): most strings have none. */
const MAYBE_NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

const XSD_STRING = `${XSD}string`;

/** Integer types with their bounds. */
const INTEGER_RANGES: Record<string, [bigint | null, bigint | null]> = {
  integer: [null, null],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
  nonNegativeInteger: [0n, null],
  positiveInteger: [1n, null],
  nonPositiveInteger: [null, 0n],
  negativeInteger: [null, -1n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  unsignedInt: [0n, 2n ** 32n - 1n],
  unsignedShort: [0n, 65535n],
  unsignedByte: [0n, 255n],
};

/** Whether a literal of one datatype has a form in its lexical space (its value and language tag given). */
export type FormTest = (value: string, language: string) => boolean;

const anyForm: FormTest = () => true;
const xmlString: FormTest = (v) => !MAYBE_NOT_XML.test(v) || XML_STRING.test(v);
const tagged: FormTest = (_v, language) => language !== '';
const matching =
  (re: RegExp): FormTest =>
  (v) =>
    re.test(v);

/** The tests of the datatypes met, made once (a shape's `sh:datatype` picks its own when compiled, not per value). */
const FORM_TESTS = new Map<string, FormTest>();
/** The datatypes {@link FORM_TESTS} holds at most (then it starts again: a dump may name any number). */
const FORM_TESTS_KEPT = 256;

/**
 * How a literal of `datatype` (an IRI) is told well formed: its lexical form in the lexical space of the datatype,
 * for the XSD datatypes of RDF 1.1 the engine knows (others: any form), and a language tag for `rdf:langString`.
 */
export function formTest(datatype: string): FormTest {
  let test = FORM_TESTS.get(datatype);
  if (!test) {
    test = makeFormTest(datatype);
    if (FORM_TESTS.size >= FORM_TESTS_KEPT) FORM_TESTS.clear();
    FORM_TESTS.set(datatype, test);
  }
  return test;
}

function makeFormTest(dt: string): FormTest {
  if (dt === XSD_STRING) return xmlString;
  if (dt === RDF_LANG_STRING) return tagged;
  if (!dt.startsWith(XSD)) return anyForm;
  const local = dt.slice(XSD.length);
  const range = INTEGER_RANGES[local];
  if (range) {
    const [min, max] = range;
    if (min === null && max === null) return matching(INTEGER);
    return (v) => {
      if (!INTEGER.test(v)) return false;
      const n = BigInt(v);
      return (min === null || n >= min) && (max === null || n <= max);
    };
  }
  switch (local) {
    case 'string':
    case 'normalizedString':
    case 'token':
      return xmlString;
    case 'decimal':
      return matching(DECIMAL);
    case 'float':
    case 'double':
      return matching(FLOAT);
    case 'boolean':
      return matching(BOOLEAN);
    case 'date':
      return (v) => DATE.test(v) && isCalendarDate(v);
    case 'dateTime':
      return (v) => DATE_TIME.test(v) && isCalendarDate(v);
    case 'dateTimeStamp':
      return (v) => DATE_TIME.test(v) && isCalendarDate(v) && /(Z|[+-][0-9]{2}:[0-9]{2})$/.test(v);
    case 'time':
      return matching(TIME);
    case 'gYear':
      return matching(G_YEAR);
    case 'gYearMonth':
      return matching(G_YEAR_MONTH);
    default:
      return anyForm;
  }
}

/** Whether a literal's lexical form is in the lexical space of its datatype ({@link formTest}). */
export function wellFormed(literal: RDF.Literal): boolean {
  return formTest(literal.datatype.value)(literal.value, literal.language);
}

const NUMERIC = new Set(['decimal', 'float', 'double', ...Object.keys(INTEGER_RANGES)].map((l) => XSD + l));
const TEMPORAL = new Set(['date', 'dateTime', 'dateTimeStamp', 'time', 'gYear', 'gYearMonth'].map((l) => XSD + l));

/** A literal's value for ordering: a number, a string (with the kind of things compared), or undefined when it has none. */
function orderValue(t: RDF.Term): { kind: string; value: number | string; zoned?: boolean } | undefined {
  if (t.termType !== 'Literal') return undefined;
  const dt = t.datatype.value;
  if (!wellFormed(t)) return undefined;
  if (NUMERIC.has(dt)) {
    const v = t.value.trim();
    const n = v === 'INF' || v === '+INF' ? Infinity : v === '-INF' ? -Infinity : Number(v);
    return { kind: 'number', value: n };
  }
  if (TEMPORAL.has(dt)) {
    const kind = dt === `${XSD}dateTimeStamp` ? `${XSD}dateTime` : dt;
    const zoned = /(Z|[+-][0-9]{2}:[0-9]{2})$/.test(t.value);
    if (kind === `${XSD}dateTime` || kind === `${XSD}date`) {
      const iso =
        kind === `${XSD}date` ? t.value.replace(/^(-?[0-9]+-[0-9]{2}-[0-9]{2})(.*)$/, '$1T00:00:00$2') : t.value;
      const ms = Date.parse(zoned ? iso : `${iso}Z`);
      if (Number.isNaN(ms)) return undefined;
      return { kind, value: ms, zoned };
    }
    return { kind, value: t.value, zoned };
  }
  if (dt === `${XSD}string`) return { kind: 'string', value: t.value };
  if (dt === RDF_LANG_STRING) return { kind: `@${t.language.toLowerCase()}`, value: t.value };
  if (dt === `${XSD}boolean`) return { kind: 'boolean', value: t.value === 'true' || t.value === '1' ? 1 : 0 };
  return undefined;
}

/** -1, 0 or 1 as SPARQL's `<` and `=` order two terms; undefined when they are not comparable. */
export function compareTerms(a: RDF.Term, b: RDF.Term): number | undefined {
  const x = orderValue(a);
  const y = orderValue(b);
  if (!x || !y || x.kind !== y.kind) return undefined;
  if (x.zoned !== y.zoned) return undefined;
  if (Number.isNaN(x.value) || Number.isNaN(y.value)) return undefined;
  return x.value < y.value ? -1 : x.value > y.value ? 1 : 0;
}

/** The length in characters (code points) of a string. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** SPARQL's `langMatches`: a basic language range (`*`, `en`, `en-GB`) against a tag. */
export function languageMatches(tag: string, range: string): boolean {
  if (!tag) return false;
  if (range === '*') return true;
  const t = tag.toLowerCase();
  const r = range.toLowerCase();
  return t === r || t.startsWith(`${r}-`);
}
