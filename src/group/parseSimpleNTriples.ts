import type * as RDF from '@rdfjs/types';
import type { LineFormat } from '../formats.js';
import { NS } from '../rdf/namespaces.js';

/**
 * The quads of N-Triples or N-Quads lines written the plain way, or
 * `undefined` when any line is not: the caller then parses the text with n3,
 * which gives the same quads for every text this accepts, and its own error
 * for a text that is wrong.
 *
 * Plain means what dumps are made of (this toolkit's, and most writers'):
 * IRIs without escape sequences, blank node labels of ASCII letters, digits,
 * `_` and `-`, literals whose escapes are the fixed ones (`\"`, `\\`, `\n`,
 * ...) and not `\u`, language tags of ASCII letters and digits, tokens
 * separated by spaces or tabs, a final `.` and perhaps a comment. Everything
 * else (`\u` escapes, other labels, RDF 1.2 triple terms and directions,
 * syntax errors) is left to n3. The validating threads read a record this
 * way in about a third of the time n3's general parser takes.
 *
 * Terms come from `factory`, with n3's conventions: blank nodes keep their
 * labels, language tags are given as written (the factory lower-cases them,
 * as n3's does).
 *
 * `text` may be given as its lines, without their line breaks (as
 * `NTriplesLineGrouper` keeps them: `RecordText.lineTexts`): the same quads,
 * with no text joined to be cut again.
 */
export function parseSimpleNTriples(
  text: string | readonly string[],
  format: LineFormat,
  factory: RDF.DataFactory,
): RDF.Quad[] | undefined {
  const quads: RDF.Quad[] = [];
  const defaultGraph = factory.defaultGraph();
  const memo = iriMemoOf(factory);
  if (typeof text !== 'string') {
    // Lines without their line breaks (\n, \r: none in a line): each read as a text of its own, by one reader.
    const reader = new LineReader('', factory, memo);
    for (const line of text) {
      reader.read(line);
      const quad = reader.statement(0, line.length, format === 'nquads', defaultGraph);
      if (quad === undefined) return undefined;
      if (quad !== null) quads.push(quad);
    }
    return quads;
  }
  // n3 ends lines (and comments) at a lone CR too: such a text is n3's.
  if (text.includes('\r')) return undefined;
  const reader = new LineReader(text, factory, memo);
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const quad = reader.statement(start, end, format === 'nquads', defaultGraph);
    if (quad === undefined) return undefined;
    if (quad !== null) quads.push(quad);
    start = end + 1;
  }
  return quads;
}

/** An absolute IRI with none of the characters an IRI reference may not hold unescaped (controls, space, < > " { } | ^ ` \\). */
const PLAIN_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20<>"{}|^`\\]*$/;
const RDF_NS = NS.rdf;
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  f: '\f',
  b: '\b',
};

/** The slots of an {@link IriMemo} (a power of two). */
const MEMO_SLOTS = 256;

/**
 * IRIs read lately, as written, with their terms (from one factory): a record's predicates, classes and datatypes
 * repeat line after line, and one found here is neither checked nor looked up again (a string compared with `===`
 * costs less than hashing it for a map, and than the check's regular expression). Direct-mapped: a slot holds the
 * last IRI of its length and last characters.
 */
interface IriMemo {
  readonly factory: RDF.DataFactory;
  readonly texts: string[];
  readonly terms: (RDF.NamedNode | undefined)[];
}

/** The memo of the last factory parsed with (the records of a batch share theirs), else a new one. */
let lastMemo: IriMemo | undefined;
function iriMemoOf(factory: RDF.DataFactory): IriMemo {
  if (lastMemo?.factory !== factory)
    lastMemo = { factory, texts: new Array<string>(MEMO_SLOTS).fill(''), terms: new Array(MEMO_SLOTS).fill(undefined) };
  return lastMemo;
}

/** Reads one statement at a time; `pos` is where the next token starts. */
class LineReader {
  private pos = 0;
  private end = 0;
  /** The last subject IRI read, as written (`<...>`), and its term: the lines of a node follow each other. */
  private lastSubject = '';
  private lastSubjectTerm: RDF.NamedNode | undefined;
  /** The first `\\` at or after some position before the current one ({@link backslashFrom}). */
  private backslash = -1;

  constructor(
    private text: string,
    private readonly factory: RDF.DataFactory,
    private readonly memo: IriMemo,
  ) {}

  /** Reads another text from here on (the next line: the subject of the line before is remembered). */
  read(text: string): void {
    this.text = text;
    this.backslash = -1;
  }

  /** The quad of the line [start, end), `null` for a blank or comment line, `undefined` when it is not plain. */
  statement(start: number, end: number, quads: boolean, defaultGraph: RDF.DefaultGraph): RDF.Quad | null | undefined {
    this.pos = start;
    this.end = end;
    this.spaces();
    if (this.pos === end || this.text.charCodeAt(this.pos) === 35 /* # */) return null;
    const subject = this.subject();
    if (!subject || !this.spaces()) return undefined;
    const predicate = this.char() === 60 /* < */ ? this.iri() : undefined;
    if (!predicate || !this.spaces()) return undefined;
    const object = this.char() === 34 /* " */ ? this.literal() : this.node();
    if (!object) return undefined;
    const hadSpace = this.spaces();
    let graph: RDF.Quad_Graph = defaultGraph;
    if (quads && this.char() !== 46 /* . */) {
      if (!hadSpace) return undefined;
      const g = this.node();
      if (!g) return undefined;
      graph = g;
      this.spaces();
    }
    if (this.char() !== 46 /* . */) return undefined;
    this.pos++;
    this.spaces();
    if (this.pos !== end && this.text.charCodeAt(this.pos) !== 35 /* # */) return undefined;
    return this.factory.quad(subject, predicate, object, graph);
  }

  private char(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  /** Skips spaces and tabs; whether there were any. */
  private spaces(): boolean {
    const from = this.pos;
    while (this.pos < this.end) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 32 && c !== 9) break;
      this.pos++;
    }
    return this.pos > from;
  }

  /** The subject: {@link node}, the term of the line before when it is written the same. */
  private subject(): RDF.NamedNode | RDF.BlankNode | undefined {
    if (this.char() !== 60 /* < */) return this.node();
    const close = this.text.indexOf('>', this.pos + 1);
    if (close < 0 || close >= this.end) return undefined;
    // The same IRI reference as the line before's (one native comparison): its term.
    const written = this.text.slice(this.pos, close + 1);
    if (written === this.lastSubject) {
      this.pos = close + 1;
      return this.lastSubjectTerm;
    }
    const subject = this.iri();
    if (subject) {
      this.lastSubject = written;
      this.lastSubjectTerm = subject;
    }
    return subject;
  }

  /** An IRI or a blank node label, followed by a space or a tab. */
  private node(): RDF.NamedNode | RDF.BlankNode | undefined {
    const c = this.char();
    if (c === 60 /* < */) return this.iri();
    if (c !== 95 /* _ */ || this.text.charCodeAt(this.pos + 1) !== 58 /* : */) return undefined;
    const from = this.pos + 2;
    let i = from;
    for (; i < this.end; i++) {
      const ch = this.text.charCodeAt(i);
      const alnum = (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122) || ch === 95;
      if (!alnum && !(ch === 45 /* - */ && i > from)) break;
    }
    const next = i < this.end ? this.text.charCodeAt(i) : -1;
    if (i === from || (next !== 32 && next !== 9)) return undefined;
    this.pos = i;
    return this.factory.blankNode(this.text.slice(from, i));
  }

  /**
   * `<IRI>` without escapes: an absolute IRI of the characters N-Triples allows (found by the engine's own
   * `indexOf` and a regular expression: a loop over its characters in JavaScript costs several times more).
   */
  private iri(): RDF.NamedNode | undefined {
    const from = this.pos + 1;
    const close = this.text.indexOf('>', from);
    if (close < 0 || close >= this.end) return undefined;
    const text = this.text;
    const iri = text.slice(from, close);
    // The slot: the length and the last two characters (IRIs of one prefix differ at their end).
    const slot = (close - from + text.charCodeAt(close - 1) * 7 + text.charCodeAt(close - 2) * 31) & (MEMO_SLOTS - 1);
    const memo = this.memo;
    let term: RDF.NamedNode | undefined;
    if (memo.texts[slot] === iri) term = memo.terms[slot];
    else {
      if (!PLAIN_IRI.test(iri)) return undefined;
      term = this.factory.namedNode(iri);
      memo.texts[slot] = iri;
      memo.terms[slot] = term;
    }
    this.pos = close + 1;
    return term;
  }

  /** Where the first `\\` at or after `from` is (the text's length when none): found once, not for every literal. */
  private backslashFrom(from: number): number {
    if (this.backslash < from) {
      const at = this.text.indexOf('\\', from);
      this.backslash = at < 0 ? this.text.length : at;
    }
    return this.backslash;
  }

  /** `"..."` with the fixed escapes, then a language tag or a datatype IRI. */
  private literal(): RDF.Literal | undefined {
    const text = this.text;
    let i = this.pos + 1;
    let value: string | undefined;
    for (;;) {
      const quote = text.indexOf('"', i);
      // No closing quote on the line (a CR is no concern: a text with one is n3's).
      if (quote < 0 || quote >= this.end) return undefined;
      const escape = this.backslashFrom(i);
      if (escape > quote) {
        value = value === undefined ? text.slice(i, quote) : value + text.slice(i, quote);
        i = quote;
        break;
      }
      const replacement = ESCAPES[text[escape + 1] ?? ''];
      if (replacement === undefined || escape + 1 >= this.end) return undefined;
      value = (value ?? '') + text.slice(i, escape) + replacement;
      i = escape + 2;
    }
    this.pos = i + 1;
    const next = this.char();
    if (next === 64 /* @ */) {
      const tagFrom = this.pos + 1;
      let j = tagFrom;
      let subtagLength = 0;
      let first = true;
      for (; j < this.end; j++) {
        const ch = text.charCodeAt(j);
        const letter = (ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122);
        const digit = ch >= 48 && ch <= 57;
        if (letter || (digit && !first)) {
          // n3 refuses subtags of more than 8 characters: its error, then.
          if (++subtagLength > 8) return undefined;
        } else if (ch === 45 /* - */ && subtagLength > 0) {
          first = false;
          subtagLength = 0;
        } else break;
      }
      const after = j < this.end ? text.charCodeAt(j) : -1;
      // A tag ends in a letter or digit, before a space, a tab or the final dot (not RDF 1.2's '--' direction).
      if (subtagLength === 0 || (after !== 32 && after !== 9 && after !== 46)) return undefined;
      const tag = text.slice(tagFrom, j);
      if (tag.toLowerCase() === 'version') return undefined;
      this.pos = j;
      return this.factory.literal(value, tag);
    }
    if (next === 94 /* ^ */) {
      if (text.charCodeAt(this.pos + 1) !== 94 || text.charCodeAt(this.pos + 2) !== 60 /* < */) return undefined;
      this.pos += 2;
      const datatype = this.iri();
      if (!datatype || datatype.value === `${RDF_NS}langString` || datatype.value === `${RDF_NS}dirLangString`)
        return undefined;
      return this.factory.literal(value, datatype);
    }
    return this.factory.literal(value);
  }
}
