import type * as RDF from '@rdfjs/types';
import { dataFactory, hashedNamedNode, mintedNamedNode } from '../rdf/dataFactory.js';
import { NS } from '../rdf/namespaces.js';
import type { EntityIris } from './entityIris.js';
import type { RecordIdentities } from './recordIdentities.js';

/**
 * The triples of one record as they are made, and the terms to make them
 * with: predicates and classes of the vocabularies, literals (the record's
 * language tag on its text), the notes of what was changed or skipped.
 */
export class RecordTriples {
  readonly quads: RDF.Quad[] = [];
  /** The identities the record gives to shared entities, with its names for them (see `RecordIdentities`). */
  readonly identities: RecordIdentities = { orcids: [] };
  readonly rdfType: RDF.NamedNode;
  private readonly schemaNs: string;
  private readonly terms: Map<string, RDF.NamedNode>;
  private readonly namespaces: Map<string, Map<string, RDF.NamedNode>>;
  private readonly schemaTerms: Map<string, RDF.NamedNode>;
  private readonly biboTerms: Map<string, RDF.NamedNode>;
  private readonly dctermsTerms: Map<string, RDF.NamedNode>;
  private readonly skosTerms: Map<string, RDF.NamedNode>;
  private readonly srTerms: Map<string, RDF.NamedNode>;
  /** {@link integer}'s literals of this factory, once one is asked for. */
  private integers: RDF.Literal[] | undefined;
  /** Whether {@link iri} makes minted nodes. */
  private readonly minted: boolean;
  /** Whether the factory is the toolkit's own (`dataFactory`). */
  private readonly own: boolean;

  /**
   * @param f RDF/JS data factory of the quads.
   * @param schemaNs The schema.org namespace (`http://schema.org/` or `https://schema.org/`).
   * @param lang Language tag of the record's text (title, abstract), or undefined.
   * @param notes Where notes go (the record's own, from the normaliser, first).
   * @param baseChecked The base of the minted IRIs holds only characters every format carries: with the
   *   toolkit's own factory, {@link iri} marks its nodes as minted. Defaults to false.
   */
  constructor(
    readonly f: RDF.DataFactory,
    schemaNs: string,
    private readonly lang: string | undefined,
    readonly notes: string[],
    baseChecked = false,
  ) {
    this.own = f === dataFactory;
    this.minted = baseChecked && this.own;
    this.schemaNs = schemaNs;
    this.terms = termCache(f);
    this.namespaces = namespaceCache(f);
    this.schemaTerms = this.termsOf(schemaNs);
    this.biboTerms = this.termsOf(NS.bibo);
    this.dctermsTerms = this.termsOf(NS.dcterms);
    this.skosTerms = this.termsOf(NS.skos);
    this.srTerms = this.termsOf(NS.sr);
    this.rdfType = this.term(`${NS.rdf}type`);
  }

  /** A named node, shared by every record mapped with the same factory (vocabulary terms repeat in every record). */
  term(iri: string): RDF.NamedNode {
    let node = this.terms.get(iri);
    if (!node) {
      // the toolkit's own: with its text's hash (the count of statements about shared entities reads it once)
      node = this.own ? hashedNamedNode(iri) : this.f.namedNode(iri);
      if (this.terms.size < TERM_CACHE_LIMIT) this.terms.set(iri, node);
    }
    return node;
  }

  /**
   * The node of an IRI made by `EntityIris` or `toIri` (`iri.ts`: only characters every format carries), marked
   * as minted when it is the toolkit's own term and the base was checked: writers need not check it again.
   */
  iri(value: string): RDF.NamedNode {
    return this.minted ? mintedNamedNode(value) : this.f.namedNode(value);
  }

  /**
   * {@link iri} of a shared entity's IRI `iris` made lately: with its text's hash when it is the toolkit's own term
   * (`EntityIris.hashedNode`: the count of statements about shared entities does not read its text again).
   */
  sharedIri(value: string, iris: EntityIris): RDF.NamedNode {
    return (this.own && iris.hashedNode(value, this.minted)) || this.iri(value);
  }

  /**
   * {@link iri} of a node only this record knows (`EntityIris.owned`), marked as no shared entity when it is the
   * toolkit's own term: the count of statements about shared entities need not read its IRI (`isSharedSubject`);
   * `ascii`: the IRI is ASCII (`EntityIris.ownedAscii` and an ASCII local name), marked so: the N-Triples writer
   * need not test it. Defaults to false (not said).
   */
  ownIri(value: string, ascii = false): RDF.NamedNode {
    return this.minted ? mintedNamedNode(value, false, ascii) : this.f.namedNode(value);
  }

  schema(local: string): RDF.NamedNode {
    return this.schemaTerms.get(local) ?? this.inNamespace(this.schemaNs, local);
  }

  bibo(local: string): RDF.NamedNode {
    return this.biboTerms.get(local) ?? this.inNamespace(NS.bibo, local);
  }

  dcterms(local: string): RDF.NamedNode {
    return this.dctermsTerms.get(local) ?? this.inNamespace(NS.dcterms, local);
  }

  skos(local: string): RDF.NamedNode {
    return this.skosTerms.get(local) ?? this.inNamespace(NS.skos, local);
  }

  sr(local: string): RDF.NamedNode {
    return this.srTerms.get(local) ?? this.inNamespace(NS.sr, local);
  }

  /** A term of another namespace (`rdf:first`, `prism:coverDate`), looked up by namespace and local name. */
  inNamespace(ns: string, local: string): RDF.NamedNode {
    const terms = this.termsOf(ns);
    let node = terms.get(local);
    if (!node) {
      node = this.term(ns + local);
      if (terms.size < TERM_CACHE_LIMIT) terms.set(local, node);
    }
    return node;
  }

  /** A term of a namespace, looked up by its local name (a constant: no IRI is built to find it). */
  private termsOf(ns: string): Map<string, RDF.NamedNode> {
    let terms = this.namespaces.get(ns);
    if (!terms) this.namespaces.set(ns, (terms = new Map()));
    return terms;
  }

  add(s: RDF.Quad_Subject, p: RDF.NamedNode, o: RDF.Quad_Object): void {
    this.quads.push(this.f.quad(s, p, o));
  }

  /** `s a c`, or `s a c, also` (no list of classes made for a call: a record types a dozen nodes). */
  type(s: RDF.Quad_Subject, c: RDF.NamedNode, also?: RDF.NamedNode): void {
    this.add(s, this.rdfType, c);
    if (also) this.add(s, this.rdfType, also);
  }

  /** A plain string. */
  str(value: string): RDF.Literal {
    return this.f.literal(value);
  }

  /** Text in the record's language (tagged when the record's language is a tag). */
  text(value: string): RDF.Literal {
    return this.lang ? this.f.literal(value, this.lang) : this.f.literal(value);
  }

  /** A literal of an XSD datatype (`date`, `integer`, `boolean`, ...). */
  typed(value: string, xsdLocal: string): RDF.Literal {
    return this.f.literal(value, this.inNamespace(NS.xsd, xsdLocal));
  }

  /**
   * An `xsd:integer` of a small count (a position: 1, 2, ...), made once for every record mapped with the same
   * factory (terms are values: a literal is never changed).
   */
  integer(n: number): RDF.Literal {
    if (!(Number.isInteger(n) && n >= 0 && n < INTEGER_CACHE_LIMIT)) return this.typed(String(n), 'integer');
    const integers = (this.integers ??= integerCache(this.f));
    let literal = integers[n];
    if (literal === undefined) integers[n] = literal = this.typed(String(n), 'integer');
    return literal;
  }

  note(line: string): void {
    this.notes.push(line);
  }
}

/** Vocabulary terms are few; a cache never holds more than this many (record IRIs do not go in it). */
const TERM_CACHE_LIMIT = 512;
const caches = new WeakMap<RDF.DataFactory, Map<string, RDF.NamedNode>>();

/** Integers kept per factory ({@link RecordTriples.integer}): 0 to 1,023. */
const INTEGER_CACHE_LIMIT = 1024;
const integerCaches = new WeakMap<RDF.DataFactory, RDF.Literal[]>();

const namespaceCaches = new WeakMap<RDF.DataFactory, Map<string, Map<string, RDF.NamedNode>>>();

function namespaceCache(f: RDF.DataFactory): Map<string, Map<string, RDF.NamedNode>> {
  let cache = namespaceCaches.get(f);
  if (!cache) namespaceCaches.set(f, (cache = new Map()));
  return cache;
}

function integerCache(f: RDF.DataFactory): RDF.Literal[] {
  let cache = integerCaches.get(f);
  if (!cache) integerCaches.set(f, (cache = []));
  return cache;
}

function termCache(f: RDF.DataFactory): Map<string, RDF.NamedNode> {
  let cache = caches.get(f);
  if (!cache) caches.set(f, (cache = new Map()));
  return cache;
}
