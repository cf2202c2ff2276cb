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
 */
export function parseSimpleNTriples(
  text: string,
  format: LineFormat,
  factory: RDF.DataFactory,
): RDF.Quad[] | undefined {
  // n3 ends lines (and comments) at a lone CR too: such a text is n3's.
  if (text.includes('\r')) return undefined;
  const quads: RDF.Quad[] = [];
  const reader = new LineReader(text, factory);
  const defaultGraph = factory.defaultGraph();
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

const ABSOLUTE_IRI = /^[a-z][a-z0-9+.-]*:/i;
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

/** Reads one statement at a time; `pos` is where the next token starts. */
class LineReader {
  private pos = 0;
  private end = 0;
  /** The last subject IRI read, as written (`<...>`), and its term: the lines of a node follow each other. */
  private lastSubject = '';
  private lastSubjectTerm: RDF.NamedNode | undefined;

  constructor(
    private readonly text: string,
    private readonly factory: RDF.DataFactory,
  ) {}

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
    const last = this.lastSubject;
    if (last !== '' && this.text.startsWith(last, this.pos) && this.pos + last.length <= this.end) {
      this.pos += last.length;
      return this.lastSubjectTerm;
    }
    const from = this.pos;
    const subject = this.node();
    if (subject?.termType === 'NamedNode') {
      this.lastSubject = this.text.slice(from, this.pos);
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

  /** `<IRI>` without escapes: an absolute IRI of the characters N-Triples allows. */
  private iri(): RDF.NamedNode | undefined {
    const from = this.pos + 1;
    let i = from;
    for (; i < this.end; i++) {
      const ch = this.text.charCodeAt(i);
      if (ch === 62 /* > */) break;
      // Controls and space, < " { } | ^ ` and \ (escapes are n3's)
      if (
        ch <= 0x20 ||
        ch === 60 ||
        ch === 34 ||
        ch === 123 ||
        ch === 125 ||
        ch === 124 ||
        ch === 94 ||
        ch === 96 ||
        ch === 92
      )
        return undefined;
    }
    if (i >= this.end) return undefined;
    const iri = this.text.slice(from, i);
    if (!ABSOLUTE_IRI.test(iri)) return undefined;
    this.pos = i + 1;
    return this.factory.namedNode(iri);
  }

  /** `"..."` with the fixed escapes, then a language tag or a datatype IRI. */
  private literal(): RDF.Literal | undefined {
    const text = this.text;
    let i = this.pos + 1;
    let value = '';
    let from = i;
    for (;;) {
      if (i >= this.end) return undefined;
      const ch = text.charCodeAt(i);
      if (ch === 34 /* " */) break;
      if (ch === 13 /* CR: a line break, not allowed in a literal */) return undefined;
      if (ch === 92 /* \ */) {
        const replacement = ESCAPES[text[i + 1] ?? ''];
        if (replacement === undefined || i + 1 >= this.end) return undefined;
        value += text.slice(from, i) + replacement;
        i += 2;
        from = i;
        continue;
      }
      i++;
    }
    value += text.slice(from, i);
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
