import type * as RDF from '@rdfjs/types';
import {
  baseDirection,
  blankNodeLabel,
  escapeIri,
  escapeLiteral,
  escapeTermIri,
  literalText,
  serializationError,
  withSubject,
} from './escape.js';
import { binaryText } from './binaryText.js';
import { flat } from './flat.js';
import { isAsciiIri, vocabularyIndex } from './dataFactory.js';
import { RDF_TYPE, XSD_STRING } from './prefixes.js';

const LANGUAGE_TAG = /^[a-zA-Z]+(?:-[a-zA-Z0-9]+)*$/;
const CACHE_LIMIT = 4096;

/**
 * Writes terms as N-Triples / N-Quads. Caches the text of predicates and
 * datatypes (bounded), and reuses the subject's text within a run of quads.
 */
export class NTriplesTermWriter {
  private readonly cache = new Map<string, string>();
  private lastSubject: RDF.Term | undefined;
  private lastSubjectText = '';
  /** The last language tag found valid (a record's text literals share one). */
  private lastLanguage = '';

  /** `<iri>` with IRIREF escaping, cached for IRIs that repeat (predicates, datatypes). */
  cachedIri(iri: string): string {
    let text = this.cache.get(iri);
    if (text === undefined) {
      text = `<${escapeIri(iri)}>`;
      if (this.cache.size < CACHE_LIMIT) this.cache.set(iri, text);
    }
    return text;
  }

  subject(term: RDF.Term): string {
    if (term === this.lastSubject) return this.lastSubjectText;
    const text = this.node(term, 'subject');
    this.lastSubject = term;
    this.lastSubjectText = text;
    return text;
  }

  node(term: RDF.Term, position: string): string {
    if (term.termType === 'NamedNode') return `<${escapeTermIri(term)}>`;
    if (term.termType === 'BlankNode') return `_:${blankNodeLabel(term.value)}`;
    throw serializationError(`a ${term.termType} cannot be the ${position} of a triple`);
  }

  object(term: RDF.Term): string {
    if (term.termType !== 'Literal') return this.node(term, 'object');
    return `"${escapeLiteral(term.value)}${this.literalEnd(term)}`;
  }

  /**
   * What follows the escaped value of a literal: the closing quote and the
   * language tag (checked), base direction or datatype (`"@en`, `"^^<…#date>`).
   */
  literalEnd(term: RDF.Literal): string {
    const language = term.language;
    if (language) {
      if (language !== this.lastLanguage) {
        if (!LANGUAGE_TAG.test(language)) throw serializationError(`invalid language tag "${language}"`);
        this.lastLanguage = language;
      }
      // RDF 1.2: a base direction is kept in the syntax of N-Triples 1.2 (`"…"@ar--rtl`).
      const direction = baseDirection(term);
      return direction ? `"@${language}--${direction}` : `"@${language}`;
    }
    const datatype = term.datatype.value;
    return datatype === XSD_STRING || datatype === '' ? '"' : `"^^${this.cachedIri(datatype)}`;
  }
}

/** A predicate's text and a space, and the same with the opening of a literal or IRI object. */
interface PredicateTexts {
  text: string;
  literal: string;
  iri: string;
}

/**
 * The record writer of N-Triples and N-Quads: one line per quad (a `RecordWriter` of `serialize/`; also how
 * grouped records are written back as lines).
 */
export class NTriplesWriter {
  private readonly terms = new NTriplesTermWriter();
  private readonly defaultGraph: string;
  /** The text as it is, or (the writer of {@link writeBinary}) its UTF-8 bytes as a binary string. */
  private readonly encode: (text: string) => string;
  /** {@link encode} is `binaryText`. */
  private readonly binaryOutput: boolean;
  /** The writer of {@link writeBinary}, made on first use. */
  private binary: NTriplesWriter | undefined;
  /** What ends the line of a quad in the default graph. */
  private readonly defaultTail: string;
  /** What ends the line of a quad in the default graph after an IRI object (its `>` too). */
  private readonly iriLineEnd: string;
  private readonly predicates = new Map<string, PredicateTexts>();
  /** {@link predicates} by a vocabulary term's number (`vocabularyIndex`): an array read, not a map lookup. */
  private readonly predicatesByIndex: (PredicateTexts | undefined)[] = [];
  private readonly typeLines = new Map<string, string>();
  /** {@link typeLines} by a vocabulary term's number. */
  private readonly typeLinesByIndex: (string | undefined)[] = [];
  private readonly languageLineEnds = new Map<string, string>();
  private readonly datatypeLineEnds = new Map<string, string>();
  /** {@link datatypeLineEnds} by a vocabulary term's number (`xsd:string`, the mapper's datatypes). */
  private readonly datatypeLineEndsByIndex: (string | undefined)[] = [];

  /**
   * @param quads write N-Quads (else N-Triples, which refuses named graphs)
   * @param label the format's name for error messages
   * @param graph N-Quads: graph IRI for default-graph quads
   * @param binary `write` gives the UTF-8 bytes of the text as a binary string ({@link writeBinary}). Defaults to false.
   */
  constructor(
    private readonly quads: boolean,
    private readonly label: string,
    private readonly graph: string | undefined,
    binary = false,
  ) {
    this.binaryOutput = binary;
    this.encode = binary ? binaryText : (text) => text;
    this.defaultGraph = graph
      ? ` ${this.terms.node({ termType: 'NamedNode', value: graph } as RDF.NamedNode, 'graph')}`
      : '';
    this.defaultTail = this.encode(quads ? `${this.defaultGraph} .\n` : ' .\n');
    this.iriLineEnd = flat(`>${this.defaultTail}`);
  }

  /** Records are independent in this format: nothing to carry over. */
  continueAfter(_records: number): void {}

  start(): string {
    return '';
  }

  /**
   * The lines of the quads. A line is made of few pieces, most of them cached
   * (the subject's text and a space; the predicate's, a space and the opening
   * of the object; the object's value; the end of the line): the output is
   * copied and encoded piece by piece when it is written, and that costs by
   * the piece.
   */
  write(quads: readonly RDF.Quad[]): string {
    const terms = this.terms;
    const encode = this.encode;
    let out = '';
    let subject: RDF.Term | undefined;
    let subjectText = '';
    // A record's statements return to its first subject (the work) after each node of its own (an author, the
    // journal, ...): that subject's text is made once a call, not at every return.
    let firstSubject: RDF.Term | undefined;
    let firstSubjectText = '';
    // A literal's value often comes twice in a row (schema:name and dcterms:title, schema:abstract and
    // bibo:abstract): escaped and encoded once (an abstract is long, and often not ASCII).
    let lastValue: string | undefined;
    let lastValueText = '';
    try {
      for (let i = 0; i < quads.length; i++) {
        const q = quads[i]!;
        if (q.subject !== subject) {
          subject = q.subject;
          if (subject === firstSubject) subjectText = firstSubjectText;
          else {
            // an IRI the mapper knows to be ASCII is its own UTF-8 (not tested: `isAsciiIri`)
            const text = `${terms.subject(subject)} `;
            subjectText = flat(isAsciiIri(subject) ? text : encode(text));
            if (firstSubject === undefined) {
              firstSubject = subject;
              firstSubjectText = subjectText;
            }
          }
        }
        const p = q.predicate;
        const o = q.object;
        const g = q.graph;
        if (g.termType === 'DefaultGraph' && p.termType === 'NamedNode') {
          const before = this.predicateOf(p);
          if (o.termType === 'Literal') {
            if (o.value !== lastValue) {
              lastValueText = literalText(o.value, this.binaryOutput);
              lastValue = o.value;
            }
            out += subjectText + before.literal + lastValueText + this.literalLineEnd(o);
          } else if (o.termType !== 'NamedNode')
            out += subjectText + before.text + encode(terms.object(o)) + this.defaultTail;
          else if (p.value === RDF_TYPE) out += subjectText + this.typeLineOf(o);
          else if (isAsciiIri(o)) out += subjectText + before.iri + escapeTermIri(o) + this.iriLineEnd;
          else out += subjectText + before.iri + encode(escapeTermIri(o)) + this.iriLineEnd;
          continue;
        }
        const predicate =
          p.termType === 'NamedNode' ? this.predicate(p.value).text : encode(`${terms.node(p, 'predicate')} `);
        if (g.termType === 'DefaultGraph') {
          out += subjectText + predicate + encode(terms.object(o)) + this.defaultTail;
        } else {
          const object = terms.object(o);
          if (!this.quads)
            throw serializationError(`N-Triples cannot carry the named graph <${g.value}>; write N-Quads instead`);
          out += subjectText + predicate + encode(`${object} ${terms.node(g, 'graph')} .\n`);
        }
      }
    } catch (error) {
      throw subject ? withSubject(error, subject, this.label) : error;
    }
    return out;
  }

  /**
   * {@link write}'s text as the UTF-8 bytes it is written as, in a binary
   * string ({@link binaryText}: write it with the `'latin1'` encoding).
   */
  writeBinary(quads: readonly RDF.Quad[]): string {
    this.binary ??= new NTriplesWriter(this.quads, this.label, this.graph, true);
    return this.binary.write(quads);
  }

  /** {@link predicate} of a term: a vocabulary term's found by its number. */
  private predicateOf(p: RDF.NamedNode): PredicateTexts {
    const index = vocabularyIndex(p, CACHE_LIMIT);
    if (index < 0) return this.predicate(p.value);
    return (this.predicatesByIndex[index] ??= this.predicate(p.value));
  }

  /** `<iri> ` and what follows it, cached. */
  private predicate(iri: string): PredicateTexts {
    let texts = this.predicates.get(iri);
    if (texts === undefined) {
      const text = flat(this.encode(`${this.terms.cachedIri(iri)} `));
      texts = { text, literal: flat(`${text}"`), iri: flat(`${text}<`) };
      if (this.predicates.size < CACHE_LIMIT) this.predicates.set(iri, texts);
    }
    return texts;
  }

  /** {@link typeLine} of a term: a vocabulary term's found by its number. */
  private typeLineOf(o: RDF.NamedNode): string {
    const index = vocabularyIndex(o, CACHE_LIMIT);
    if (index < 0) return this.typeLine(o.value);
    return (this.typeLinesByIndex[index] ??= this.typeLine(o.value));
  }

  /** `rdf:type <class> .`, cached (classes repeat in every record). */
  private typeLine(iri: string): string {
    let line = this.typeLines.get(iri);
    if (line === undefined) {
      line = flat(this.encode(`${this.terms.cachedIri(RDF_TYPE)} ${this.terms.cachedIri(iri)}`) + this.defaultTail);
      if (this.typeLines.size < CACHE_LIMIT) this.typeLines.set(iri, line);
    }
    return line;
  }

  /** {@link literalLineEndOf}, a vocabulary datatype's found by its number. */
  private literalLineEnd(o: RDF.Literal): string {
    const language = o.language;
    if (!language) {
      const index = vocabularyIndex(o.datatype, CACHE_LIMIT);
      if (index >= 0) return (this.datatypeLineEndsByIndex[index] ??= this.literalLineEndOf(o, language));
    }
    return this.literalLineEndOf(o, language);
  }

  /** {@link NTriplesTermWriter.literalEnd} and the end of the line, cached by language tag or datatype (not with a base direction). */
  private literalLineEndOf(o: RDF.Literal, language: string): string {
    const ends = language ? this.languageLineEnds : this.datatypeLineEnds;
    const key = language || o.datatype.value;
    let end = ends.get(key);
    if (end === undefined || (language && baseDirection(o))) {
      end = flat(this.encode(this.terms.literalEnd(o)) + this.defaultTail);
      if (!(language && baseDirection(o)) && ends.size < CACHE_LIMIT) ends.set(key, end);
    }
    return end;
  }

  end(): string {
    return '';
  }
}
