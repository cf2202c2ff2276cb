import type * as RDF from '@rdfjs/types';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

/** A term with its lookup key computed once (`N<iri>`, `B<label>`, `"value"@lang^^datatype`). */
export interface KeyedTerm {
  readonly key: string;
}

/** The key of any RDF/JS term (the same for equal terms, whatever made them): the precomputed one of an interned term, else computed. */
export function termKey(term: RDF.Term): string {
  const k = (term as Partial<KeyedTerm>).key;
  if (typeof k === 'string') return k;
  if (term.termType === 'Literal') return `"${term.value}"@${term.language}^^${term.datatype.value}`;
  return `${term.termType[0]}${term.value}`;
}

function equalTerms(a: RDF.Term, b: RDF.Term | null | undefined): boolean {
  if (a === b) return true;
  if (!b || a.termType !== b.termType) return false;
  const bk = (b as Partial<KeyedTerm>).key;
  if (typeof bk === 'string') return (a as unknown as KeyedTerm).key === bk;
  if (a.value !== b.value) return false;
  if (a.termType !== 'Literal') return true;
  const bl = b as RDF.Literal;
  return a.language === bl.language && a.datatype.value === bl.datatype.value;
}

/** An RDF/JS named node whose fields are plain properties (n3's terms compute theirs from a string on every read). */
class InternedNamedNode implements RDF.NamedNode, KeyedTerm {
  readonly termType = 'NamedNode' as const;
  readonly key: string;
  constructor(readonly value: string) {
    this.key = `N${value}`;
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedBlankNode implements RDF.BlankNode, KeyedTerm {
  readonly termType = 'BlankNode' as const;
  readonly key: string;
  constructor(readonly value: string) {
    this.key = `B${value}`;
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedLiteral implements RDF.Literal, KeyedTerm {
  readonly termType = 'Literal' as const;
  readonly key: string;
  constructor(
    readonly value: string,
    readonly language: string,
    readonly datatype: RDF.NamedNode,
    readonly direction: '' | 'ltr' | 'rtl' | null | undefined,
  ) {
    this.key = `"${value}"@${language}^^${datatype.value}`;
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedQuad implements RDF.Quad {
  readonly termType = 'Quad' as const;
  readonly value = '';
  constructor(
    readonly subject: RDF.Quad_Subject,
    readonly predicate: RDF.Quad_Predicate,
    readonly object: RDF.Quad_Object,
    readonly graph: RDF.Quad_Graph,
  ) {}
  equals(other: RDF.Term | null | undefined): boolean {
    if (!other || other.termType !== 'Quad') return false;
    return this.subject.equals(other.subject) && this.predicate.equals(other.predicate) && this.object.equals(other.object) && this.graph.equals(other.graph);
  }
}

const DEFAULT_GRAPH: RDF.DefaultGraph = {
  termType: 'DefaultGraph',
  value: '',
  equals: (other) => !!other && other.termType === 'DefaultGraph',
};

/**
 * Copies RDF/JS terms into plain-field terms, one object per distinct term:
 * shacl-engine reads `value`, `language` and `datatype` of the same terms
 * millions of times, and n3's literals re-parse a string (and build a new
 * datatype node) on each read. A copy carries its key, so lookups and
 * equality need no string building. An interner made with a `parent` looks
 * terms up there first (the shapes' terms), so a record's predicates and
 * classes are the very objects of the shapes. Holds every term it has seen:
 * make one per record.
 */
export class TermInterner {
  /** By key ({@link termKey}). */
  private readonly terms = new Map<string, RDF.Term>();
  /** By the `id` of n3's terms (the very string of the term: its hash is computed once). */
  private readonly byId = new Map<string, RDF.Term>();

  /** Blank nodes made by {@link factory} without a label. */
  private blankCount = 0;

  constructor(private readonly parent?: TermInterner) {}

  /** The interned copy of a term (the same object for equal terms, whatever made them). */
  term<T extends RDF.Term>(term: T): T {
    if (term.termType === 'DefaultGraph') return DEFAULT_GRAPH as unknown as T;
    if (term.termType === 'Quad') return this.quad(term as unknown as RDF.Quad) as unknown as T;
    // n3's terms carry a unique string id: a lookup without reading their (computed) fields.
    const id = (term as { id?: unknown }).id;
    if (typeof id !== 'string' || (term as Partial<KeyedTerm>).key !== undefined) return this.byKey(term);
    const found = this.lookupId(id);
    if (found) return found as T;
    const made = this.byKey(term);
    this.byId.set(id, made);
    return made;
  }

  /** The copy of a term found or made by its key ({@link termKey}). */
  private byKey<T extends RDF.Term>(term: T): T {
    const key = termKey(term);
    const found = this.lookup(key);
    if (found) return found as T;
    let made: RDF.Term;
    if (term.termType === 'NamedNode') made = new InternedNamedNode(term.value);
    else if (term.termType === 'BlankNode') made = new InternedBlankNode(term.value);
    else if (term.termType === 'Literal') {
      const lit = term as RDF.Literal;
      const dt = lit.datatype?.value || (lit.language ? RDF_LANG_STRING : XSD_STRING);
      made = new InternedLiteral(lit.value, lit.language, this.term(lit.datatype ?? new InternedNamedNode(dt)), lit.direction);
    } else return term;
    this.terms.set(key, made);
    return made as T;
  }

  /** The quad with interned terms (in the default graph when `dropGraph`). */
  quad(q: RDF.Quad, dropGraph = false): RDF.Quad {
    const g = q.graph;
    const graph = dropGraph || g.termType === 'DefaultGraph' ? DEFAULT_GRAPH : this.term(g);
    return new InternedQuad(this.term(q.subject), this.term(q.predicate), this.term(q.object), graph);
  }

  /**
   * An RDF/JS data factory whose terms are this interner's: a parser given it
   * (n3's `factory` option) makes interned terms directly, with no terms of
   * its own to copy afterwards. Its quads are {@link quad}'s.
   */
  factory(): RDF.DataFactory {
    const named = (value: string): RDF.NamedNode =>
      (this.lookup(`N${value}`) as RDF.NamedNode | undefined) ?? this.keep(new InternedNamedNode(value));
    return {
      namedNode: named,
      blankNode: (value?: string): RDF.BlankNode => {
        // A label no N-Triples, N-Quads or Turtle label can be (no ':' in them): a fresh node.
        const label = value ?? `anon:${++this.blankCount}`;
        return (this.lookup(`B${label}`) as RDF.BlankNode | undefined) ?? this.keep(new InternedBlankNode(label));
      },
      literal: (value: string, languageOrDatatype?: string | RDF.NamedNode | { language: string; direction?: string }): RDF.Literal => {
        let language = '';
        let datatype: string;
        let direction: '' | 'ltr' | 'rtl' | undefined;
        // Language tags in lower case, as n3's own factory makes them (they are case-insensitive).
        if (typeof languageOrDatatype === 'string') {
          language = languageOrDatatype.toLowerCase();
          datatype = RDF_LANG_STRING;
        } else if (languageOrDatatype && 'termType' in languageOrDatatype) {
          datatype = languageOrDatatype.value;
        } else if (languageOrDatatype) {
          // RDF 1.2 directional language strings: not interned (rare), made as the key says.
          language = languageOrDatatype.language.toLowerCase();
          direction = (languageOrDatatype.direction || '').toLowerCase() as '' | 'ltr' | 'rtl';
          datatype = direction ? 'http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString' : RDF_LANG_STRING;
          if (direction) return new InternedLiteral(value, language, named(datatype), direction);
        } else {
          datatype = XSD_STRING;
        }
        const key = `"${value}"@${language}^^${datatype}`;
        return (this.lookup(key) as RDF.Literal | undefined) ?? this.keep(new InternedLiteral(value, language, named(datatype), direction));
      },
      variable: (value: string): RDF.Variable => ({ termType: 'Variable', value, equals: (o) => !!o && o.termType === 'Variable' && o.value === value }),
      defaultGraph: () => DEFAULT_GRAPH,
      quad: (subject, predicate, object, graph) =>
        new InternedQuad(subject, predicate, object, !graph || graph.termType === 'DefaultGraph' ? DEFAULT_GRAPH : graph) as RDF.BaseQuad as RDF.Quad,
      fromTerm: <T extends RDF.Term>(term: T) => this.term(term),
      fromQuad: (quad: RDF.Quad) => this.quad(quad),
    } as RDF.DataFactory;
  }

  private keep<T extends RDF.Term & KeyedTerm>(term: T): T {
    this.terms.set(term.key, term);
    return term;
  }

  private lookup(key: string): RDF.Term | undefined {
    return this.terms.get(key) ?? this.parent?.lookup(key);
  }

  private lookupId(id: string): RDF.Term | undefined {
    return this.byId.get(id) ?? this.parent?.lookupId(id);
  }
}
