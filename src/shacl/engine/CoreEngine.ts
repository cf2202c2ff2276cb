import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { TermInterner } from './TermInterner.js';
import { severityOf, type ValidationResult } from '../reports/ValidationResult.js';
import { validateShape, type Check, type CompiledShape, type RunContext } from './CompiledShape.js';
import { UnsupportedShapes, type CompileContext } from './compileContext.js';
import { COMPILERS } from './constraints.js';
import { compilePath, pathSteps, readPath } from './paths.js';
import { RecordIndex } from './RecordIndex.js';
import { DistinctTerms } from './DistinctTerms.js';
import { ShapesReader } from './ShapesReader.js';
import { RDF_TYPE, RDFS_CLASS, RDFS_SUBCLASS_OF, SH } from './vocabulary.js';

/** Options of {@link CoreEngine.compile}. */
export interface CoreEngineOptions {
  /** Triples of the data graph that say what is a class (`rdfs:subClassOf`), read with the shapes' own. Defaults to none. */
  dataClassTriples?: readonly RDF.Quad[];
}

/** A shape with targets: how its focus nodes are found in a record. */
interface TargetedShape {
  readonly shape: CompiledShape;
  /** The classes whose instances are targets, with their subclasses. */
  readonly classes: readonly RDF.Term[];
  /** The target classes themselves (`sh:targetClass`, an implicit class target). */
  readonly targetClasses: readonly RDF.Term[];
  readonly nodes: readonly RDF.Term[];
  readonly subjectsOf: readonly RDF.Term[];
  readonly objectsOf: readonly RDF.Term[];
  /** The class when its instances (of no subclass) are the only targets. */
  readonly onlyClass: RDF.Term | undefined;
}

const EMPTY: readonly RDF.Term[] = [];

/** The SHACL parameters that are no constraint of their own (read by the components they belong to). */
const PARAMETERS_OF_OTHERS = new Set([
  'flags',
  'ignoredProperties',
  'qualifiedMinCount',
  'qualifiedMaxCount',
  'qualifiedValueShapesDisjoint',
]);

/** The constraint components whose checks validate other shapes. */
const NESTING = new Set(['node', 'property', 'and', 'or', 'xone', 'not', 'qualifiedValueShape']);

/**
 * A SHACL Core validator compiled once for a shapes graph, written from the SHACL specification: every shape
 * compiled into closures over interned terms, every record's triples indexed once. It validates one record at a
 * time ({@link validateTriples}), building results only for failures. Shapes it cannot run (SHACL-SPARQL with no
 * native implementation, SPARQL targets) make {@link compile} throw {@link UnsupportedShapes}.
 */
export class CoreEngine {
  /** The interner of the shapes' terms: a record's terms must come from an interner made with it as parent. */
  readonly interner: TermInterner;
  private readonly targeted: TargetedShape[];
  /** Each class of the class triples with its superclasses (itself excluded). */
  private readonly superclasses: Map<RDF.Term, Set<RDF.Term>>;
  private readonly rdfType: RDF.NamedNode;
  private readonly subClassOf: RDF.NamedNode;
  /** The predicates of `sh:targetSubjectsOf` and `sh:targetObjectsOf`. */
  private readonly targetPredicates: Set<RDF.Term>;

  /**
   * What the engine's results cannot state exactly (a result path that is not a sequence of steps): empty when
   * its reports are exact. The results are right but for the paths named.
   */
  readonly inexact: readonly string[];

  private constructor(
    interner: TermInterner,
    targeted: TargetedShape[],
    superclasses: Map<RDF.Term, Set<RDF.Term>>,
    inexact: string[],
  ) {
    this.inexact = inexact;
    this.interner = interner;
    this.targeted = targeted;
    this.superclasses = superclasses;
    this.targetPredicates = new Set(targeted.flatMap((t) => [...t.subjectsOf, ...t.objectsOf]));
    this.rdfType = interner.term(DataFactory.namedNode(RDF_TYPE));
    this.subClassOf = interner.term(DataFactory.namedNode(RDFS_SUBCLASS_OF));
  }

  /** Compiles the shapes graph's quads (throws {@link UnsupportedShapes}, or an `Error` naming a malformed shape). */
  static compile(shapeQuads: readonly RDF.Quad[], options: CoreEngineOptions = {}): CoreEngine {
    const interner = new TermInterner();
    const named = (iri: string) => interner.term(DataFactory.namedNode(iri));
    named(RDF_TYPE);
    named(RDFS_SUBCLASS_OF);
    const quads = distinctTriples(shapeQuads, interner);
    const shapes = new ShapesReader(quads);
    const sparqlTarget = quads.find((q) => q.predicate.value === `${SH}target`);
    if (sparqlTarget)
      throw new UnsupportedShapes(`${shapes.label(sparqlTarget.subject)} has a SPARQL-based target (sh:target)`);
    const classQuads = [...quads, ...(options.dataClassTriples ?? []).map((q) => interner.quad(q, true))];
    const superclasses = superclassMap(classQuads);
    const compiled = new Map<RDF.Term, CompiledShape>();
    const inexact: string[] = [];
    const parents = new Map<RDF.Term, RDF.Term[]>();
    for (const q of quads) {
      if (q.predicate.value !== `${SH}property`) continue;
      const list = parents.get(q.object);
      if (list) list.push(q.subject);
      else parents.set(q.object, [q.subject]);
    }
    const shapeOf = (node: RDF.Term): CompiledShape => {
      let shape = compiled.get(node);
      if (shape) return shape;
      shape = makeShape(shapes, node, inexact);
      compiled.set(node, shape);
      const context: CompileContext = { shapes, shape, shapeOf, named, parentsOf: (s) => parents.get(s) ?? [] };
      const seen = new Set<string>();
      for (const q of shapes.triplesOf(node)) {
        const p = q.predicate.value;
        if (!p.startsWith(SH)) continue;
        const local = p.slice(SH.length);
        const compiler = COMPILERS[local];
        if (!compiler || PARAMETERS_OF_OTHERS.has(local)) continue;
        if (local === 'closed' || local === 'qualifiedValueShape') {
          if (seen.has(local)) continue;
          seen.add(local);
        }
        try {
          (shape.checks as Check[]).push(...compiler(context, q.object));
          if (NESTING.has(local)) shape.nests = true;
        } catch (err) {
          if (err instanceof UnsupportedShapes) throw err;
          throw new Error(`${shapes.describeShape(node)}: ${(err as Error).message}`, { cause: err });
        }
      }
      return shape;
    };
    const targeted: TargetedShape[] = [];
    for (const node of targetedShapes(shapes, superclasses)) {
      const shape = shapeOf(node);
      const classes: RDF.Term[] = [];
      const implicit = isImplicitClassTarget(shapes, node, superclasses);
      const targetClasses = [...shapes.objects(node, `${SH}targetClass`), ...(implicit ? [node] : [])];
      for (const c of targetClasses) {
        for (const sub of subclassesOf(c, superclasses)) if (!classes.includes(sub)) classes.push(sub);
      }
      const nodes = shapes.objects(node, `${SH}targetNode`);
      const subjectsOf = shapes.objects(node, `${SH}targetSubjectsOf`);
      const objectsOf = shapes.objects(node, `${SH}targetObjectsOf`);
      const alone = classes.length === 1 && nodes.length + subjectsOf.length + objectsOf.length === 0;
      targeted.push({
        shape,
        classes,
        targetClasses,
        nodes,
        subjectsOf,
        objectsOf,
        onlyClass: alone ? classes[0] : undefined,
      });
    }
    // Shapes met only through others are compiled too, so that a malformed one is found now.
    for (const q of quads) {
      if (['node', 'property', 'not', 'qualifiedValueShape'].some((l) => q.predicate.value === SH + l))
        shapeOf(q.object);
    }
    return new CoreEngine(interner, targeted, superclasses, inexact);
  }

  /** Validates one record given as any RDF/JS quads (graphs ignored, duplicates dropped): {@link validateTriples} of their distinct triples. */
  validateQuads(quads: Iterable<RDF.Quad>): ValidationResult[] {
    return this.validateTriples(distinctTriples(quads, new TermInterner(this.interner)));
  }

  /**
   * Validates one record: its distinct triples, with terms interned by an interner made with {@link interner}
   * as parent (`pairs`: their pairs by subject, as {@link distinctRecord} gives them with the triples).
   * Returns the results, in the order of the targeted shapes, their focus nodes and constraints.
   */
  validateTriples(triples: readonly RDF.Quad[], pairs?: Map<RDF.Term, RDF.Term[]>): ValidationResult[] {
    const out: ValidationResult[] = [];
    if (triples.length === 0) return out;
    const index = new RecordIndex(triples, pairs);
    const context: RunContext = {
      index,
      out,
      isInstance: (node, cls) => this.isInstance(index, node, cls),
      active: [],
    };
    let byClass: Map<RDF.Term, RDF.Term[]> | undefined;
    let byPredicate: Map<RDF.Term, RDF.Term[]> | undefined;
    for (const t of this.targeted) {
      if (t.onlyClass && !index.hasSubclassTriples) {
        // One class and no other target: its instances, each once (the record's triples are distinct), no set.
        byClass ??= bucket(index.typed);
        const instances = byClass.get(t.onlyClass);
        if (instances) for (const f of instances) validateShape(t.shape, f, context);
        continue;
      }
      const focus = new DistinctTerms();
      if (t.classes.length) {
        byClass ??= bucket(index.typed);
        for (const c of t.classes) for (const s of byClass.get(c) ?? EMPTY) focus.add(s);
        // Classes of the record's own rdfs:subClassOf triples.
        if (index.hasSubclassTriples) {
          for (let i = 0; i < index.typed.length; i += 2) {
            const s = index.typed[i]!;
            if (!focus.has(s) && t.targetClasses.some((c) => context.isInstance(s, c))) focus.add(s);
          }
        }
      }
      for (const n of t.nodes) focus.add(n);
      if (t.objectsOf.length || t.subjectsOf.length) {
        byPredicate ??= this.targetTriples(triples);
        for (const p of t.objectsOf) {
          const pairs = byPredicate.get(p);
          if (pairs) for (let i = 1; i < pairs.length; i += 2) focus.add(pairs[i]!);
        }
        for (const p of t.subjectsOf) {
          const pairs = byPredicate.get(p);
          if (pairs) for (let i = 0; i < pairs.length; i += 2) focus.add(pairs[i]!);
        }
      }
      for (const f of focus.items) validateShape(t.shape, f, context);
    }
    return out;
  }

  /** The triples of the predicates of `sh:targetSubjectsOf` and `sh:targetObjectsOf` as subject, object pairs, by predicate, in order (one pass over the record). */
  private targetTriples(triples: readonly RDF.Quad[]): Map<RDF.Term, RDF.Term[]> {
    const map = new Map<RDF.Term, RDF.Term[]>();
    const wanted = this.targetPredicates;
    for (const q of triples) {
      if (!wanted.has(q.predicate)) continue;
      const pairs = map.get(q.predicate);
      if (pairs) pairs.push(q.subject, q.object);
      else map.set(q.predicate, [q.subject, q.object]);
    }
    return map;
  }

  /** Whether `node` is a SHACL instance of `cls` in a record (with the class triples of the shapes). */
  private isInstance(index: RecordIndex, node: RDF.Term, cls: RDF.Term): boolean {
    // The node's pairs scanned for its types (no list of them made: most checks end at the first).
    const pairs = index.pairsOf(node);
    let typed = false;
    for (let i = 0; i < pairs.length; i += 2) {
      if (pairs[i] !== this.rdfType) continue;
      const t = pairs[i + 1]!;
      if (t === cls || this.superclasses.get(t)?.has(cls)) return true;
      typed = true;
    }
    if (!index.hasSubclassTriples || !typed) return false;
    const types = index.objects(node, this.rdfType);
    // The record says rdfs:subClassOf itself: walk up through its triples and the shapes'.
    const seen = new Set<RDF.Term>(types);
    const todo = [...types];
    while (todo.length) {
      const t = todo.pop()!;
      if (t === cls) return true;
      for (const s of [...index.objects(t, this.subClassOf), ...(this.superclasses.get(t) ?? [])]) {
        if (!seen.has(s)) {
          seen.add(s);
          todo.push(s);
        }
      }
    }
    return false;
  }
}

function makeShape(shapes: ShapesReader, node: RDF.Term, inexact: string[]): CompiledShape {
  const pathNode = shapes.one(node, `${SH}path`);
  const path = pathNode ? readPath(shapes, pathNode) : undefined;
  const resultPath = path ? pathSteps(path) : undefined;
  if (path && !resultPath)
    inexact.push(`the path of ${shapes.label(node)} cannot be written as the steps of a result path`);
  const severity = shapes.one(node, `${SH}severity`);
  return {
    term: node,
    path: path ? compilePath(path) : null,
    resultPath,
    severity: severity ? severityOf(severity.value) : 'Violation',
    messages: shapes.objects(node, `${SH}message`).map((m) => m.value),
    deactivated: shapes.one(node, `${SH}deactivated`)?.value === 'true',
    checks: [],
    nests: false,
    split: undefined,
  };
}

/** The subjects and classes of `rdf:type` pairs, by class. */
function bucket(typed: readonly RDF.Term[]): Map<RDF.Term, RDF.Term[]> {
  const map = new Map<RDF.Term, RDF.Term[]>();
  for (let i = 0; i < typed.length; i += 2) {
    const list = map.get(typed[i + 1]!);
    if (list) list.push(typed[i]!);
    else map.set(typed[i + 1]!, [typed[i]!]);
  }
  return map;
}

/** Each class with every class it is a subclass of (transitively, itself excluded), from `rdfs:subClassOf` triples. */
function superclassMap(quads: readonly RDF.Quad[]): Map<RDF.Term, Set<RDF.Term>> {
  const direct = new Map<RDF.Term, RDF.Term[]>();
  for (const q of quads) {
    if (q.predicate.value !== RDFS_SUBCLASS_OF) continue;
    const list = direct.get(q.subject);
    if (list) list.push(q.object);
    else direct.set(q.subject, [q.object]);
  }
  const out = new Map<RDF.Term, Set<RDF.Term>>();
  for (const c of direct.keys()) {
    const seen = new Set<RDF.Term>();
    const todo = [...direct.get(c)!];
    while (todo.length) {
      const s = todo.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      todo.push(...(direct.get(s) ?? []));
    }
    seen.delete(c);
    out.set(c, seen);
  }
  return out;
}

/** `c` and every class below it. */
function subclassesOf(c: RDF.Term, superclasses: Map<RDF.Term, Set<RDF.Term>>): RDF.Term[] {
  const out = [c];
  for (const [sub, supers] of superclasses) if (supers.has(c) && !out.includes(sub)) out.push(sub);
  return out;
}

/** Whether a shape is an implicit class target: a SHACL instance of `rdfs:Class` in the shapes graph (SHACL 2.1.3.3). */
function isImplicitClassTarget(
  shapes: ShapesReader,
  node: RDF.Term,
  superclasses: Map<RDF.Term, Set<RDF.Term>>,
): boolean {
  return shapes
    .objects(node, RDF_TYPE)
    .some((t) => t.value === RDFS_CLASS || [...(superclasses.get(t) ?? [])].some((s) => s.value === RDFS_CLASS));
}

/** The shapes with targets: those of `sh:targetClass`, then `sh:targetNode`, `sh:targetObjectsOf`, `sh:targetSubjectsOf`, then implicit class targets, each in the shapes graph's order. */
function targetedShapes(shapes: ShapesReader, superclasses: Map<RDF.Term, Set<RDF.Term>>): RDF.Term[] {
  const out = new Set<RDF.Term>();
  const targets = ['targetClass', 'targetNode', 'targetObjectsOf', 'targetSubjectsOf'].map((l) => SH + l);
  const isShape = (n: RDF.Term) =>
    shapes
      .triplesOf(n)
      .some(
        (q) =>
          q.predicate.value.startsWith(SH) ||
          (q.predicate.value === RDF_TYPE &&
            (q.object.value === `${SH}NodeShape` || q.object.value === `${SH}PropertyShape`)),
      );
  for (const t of targets) for (const q of shapes.quads) if (q.predicate.value === t) out.add(q.subject);
  for (const q of shapes.quads) {
    if (q.predicate.value === RDF_TYPE && isShape(q.subject) && isImplicitClassTarget(shapes, q.subject, superclasses))
      out.add(q.subject);
  }
  return [...out];
}

/** The distinct triples of some quads, with `interner`'s terms (graphs dropped). */
export function distinctTriples(quads: Iterable<RDF.Quad>, interner: TermInterner): RDF.Quad[] {
  const seen = new Map<RDF.Term, Map<RDF.Term, Set<RDF.Term>>>();
  const out: RDF.Quad[] = [];
  for (const quad of quads) {
    const q = interner.quad(quad, true);
    let byPredicate = seen.get(q.subject);
    if (!byPredicate) seen.set(q.subject, (byPredicate = new Map()));
    let objects = byPredicate.get(q.predicate);
    if (!objects) byPredicate.set(q.predicate, (objects = new Set()));
    if (objects.has(q.object)) continue;
    objects.add(q.object);
    out.push(q);
  }
  return out;
}
