/**
 * The toolkit's own RDF/JS data factory: terms and quads as plain objects
 * whose fields (`termType`, `value`, `language`, `datatype`, ...) are
 * stored, not computed. The mapper makes every quad of every record with it,
 * and the writers read each field once or more: n3's terms keep one string
 * (`"text"@en`) and cut it apart again on every read (`value`, `language`,
 * `datatype`). Terms of any other RDF/JS factory compare equal to
 * these ({@link https://rdf.js.org/data-model-spec/ RDF/JS data model}).
 * What every instance of a class shares (`termType`, a quad's `value`) is
 * the class's getter, not a field of each term: a conversion makes a million.
 */
import type * as RDF from '@rdfjs/types';
import { RDF_DIR_LANG_STRING, RDF_LANG_STRING, XSD_STRING } from './namespaces.js';
import { hashText } from './textHash.js';

/** A term that its type and value say whole: a named node, a blank node, a variable. */
abstract class ValueTerm {
  abstract get termType(): string;
  constructor(readonly value: string) {}

  equals(other: RDF.Term | null | undefined): boolean {
    return !!other && other.termType === this.termType && other.value === this.value;
  }
}

/** An IRI. */
export class NamedNodeTerm<Iri extends string = string> extends ValueTerm implements RDF.NamedNode<Iri> {
  declare readonly value: Iri;

  // The same for every instance: a getter of the class, not a field of each term (8 bytes of a million terms).
  override get termType(): 'NamedNode' {
    return 'NamedNode';
  }

  /**
   * @param minted the mapper made the IRI from parts that every format carries (`src/mapping/iri.ts`, a
   *   checked base): writers skip their check of its characters ({@link isMintedIri}). Defaults to false.
   * @param sharedEntity false: the mapper minted it for a node of one record's own (`EntityIris.owned`), which no
   *   other record names (counts of statements about shared entities need not read its IRI). Defaults to
   *   undefined (not said).
   * @param ascii the mapper knows the IRI is ASCII (a record's own node named by a hash or an ASCII name): the
   *   writers of UTF-8 as binary strings need not test it ({@link isAsciiIri}). Defaults to false (not said).
   */
  constructor(value: Iri, minted = false, sharedEntity: false | undefined = undefined, ascii = false) {
    super(value);
    this.marks = (minted ? MINTED : 0) | (sharedEntity === false ? OWN : 0) | (ascii ? ASCII : 0);
  }

  /** `minted`, `sharedEntity` and `ascii` as bits, in one field (a named node is 8 bytes smaller than with two). */
  private readonly marks: number;

  get minted(): boolean {
    return (this.marks & MINTED) !== 0;
  }

  /** The IRI is ASCII, as the mapper knows (false: not said). */
  get ascii(): boolean {
    return (this.marks & ASCII) !== 0;
  }

  get sharedEntity(): false | undefined {
    return (this.marks & OWN) !== 0 ? false : undefined;
  }
}

/** {@link NamedNodeTerm}'s marks. */
const MINTED = 1;
const OWN = 2;
const ASCII = 4;

/**
 * An IRI of a shared entity the mapper made with its text's hash (`hashText` of its value, `textHash.ts`), from
 * parts whose hashes it kept: the count of statements about shared entities (`termsKey`) takes the hash and does
 * not read the text again (a joined text costs about 40 instructions a character to read).
 */
export class HashedNamedNodeTerm extends NamedNodeTerm {
  /**
   * @param hashA `hashText`'s first lane of `value` (unsigned).
   * @param hashB its second lane.
   * @param entity the IRI is a shared entity's (`isSharedEntityIri` holds: a journal, a person, ...), not only
   *   an IRI another record may name too (an ISSN's URN): the count of statements about shared entities need not
   *   test its text.
   * @param ascii the mapper knows the IRI is ASCII ({@link NamedNodeTerm.ascii}). Defaults to false (not said).
   */
  constructor(
    value: string,
    minted: boolean,
    readonly hashA: number,
    readonly hashB: number,
    readonly entity: boolean,
    ascii = false,
  ) {
    super(value, minted, undefined, ascii);
  }
}

/**
 * A term of a vocabulary ({@link hashedNamedNode}): made once and written in many statements, numbered in the
 * order they are made, so that a writer finds its text for it in an array by {@link vocabularyIndex} (no map
 * looked up by its IRI a statement).
 */
export class VocabularyTerm extends HashedNamedNodeTerm {
  /** The term's number among the vocabulary terms of this thread, from 0 (two terms of one IRI have two). */
  readonly vocabularyIndex: number;

  constructor(value: string, hashA: number, hashB: number) {
    super(value, false, hashA, hashB, false);
    this.vocabularyIndex = vocabularyTerms++;
  }
}

let vocabularyTerms = 0;

/**
 * A term's {@link VocabularyTerm.vocabularyIndex} when it is one below `limit` (a writer's array of texts), else -1.
 */
export function vocabularyIndex(term: RDF.Term, limit: number): number {
  const index = (term as Partial<VocabularyTerm>).vocabularyIndex;
  return index !== undefined && index < limit ? index : -1;
}

const lanes = new Uint32Array(2);

/**
 * A named node (not minted) with its text's hash, hashed now, not said to be a shared entity's: for terms made once
 * and written in many statements (the vocabulary's predicates and classes, `xsd:string`): a {@link VocabularyTerm}.
 */
export function hashedNamedNode(value: string): HashedNamedNodeTerm {
  hashText(value, lanes, 0);
  return new VocabularyTerm(value, lanes[0]!, lanes[1]!);
}

/**
 * An IRI the mapper minted ({@link NamedNodeTerm.minted}); `sharedEntity` false: a record's own node; `ascii`: it
 * knows the IRI is ASCII ({@link NamedNodeTerm.ascii}).
 */
export function mintedNamedNode(value: string, sharedEntity?: false, ascii = false): RDF.NamedNode {
  return new NamedNodeTerm(value, true, sharedEntity, ascii);
}

/**
 * Whether a term is an IRI the mapper knows to be ASCII ({@link NamedNodeTerm.ascii}): its UTF-8 bytes are its
 * characters, and a writer of binary strings (`binaryText`) takes it as it is, not testing it.
 */
export function isAsciiIri(term: RDF.Term): boolean {
  return (term as Partial<NamedNodeTerm>).ascii === true;
}

/** Whether a term is an IRI the mapper minted: its characters need no check before it is written. */
export function isMintedIri(term: RDF.Term): boolean {
  return (term as Partial<NamedNodeTerm>).minted === true;
}

/** A blank node. */
export class BlankNodeTerm extends ValueTerm implements RDF.BlankNode {
  override get termType(): 'BlankNode' {
    return 'BlankNode';
  }
}

/** A literal: its lexical form, language tag (lower case, or ''), base direction ('' for none) and datatype. */
export class LiteralTerm implements RDF.Literal {
  get termType(): 'Literal' {
    return 'Literal';
  }

  constructor(
    readonly value: string,
    readonly language: string,
    readonly datatype: RDF.NamedNode,
    readonly direction: 'ltr' | 'rtl' | '' = '',
  ) {}

  equals(other: RDF.Term | null | undefined): boolean {
    if (!other || other.termType !== 'Literal') return false;
    const o = other as RDF.Literal;
    return (
      o.value === this.value &&
      o.language === this.language &&
      (o.direction || '') === this.direction &&
      !!o.datatype &&
      o.datatype.value === this.datatype.value
    );
  }
}

/** A variable (for completeness of the factory; the toolkit writes none). */
export class VariableTerm extends ValueTerm implements RDF.Variable {
  override get termType(): 'Variable' {
    return 'Variable';
  }
}

/** The default graph. */
export class DefaultGraphTerm implements RDF.DefaultGraph {
  readonly termType = 'DefaultGraph' as const;
  readonly value = '' as const;

  equals(other: RDF.Term | null | undefined): boolean {
    return !!other && other.termType === 'DefaultGraph';
  }
}

/** A quad. */
export class QuadTerm implements RDF.BaseQuad {
  get termType(): 'Quad' {
    return 'Quad';
  }

  get value(): '' {
    return '';
  }

  constructor(
    readonly subject: RDF.Quad_Subject,
    readonly predicate: RDF.Quad_Predicate,
    readonly object: RDF.Quad_Object,
    readonly graph: RDF.Quad_Graph,
  ) {}

  equals(other: RDF.BaseQuad | null | undefined): boolean {
    return (
      !!other &&
      other.termType === 'Quad' &&
      this.subject.equals(other.subject) &&
      this.predicate.equals(other.predicate) &&
      this.object.equals(other.object) &&
      this.graph.equals(other.graph)
    );
  }
}

const DEFAULT_GRAPH = new DefaultGraphTerm();
const XSD_STRING_NODE = hashedNamedNode(XSD_STRING);
const LANG_STRING_NODE = new NamedNodeTerm(RDF_LANG_STRING);
const DIR_LANG_STRING_NODE = new NamedNodeTerm(RDF_DIR_LANG_STRING);
let blankNodeCounter = 0;

/**
 * Terms and quads as {@link n3's DataFactory} makes them (language tags in
 * lower case; a literal without a datatype or language is an `xsd:string`),
 * stored as plain fields. A literal's value is always a string: nothing is
 * typed from a JavaScript number or boolean.
 */
export const dataFactory: RDF.DataFactory<RDF.Quad, RDF.Quad> = {
  namedNode: <Iri extends string = string>(value: Iri) => new NamedNodeTerm<Iri>(value),
  blankNode: (value?: string) => new BlankNodeTerm(value || `b${blankNodeCounter++}`),
  literal: (value: string, languageOrDatatype?: string | RDF.NamedNode | RDF.DirectionalLanguage) => {
    if (typeof languageOrDatatype === 'string')
      return new LiteralTerm(value, languageOrDatatype.toLowerCase(), LANG_STRING_NODE);
    if (languageOrDatatype === undefined) return new LiteralTerm(value, '', XSD_STRING_NODE);
    if ('termType' in languageOrDatatype) {
      const datatype =
        languageOrDatatype.value === XSD_STRING || languageOrDatatype.value === ''
          ? XSD_STRING_NODE
          : languageOrDatatype;
      return new LiteralTerm(value, '', datatype);
    }
    const direction = (languageOrDatatype.direction ?? '').toLowerCase() as 'ltr' | 'rtl' | '';
    return new LiteralTerm(
      value,
      languageOrDatatype.language.toLowerCase(),
      direction ? DIR_LANG_STRING_NODE : LANG_STRING_NODE,
      direction,
    );
  },
  variable: (value: string) => new VariableTerm(value),
  defaultGraph: () => DEFAULT_GRAPH,
  quad: (subject, predicate, object, graph) =>
    new QuadTerm(subject, predicate, object, graph ?? DEFAULT_GRAPH) as RDF.Quad,
  fromTerm: ((term: RDF.Term) => copyTerm(term)) as RDF.DataFactory['fromTerm'],
  fromQuad: (quad: RDF.Quad) => copyTerm(quad) as RDF.Quad,
};

/** A term of any RDF/JS factory as this factory's (a quad with its terms). */
function copyTerm(term: RDF.Term): RDF.Term {
  switch (term.termType) {
    case 'NamedNode':
      return new NamedNodeTerm(term.value);
    case 'BlankNode':
      return new BlankNodeTerm(term.value);
    case 'Literal': {
      const direction = (term.direction || '') as 'ltr' | 'rtl' | '';
      return term.language
        ? dataFactory.literal(term.value, { language: term.language, direction })
        : dataFactory.literal(term.value, new NamedNodeTerm(term.datatype.value));
    }
    case 'Variable':
      return new VariableTerm(term.value);
    case 'DefaultGraph':
      return DEFAULT_GRAPH;
    case 'Quad':
      return new QuadTerm(
        copyTerm(term.subject) as RDF.Quad_Subject,
        copyTerm(term.predicate) as RDF.Quad_Predicate,
        copyTerm(term.object) as RDF.Quad_Object,
        copyTerm(term.graph) as RDF.Quad_Graph,
      ) as RDF.Quad;
  }
}
