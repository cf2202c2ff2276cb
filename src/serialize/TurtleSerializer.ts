import type * as RDF from '@rdfjs/types';
import { formatInfo, type FormatName } from '../formats.js';
import type { QuadSerializer, RecordWriter, SerializerOptions } from './QuadSerializer.js';
import {
  baseDirection,
  blankNodeLabel,
  escapeIri,
  literalText,
  serializationError,
  withSubject,
} from '../rdf/escape.js';
import { binaryText } from '../rdf/binaryText.js';
import { isTurtleLocalName, isTurtlePrefix } from './escape.js';
import { groupBySubject, type SubjectProperty } from './groupBySubject.js';
import { isAsciiIri, isMintedIri, vocabularyIndex } from '../rdf/dataFactory.js';
import { DEFAULT_PREFIXES, RDF_TYPE, XSD_NS, XSD_STRING } from '../rdf/prefixes.js';

const LANGUAGE_TAG = /^[a-zA-Z]+(?:-[a-zA-Z0-9]+)*$/;
const INTEGER = /^[+-]?[0-9]+$/;
const CACHE_LIMIT = 4096;
const INDENT = '    ';
const XSD_INTEGER = `${XSD_NS}integer`;
const XSD_BOOLEAN = `${XSD_NS}boolean`;
/** What comes between two predicates of a subject. */
const PREDICATE_SEPARATOR = ` ;\n${INDENT}`;

/** The record writer of Turtle: `@prefix` lines, then one block per subject. */
export class TurtleWriter implements RecordWriter {
  /** [prefix, namespace], longest namespace first. */
  private readonly prefixes: [string, string][];
  private readonly cache = new Map<string, string>();
  /** {@link cache} by a vocabulary term's number (`vocabularyIndex`): an array read, not a map lookup. */
  private readonly cacheByIndex: (string | undefined)[] = [];
  /** Namespace -> prefix, for namespaces ending in '/' or '#' (found by one split of the IRI). */
  private readonly byNamespace = new Map<string, string>();
  /** The lengths of the namespaces of {@link byNamespace}: an IRI whose split is at none of them is in none of them. */
  private readonly namespaceLengths: Set<number>;
  /** Prefixes whose namespace ends otherwise (`urn:isbn:`), tried one by one. */
  private readonly otherPrefixes: [string, string][];
  /** The last language tag found valid (a record's text literals share one). */
  private lastLanguage = '';
  /** The last literal value written and its text: a value often comes twice in a row (`schema:name`, `dcterms:title`). */
  private lastValue: string | undefined;
  private lastValueText = '';
  /** The writer of {@link writeBinary}, made on first use. */
  private binaryWriter: TurtleWriter | undefined;

  /**
   * @param label The format's name in error messages (TriG writes its graphs' contents with this writer). Defaults to `Turtle`.
   * @param binary `write` gives the UTF-8 bytes of the text as a binary string ({@link writeBinary}). Defaults to false.
   */
  constructor(
    private readonly prefixMap: Readonly<Record<string, string>>,
    private readonly label = 'Turtle',
    private readonly binary = false,
  ) {
    const prefixes = prefixMap;
    this.prefixes = Object.entries(prefixes)
      .filter(([p, ns]) => isTurtlePrefix(p) && ns.length > 0)
      .sort((a, b) => b[1].length - a[1].length);
    for (const [p, ns] of this.prefixes) {
      if (/[/#]$/.test(ns) && !this.byNamespace.has(ns)) this.byNamespace.set(ns, p);
    }
    this.namespaceLengths = new Set([...this.byNamespace.keys()].map((ns) => ns.length));
    this.otherPrefixes = this.prefixes.filter(([, ns]) => !/[/#]$/.test(ns));
  }

  /** Records are independent in this format: nothing to carry over. */
  continueAfter(_records: number): void {}

  start(): string {
    const lines = [...this.prefixes]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([p, ns]) => `@prefix ${p}: <${escapeIri(ns)}> .\n`);
    return lines.length ? `${lines.join('')}\n` : '';
  }

  /**
   * An IRI as a prefixed name when a prefix covers it with a valid local name, else `<iri>`; `minted`: the mapper
   * made it of characters every format carries (`isMintedIri`), no need to check them again.
   */
  private iri(iri: string, minted = false): string {
    const text = this.iriText(iri, minted);
    return this.binary ? binaryText(text) : text;
  }

  /** {@link iri}'s text (not encoded). */
  private iriText(iri: string, minted: boolean): string {
    // A valid local name holds no '/' or '#', so the namespace ends at the last of them (or inside the last segment).
    const cut = namespaceEnd(iri);
    if (cut > 0 && cut < iri.length && this.namespaceLengths.has(cut)) {
      const prefix = this.byNamespace.get(iri.slice(0, cut));
      if (prefix !== undefined && isTurtleLocalName(iri.slice(cut))) return `${prefix}:${iri.slice(cut)}`;
    }
    for (const [prefix, ns] of this.otherPrefixes) {
      if (iri.length > ns.length && iri.startsWith(ns)) {
        const local = iri.slice(ns.length);
        if (isTurtleLocalName(local)) return `${prefix}:${local}`;
      }
    }
    return `<${minted ? iri : escapeIri(iri)}>`;
  }

  /** {@link iri} cached, for IRIs that repeat (predicates, classes, datatypes). */
  private vocabIri(iri: string): string {
    let text = this.cache.get(iri);
    if (text === undefined) {
      text = this.iri(iri);
      if (this.cache.size < CACHE_LIMIT) this.cache.set(iri, text);
    }
    return text;
  }

  /** {@link vocabIri} of a term: a vocabulary term's found by its number. */
  private vocabTerm(term: RDF.NamedNode): string {
    const index = vocabularyIndex(term, CACHE_LIMIT);
    if (index < 0) return this.vocabIri(term.value);
    return (this.cacheByIndex[index] ??= this.vocabIri(term.value));
  }

  private node(term: RDF.Term, position: string, vocab: boolean): string {
    if (term.termType === 'NamedNode') {
      if (vocab) return this.vocabTerm(term);
      // an IRI the mapper knows to be ASCII is its own UTF-8 (not tested: `isAsciiIri`)
      return this.binary && isAsciiIri(term) ? this.iriText(term.value, true) : this.iri(term.value, isMintedIri(term));
    }
    if (term.termType === 'BlankNode') return `_:${blankNodeLabel(term.value)}`;
    throw serializationError(`a ${term.termType} cannot be the ${position} of a triple`);
  }

  private object(term: RDF.Term, isType: boolean): string {
    if (term.termType !== 'Literal') return this.node(term, 'object', isType);
    const value = term.value;
    const language = term.language;
    if (language) {
      if (language !== this.lastLanguage) {
        if (!LANGUAGE_TAG.test(language)) throw serializationError(`invalid language tag "${language}"`);
        this.lastLanguage = language;
      }
      // RDF 1.2: a base direction is kept in the syntax of Turtle 1.2 (`"…"@ar--rtl`).
      const direction = baseDirection(term);
      const text = this.valueText(value);
      return direction ? `"${text}"@${language}--${direction}` : `"${text}"@${language}`;
    }
    const datatype = term.datatype.value;
    if (datatype === XSD_STRING || datatype === '') return `"${this.valueText(value)}"`;
    if (datatype === XSD_INTEGER && INTEGER.test(value)) return value;
    if (datatype === XSD_BOOLEAN && (value === 'true' || value === 'false')) return value;
    return `"${this.valueText(value)}"^^${this.vocabTerm(term.datatype)}`;
  }

  /** A literal's value escaped (`literalText`, encoded by the writer of binary strings), once when it comes twice in a row. */
  private valueText(value: string): string {
    if (value !== this.lastValue) {
      this.lastValueText = literalText(value, this.binary);
      this.lastValue = value;
    }
    return this.lastValueText;
  }

  write(quads: readonly RDF.Quad[]): string {
    let out = '';
    let subject: RDF.Term | undefined;
    try {
      for (const group of groupBySubject(quads)) {
        subject = group.subject;
        if (group.graph.termType !== 'DefaultGraph') {
          throw serializationError(`Turtle cannot carry the named graph <${group.graph.value}>; write N-Quads instead`);
        }
        out += this.node(group.subject, 'subject', false);
        // rdf:type first (as `a`), then the other predicates in order of appearance.
        const list = group.list;
        let types: SubjectProperty | undefined;
        for (let k = 0; k < list.length; k++) {
          if (list[k]!.predicate.value === RDF_TYPE) {
            types = list[k];
            break;
          }
        }
        let first = true;
        if (types) {
          out += this.property(types.predicate, types.objects, true);
          first = false;
        }
        for (let k = 0; k < list.length; k++) {
          const prop = list[k]!;
          if (prop === types) continue;
          out += this.property(prop.predicate, prop.objects, first);
          first = false;
        }
        out += ' .\n\n';
      }
    } catch (error) {
      throw subject ? withSubject(error, subject, this.label) : error;
    }
    return out;
  }

  /**
   * {@link write}'s text as the UTF-8 bytes it is written as, in a binary string (`binaryText`: write it with the
   * `'latin1'` encoding): a record's text holding a character past U+00FF is encoded a code unit at a time over a
   * flattened copy when written as UTF-8, a binary string is copied.
   */
  writeBinary(quads: readonly RDF.Quad[]): string {
    this.binaryWriter ??= new TurtleWriter(this.prefixMap, this.label, true);
    return this.binaryWriter.write(quads);
  }

  /** A predicate and its objects, after the subject (`first`) or after the predicate before. */
  private property(predicate: RDF.Quad_Predicate, objects: readonly RDF.Quad_Object[], first: boolean): string {
    if (predicate.termType !== 'NamedNode') throw serializationError(`a ${predicate.termType} cannot be a predicate`);
    const isType = predicate.value === RDF_TYPE;
    let out = (first ? ' ' : PREDICATE_SEPARATOR) + (isType ? 'a' : this.vocabTerm(predicate));
    for (let i = 0; i < objects.length; i++) out += (i === 0 ? ' ' : ', ') + this.object(objects[i]!, isType);
    return out;
  }

  end(): string {
    return '';
  }
}

/**
 * `String.prototype.charCodeAt`, called on the IRI rather than read from it: IRIs come as strings of many kinds
 * (flat, joined, sliced), and a read of `.charCodeAt` from them goes megamorphic (as in `rdf/flat.ts`).
 */
const charCodeAt = String.prototype.charCodeAt;

/**
 * Where the last `/` or `#` of an IRI ends (0: none), found from its end: a
 * local name is short, and `lastIndexOf` calls into V8's runtime (twice an
 * IRI: about 5% of the instructions of writing Turtle, callgrind).
 */
function namespaceEnd(iri: string): number {
  let at = iri.length;
  while (at > 0) {
    const code = charCodeAt.call(iri, at - 1);
    if (code === 0x2f || code === 0x23) break;
    at--;
  }
  return at;
}

/**
 * Turtle (`text/turtle`), hand-written for readability and speed: `@prefix`
 * lines, subjects with their predicates grouped by `;` and objects by `,`,
 * prefixed names where the local name allows, `a` for `rdf:type`, integers and
 * booleans as bare numbers and words. Named graphs are refused.
 */
export class TurtleSerializer implements QuadSerializer {
  readonly format: FormatName = 'turtle';
  readonly mediaType = formatInfo('turtle').mediaType;
  readonly extensions = formatInfo('turtle').extensions;

  createWriter(options: SerializerOptions = {}): RecordWriter {
    return new TurtleWriter(options.prefixes ?? DEFAULT_PREFIXES);
  }
}
