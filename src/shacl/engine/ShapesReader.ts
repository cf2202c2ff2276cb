import type * as RDF from '@rdfjs/types';
import { RDF_FIRST, RDF_NIL, RDF_REST, SH } from './vocabulary.js';

/**
 * The shapes graph as the compiler reads it: its triples with interned terms, by subject in the graph's order,
 * and the few questions asked of it (objects, lists, subjects).
 */
export class ShapesReader {
  private readonly bySubject = new Map<RDF.Term, RDF.Quad[]>();
  private readonly byObject = new Map<RDF.Term, RDF.Quad[]>();

  constructor(readonly quads: readonly RDF.Quad[]) {
    for (const q of quads) {
      push(this.bySubject, q.subject, q);
      push(this.byObject, q.object, q);
    }
  }

  /** The triples of `subject`, in the graph's order. */
  triplesOf(subject: RDF.Term): readonly RDF.Quad[] {
    return this.bySubject.get(subject) ?? [];
  }

  /** The objects of `subject`'s triples of the predicate IRI `p`. */
  objects(subject: RDF.Term, p: string): RDF.Term[] {
    return this.triplesOf(subject)
      .filter((q) => q.predicate.value === p)
      .map((q) => q.object);
  }

  /** The first object of `subject`'s triples of `p`. */
  one(subject: RDF.Term, p: string): RDF.Term | undefined {
    return this.triplesOf(subject).find((q) => q.predicate.value === p)?.object;
  }

  /** The subjects of the triples of `p` with object `object` (any object when null). */
  subjects(p: string, object: RDF.Term | null): RDF.Term[] {
    const quads = object ? (this.byObject.get(object) ?? []) : this.quads;
    return quads.filter((q) => q.predicate.value === p).map((q) => q.subject);
  }

  /** The members of the RDF list at `node`, or undefined when it is not a well-formed list. */
  list(node: RDF.Term): RDF.Term[] | undefined {
    const items: RDF.Term[] = [];
    const seen = new Set<RDF.Term>();
    let cell = node;
    while (cell.value !== RDF_NIL || cell.termType !== 'NamedNode') {
      if (seen.has(cell)) return undefined;
      seen.add(cell);
      const first = this.objects(cell, RDF_FIRST);
      const rest = this.objects(cell, RDF_REST);
      if (first.length !== 1 || rest.length !== 1) return undefined;
      items.push(first[0]!);
      cell = rest[0]!;
    }
    return items;
  }

  /** A shape for a person: `<iri>`, or `a shape (blank node) with sh:path <p> in <owner>`. */
  describeShape(shape: RDF.Term): string {
    if (shape.termType !== 'BlankNode') return this.label(shape);
    const path = this.one(shape, `${SH}path`);
    const owner = this.subjects(`${SH}property`, shape)[0];
    const where = [
      path?.termType === 'NamedNode' ? `with sh:path <${path.value}>` : '',
      owner?.termType === 'NamedNode' ? `in <${owner.value}>` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return `a shape (blank node)${where ? ` ${where}` : ''}`;
  }

  /** A shape or node of the shapes graph for a person: `<iri>` or `_:label`. */
  label(node: RDF.Term): string {
    return node.termType === 'NamedNode'
      ? `<${node.value}>`
      : node.termType === 'BlankNode'
        ? `_:${node.value}`
        : JSON.stringify(node.value);
  }
}

function push(map: Map<RDF.Term, RDF.Quad[]>, key: RDF.Term, q: RDF.Quad): void {
  const list = map.get(key);
  if (list) list.push(q);
  else map.set(key, [q]);
}
