import type * as RDF from '@rdfjs/types';
import { baseDirection, blankNodeLabel, escapeIri, escapeLiteral, serializationError, withSubject } from './escape.js';
import { XSD_STRING } from './prefixes.js';

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
    if (term.termType === 'NamedNode') return `<${escapeIri(term.value)}>`;
    if (term.termType === 'BlankNode') return `_:${blankNodeLabel(term.value)}`;
    throw serializationError(`a ${term.termType} cannot be the ${position} of a triple`);
  }

  object(term: RDF.Term): string {
    if (term.termType !== 'Literal') return this.node(term, 'object');
    const lexical = `"${escapeLiteral(term.value)}"`;
    if (term.language) {
      if (!LANGUAGE_TAG.test(term.language)) throw serializationError(`invalid language tag "${term.language}"`);
      // RDF 1.2: a base direction is kept in the syntax of N-Triples 1.2 (`"…"@ar--rtl`).
      const direction = baseDirection(term);
      return direction ? `${lexical}@${term.language}--${direction}` : `${lexical}@${term.language}`;
    }
    const datatype = term.datatype.value;
    return datatype === XSD_STRING || datatype === '' ? lexical : `${lexical}^^${this.cachedIri(datatype)}`;
  }
}

/**
 * The record writer of N-Triples and N-Quads: one line per quad (a `RecordWriter` of `serialize/`; also how
 * grouped records are written back as lines).
 */
export class NTriplesWriter {
  private readonly terms = new NTriplesTermWriter();
  private readonly defaultGraph: string;

  /**
   * @param quads write N-Quads (else N-Triples, which refuses named graphs)
   * @param label the format's name for error messages
   * @param graph N-Quads: graph IRI for default-graph quads
   */
  constructor(
    private readonly quads: boolean,
    private readonly label: string,
    graph: string | undefined,
  ) {
    this.defaultGraph = graph ? ` ${this.terms.node({ termType: 'NamedNode', value: graph } as RDF.NamedNode, 'graph')}` : '';
  }

  /** Records are independent in this format: nothing to carry over. */
  continueAfter(_records: number): void {}

  start(): string {
    return '';
  }

  write(quads: readonly RDF.Quad[]): string {
    const terms = this.terms;
    let out = '';
    let subject: RDF.Term | undefined;
    try {
      for (let i = 0; i < quads.length; i++) {
        const q = quads[i]!;
        subject = q.subject;
        out += `${terms.subject(q.subject)} ${q.predicate.termType === 'NamedNode' ? terms.cachedIri(q.predicate.value) : terms.node(q.predicate, 'predicate')} ${terms.object(q.object)}`;
        const g = q.graph;
        if (g.termType === 'DefaultGraph') {
          out += this.quads ? `${this.defaultGraph} .\n` : ' .\n';
        } else if (this.quads) {
          out += ` ${terms.node(g, 'graph')} .\n`;
        } else {
          throw serializationError(`N-Triples cannot carry the named graph <${g.value}>; write N-Quads instead`);
        }
      }
    } catch (error) {
      throw subject ? withSubject(error, subject, this.label) : error;
    }
    return out;
  }

  end(): string {
    return '';
  }
}
