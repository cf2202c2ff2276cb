import type * as RDF from '@rdfjs/types';
import { literalKey, termKey as sharedTermKey } from '../../rdf/termKey.js';
import { RDF_DIR_LANG_STRING, RDF_LANG_STRING, XSD_STRING } from '../../rdf/namespaces.js';

/** A term with its lookup key computed once (`N<iri>`, `B<label>`, `"value"@lang^^datatype`). */
export interface KeyedTerm {
  readonly key: string;
}

/** The key of any RDF/JS term (the same for equal terms, whatever made them): the precomputed one of an interned term, else computed. */
export function termKey(term: RDF.Term): string {
  const k = (term as Partial<KeyedTerm>).key;
  if (typeof k === 'string') return k;
  return sharedTermKey(term);
}

function equalTerms(a: RDF.Term, b: RDF.Term | null | undefined): boolean {
  if (a === b) return true;
  if (!b || a.termType !== b.termType || a.value !== b.value) return false;
  if (a.termType !== 'Literal') return true;
  const al = a as RDF.Literal;
  const bl = b as RDF.Literal;
  return (
    al.language === bl.language &&
    al.datatype.value === bl.datatype.value &&
    (al.direction || '') === (bl.direction || '')
  );
}

/** Whether an interned literal has that language tag, datatype IRI and direction. */
function sameLiteral(l: RDF.Literal, language: string, datatype: string, direction: string): boolean {
  return l.language === language && l.datatype.value === datatype && (l.direction || '') === direction;
}

/** The literal of those literals of one form (one, as a rule: compared without a list made for it) with that language tag, datatype IRI and direction. */
function oneOf(
  same: RDF.Literal | RDF.Literal[],
  language: string,
  datatype: string,
  direction: string,
): RDF.Literal | undefined {
  if (!Array.isArray(same)) return sameLiteral(same, language, datatype, direction) ? same : undefined;
  for (const l of same) if (sameLiteral(l, language, datatype, direction)) return l;
  return undefined;
}

/**
 * What the scope check (`recordScope`) remembers on an interned term once it asked, for the other records of its
 * batch (a shared node, its predicates and objects come back record after record; the shapes' terms for ever): the
 * two hashes of its value, and for a named node the record its IRI names (`recordKeyOfIri`; `null`: none).
 */
export interface ScopeMemo {
  valueHash: readonly [number, number] | undefined;
}
export interface RecordKeyed extends ScopeMemo {
  recordKey: string | null | undefined;
}

/** Whether a term is an interned named node (which remembers its record: {@link RecordKeyed}). */
export function isRecordKeyed(term: RDF.Term): term is RDF.NamedNode & RecordKeyed {
  return term instanceof InternedNamedNode;
}

/** Whether a term is interned (it has a {@link ScopeMemo}). */
export function hasScopeMemo(term: RDF.Term): term is RDF.Term & ScopeMemo {
  return term instanceof InternedNamedNode || term instanceof InternedLiteral || term instanceof InternedBlankNode;
}

/** An RDF/JS named node whose fields are plain properties (n3's terms compute theirs from a string on every read). */
class InternedNamedNode implements RDF.NamedNode, KeyedTerm, RecordKeyed {
  readonly termType = 'NamedNode' as const;
  private keyText: string | undefined;
  recordKey: string | null | undefined = undefined;
  valueHash: readonly [number, number] | undefined = undefined;
  constructor(readonly value: string) {}
  /** Built when first asked for: most of a record's nodes are never looked up by key. */
  get key(): string {
    return (this.keyText ??= `N${this.value}`);
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedBlankNode implements RDF.BlankNode, KeyedTerm, ScopeMemo {
  readonly termType = 'BlankNode' as const;
  private keyText: string | undefined;
  valueHash: readonly [number, number] | undefined = undefined;
  constructor(readonly value: string) {}
  /** Built when first asked for: most of a record's nodes are never looked up by key. */
  get key(): string {
    return (this.keyText ??= `B${this.value}`);
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedLiteral implements RDF.Literal, KeyedTerm, ScopeMemo {
  readonly termType = 'Literal' as const;
  private keyText: string | undefined;
  valueHash: readonly [number, number] | undefined = undefined;
  constructor(
    readonly value: string,
    readonly language: string,
    readonly datatype: RDF.NamedNode,
    readonly direction: '' | 'ltr' | 'rtl' | null | undefined,
  ) {}
  /** Built when first asked for: most literals (long abstracts among them) are never looked up by key. */
  get key(): string {
    return (this.keyText ??= literalKey(this.value, this.language, this.direction, this.datatype.value));
  }
  equals(other: RDF.Term | null | undefined): boolean {
    return equalTerms(this, other);
  }
}

class InternedQuad implements RDF.Quad {
  // Getters, the same for every quad: two fields fewer in each of the million quads of 10,000 records.
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
  equals(other: RDF.Term | null | undefined): boolean {
    if (!other || other.termType !== 'Quad') return false;
    return (
      this.subject.equals(other.subject) &&
      this.predicate.equals(other.predicate) &&
      this.object.equals(other.object) &&
      this.graph.equals(other.graph)
    );
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
 * datatype node) on each read. Copies are found by IRI, blank node label or
 * lexical form (no key string is built to find them), and compared by their
 * fields; a literal's key ({@link termKey}) is built only when something asks
 * for it. An interner made with a `parent` looks
 * terms up there first (the shapes' terms), so a record's predicates and
 * classes are the very objects of the shapes. Holds every term it has seen:
 * make one per record.
 */
export class TermInterner {
  /** Named nodes by IRI, blank nodes by label, literals by lexical form (those of one form in a list). */
  private readonly iris = new Map<string, RDF.NamedNode>();
  private readonly blanks = new Map<string, RDF.BlankNode>();
  private readonly literals = new Map<string, RDF.Literal | RDF.Literal[]>();
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
    if (
      typeof id !== 'string' ||
      term instanceof InternedNamedNode ||
      term instanceof InternedBlankNode ||
      term instanceof InternedLiteral
    )
      return this.copy(term);
    const found = this.lookupId(id);
    if (found) return found as T;
    const made = this.copy(term);
    this.byId.set(id, made);
    return made;
  }

  /** The interned term equal to `term`, found or made. */
  private copy<T extends RDF.Term>(term: T): T {
    if (term.termType === 'NamedNode') return this.namedNode(term.value) as unknown as T;
    if (term.termType === 'BlankNode') return this.blankNode(term.value) as unknown as T;
    if (term.termType === 'Literal') {
      const lit = term as RDF.Literal;
      const datatype = lit.datatype?.value || (lit.language ? RDF_LANG_STRING : XSD_STRING);
      return this.literal(lit.value, lit.language ?? '', datatype, lit.direction || '') as unknown as T;
    }
    return term;
  }

  /** The quad with interned terms (in the default graph when `dropGraph`). */
  quad(q: RDF.Quad, dropGraph = false): RDF.Quad {
    const g = q.graph;
    const graph = dropGraph || g.termType === 'DefaultGraph' ? DEFAULT_GRAPH : this.term(g);
    return new InternedQuad(this.term(q.subject), this.term(q.predicate), this.term(q.object), graph);
  }

  private namedNode(value: string): RDF.NamedNode {
    const own = this.iris.get(value);
    if (own) return own;
    // The shapes' IRIs (predicates, classes) are remembered here: the next lookup of the record is one.
    const made = this.parent?.findIri(value) ?? new InternedNamedNode(value);
    this.iris.set(value, made);
    return made;
  }

  private findIri(value: string): RDF.NamedNode | undefined {
    return this.iris.get(value) ?? this.parent?.findIri(value);
  }

  private blankNode(label: string): RDF.BlankNode {
    const own = this.blanks.get(label) ?? this.parent?.findBlank(label);
    if (own) return own;
    const made = new InternedBlankNode(label);
    this.blanks.set(label, made);
    return made;
  }

  private findBlank(label: string): RDF.BlankNode | undefined {
    return this.blanks.get(label) ?? this.parent?.findBlank(label);
  }

  private literal(value: string, language: string, datatype: string, direction: '' | 'ltr' | 'rtl'): RDF.Literal {
    // findLiteral's steps, with the literals of that form looked up once (not again to add one).
    const same = this.literals.get(value);
    const found =
      (same === undefined ? undefined : oneOf(same, language, datatype, direction)) ??
      this.parent?.findLiteral(value, language, datatype, direction);
    if (found) return found;
    const made = new InternedLiteral(value, language, this.namedNode(datatype), direction);
    if (same === undefined) this.literals.set(value, made);
    else if (Array.isArray(same)) same.push(made);
    else this.literals.set(value, [same, made]);
    return made;
  }

  private findLiteral(value: string, language: string, datatype: string, direction: string): RDF.Literal | undefined {
    const same = this.literals.get(value);
    return (
      (same === undefined ? undefined : oneOf(same, language, datatype, direction)) ??
      this.parent?.findLiteral(value, language, datatype, direction)
    );
  }

  private lookupId(id: string): RDF.Term | undefined {
    return this.byId.get(id) ?? this.parent?.lookupId(id);
  }

  /**
   * An RDF/JS data factory whose terms are this interner's: a parser given it
   * (n3's `factory` option) makes interned terms directly, with no terms of
   * its own to copy afterwards. Its quads are {@link quad}'s.
   */
  factory(): RDF.DataFactory {
    return {
      namedNode: (value: string) => this.namedNode(value),
      // A label no N-Triples, N-Quads or Turtle label can be (no ':' in them): a fresh node.
      blankNode: (value?: string) => this.blankNode(value ?? `anon:${++this.blankCount}`),
      literal: (
        value: string,
        languageOrDatatype?: string | RDF.NamedNode | { language: string; direction?: string },
      ): RDF.Literal => {
        // Language tags in lower case, as n3's own factory makes them (they are case-insensitive).
        if (typeof languageOrDatatype === 'string')
          return this.literal(value, languageOrDatatype.toLowerCase(), RDF_LANG_STRING, '');
        if (!languageOrDatatype) return this.literal(value, '', XSD_STRING, '');
        if ('termType' in languageOrDatatype) return this.literal(value, '', languageOrDatatype.value, '');
        // RDF 1.2 directional language strings.
        const direction = (languageOrDatatype.direction || '').toLowerCase() as '' | 'ltr' | 'rtl';
        return this.literal(
          value,
          languageOrDatatype.language.toLowerCase(),
          direction ? RDF_DIR_LANG_STRING : RDF_LANG_STRING,
          direction,
        );
      },
      variable: (value: string): RDF.Variable => ({
        termType: 'Variable',
        value,
        equals: (o) => !!o && o.termType === 'Variable' && o.value === value,
      }),
      defaultGraph: () => DEFAULT_GRAPH,
      quad: (subject, predicate, object, graph) =>
        new InternedQuad(
          subject,
          predicate,
          object,
          !graph || graph.termType === 'DefaultGraph' ? DEFAULT_GRAPH : graph,
        ) as RDF.BaseQuad as RDF.Quad,
      fromTerm: <T extends RDF.Term>(term: T) => this.term(term),
      fromQuad: (quad: RDF.Quad) => this.quad(quad),
    } as RDF.DataFactory;
  }
}
