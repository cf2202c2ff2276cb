import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { termKey as key } from '../../rdf/termKey.js';
import { NS, RDFS_SUBCLASS_OF, RDF_TYPE as RDF_TYPE_IRI } from '../../rdf/namespaces.js';
import type { QuadLookup } from './QuadIndex.js';

const SH = NS.sh;
const RDF_TYPE = DataFactory.namedNode(RDF_TYPE_IRI);
const RDFS_CLASS = DataFactory.namedNode(`${NS.rdfs}Class`);
const SUBCLASS_OF = DataFactory.namedNode(RDFS_SUBCLASS_OF);
const TARGET_CLASS = DataFactory.namedNode(`${SH}targetClass`);

/** The class `c` and every class whose `rdfs:subClassOf*` reaches it, in `graph`. */
export function subclassesOf(graph: QuadLookup, c: RDF.Term): RDF.Term[] {
  const seen = new Map<string, RDF.Term>([[key(c), c]]);
  const todo = [c];
  while (todo.length) {
    const next = todo.pop()!;
    for (const sub of graph.getSubjects(SUBCLASS_OF, next, null)) {
      if (seen.has(key(sub))) continue;
      seen.set(key(sub), sub);
      todo.push(sub);
    }
  }
  return [...seen.values()];
}

/**
 * The shapes that are SHACL instances of `rdfs:Class` in `graph`: their
 * `rdf:type` is `rdfs:Class` or one of its subclasses (`owl:Class`, with
 * `owl:Class rdfs:subClassOf rdfs:Class`). Each is an implicit class target
 * of itself (SHACL 2.1.3.3). `isShape` tells the shapes among those nodes.
 */
export function implicitClassShapes(graph: QuadLookup, isShape: (term: RDF.Term) => boolean): RDF.Term[] {
  const out = new Map<string, RDF.Term>();
  for (const metaclass of subclassesOf(graph, RDFS_CLASS)) {
    for (const s of graph.getSubjects(RDF_TYPE, metaclass, null)) if (isShape(s)) out.set(key(s), s);
  }
  return [...out.values()];
}

/**
 * The classes whose instances a shape targets: its `sh:targetClass` values,
 * itself when it is an implicit class target, each with its subclasses in
 * `graph` (the engine reads `rdf:type` of the data against this set).
 */
export function targetClassesOf(graph: QuadLookup, shape: RDF.Term, implicit: boolean): RDF.Term[] {
  const classes = [...graph.getObjects(shape, TARGET_CLASS, null), ...(implicit ? [shape] : [])];
  const out = new Map<string, RDF.Term>();
  for (const c of classes) for (const sub of subclassesOf(graph, c)) out.set(key(sub), sub);
  return [...out.values()];
}

/**
 * The shapes with targets (explicit, or implicit class targets), and which of them are implicit class targets (by
 * {@link shapeKey}). `isShape`: the graph's {@link shapeTest} (made here by default).
 */
export function targetedShapes(
  graph: QuadLookup,
  isShape: (term: RDF.Term) => boolean = shapeTest(graph),
): { terms: RDF.Term[]; implicit: Set<string> } {
  const targeted = new Map<string, RDF.Term>();
  for (const p of ['targetClass', 'targetNode', 'targetObjectsOf', 'targetSubjectsOf', 'target']) {
    for (const s of graph.getSubjects(DataFactory.namedNode(`${SH}${p}`), null, null)) targeted.set(key(s), s);
  }
  const implicit = implicitClassShapes(graph, isShape);
  for (const s of implicit) targeted.set(key(s), s);
  return { terms: [...targeted.values()], implicit: new Set(implicit.map(key)) };
}

/** Whether a node of the shapes graph is a shape: it has a SHACL property, or is typed sh:NodeShape or sh:PropertyShape. */
export function shapeTest(graph: QuadLookup): (term: RDF.Term) => boolean {
  const shapes = new Set<string>();
  for (const q of graph.getQuads(null, null, null, null)) {
    if (
      q.predicate.value.startsWith(SH) ||
      (q.predicate.equals(RDF_TYPE) && (q.object.value === `${SH}NodeShape` || q.object.value === `${SH}PropertyShape`))
    )
      shapes.add(key(q.subject));
  }
  return (term) => shapes.has(key(term));
}

/** The key ({@link key}) of {@link targetedShapes}' `implicit`. */
export function shapeKey(t: RDF.Term): string {
  return key(t);
}
