import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { ToolkitError } from '../errors.js';
import { analyseShapes, keyOf, type NodeReads, type ShapesScope } from './analyseShapes.js';
import { shapeKey, shapeTest, targetClassesOf, targetedShapes } from './classTargets.js';
import { createValidator, isSyncValidator } from './engineTuning.js';
import { FastConformance } from './FastConformance.js';
import { loadSparqlPlugin } from './loadSparqlPlugin.js';
import type { ShapesGraph } from './loadShapes.js';
import { NATIVE_CONSTRAINTS, compileNativeSparql, compileStrictDatatype } from './nativeConstraints.js';
import { RecordDataset } from './RecordDataset.js';
import { agreedOf, classTriple, predicateFlags, type ScopeRules } from './recordScope.js';
import type { CompileValidation, Validator } from './shaclEngine.js';
import type { SyncShape } from './SyncContext.js';
import { TermInterner, termKey } from './TermInterner.js';
import { silentPredicateOf } from './validateSync.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

/**
 * What selects the focus nodes of a targeted shape, as shacl-engine resolved
 * it (its `TargetResolver`): a record none of whose types and predicates
 * appear here gives the shape no focus node, so the engine is not asked.
 */
export interface TargetFilter {
  terms: RDF.Term[];
  /** Keys of the target classes (with their subclasses, as the engine resolves them). */
  classes: string[];
  /** IRIs of `sh:targetSubjectsOf` and `sh:targetObjectsOf`. */
  predicates: string[];
  /** IRIs of `sh:targetSubjectsOf`. */
  subjectsOf: string[];
  /** `sh:targetNode` or `sh:target` (SPARQL, ...): always validated. */
  always: boolean;
  /** The engine's shape and its target resolver ({@link FastConformance}), when the engine is of the expected version. */
  engine?: { shape: unknown; resolver: unknown };
}

/** shacl-engine made ready for some shapes (see {@link prepareEngine}). */
export interface PreparedEngine {
  validator: Validator;
  /** The shapes that have targets: only these start a validation (the others are reached from them). */
  targeted: TargetFilter[];
  /** The shapes' terms: a record's terms are copied against them. */
  interner: TermInterner;
  /** What the shapes read around a focus node ({@link analyseShapes}). */
  scope: ShapesScope;
  /** The same, ready for checking each record ({@link recordScopeOf}). */
  rules: ScopeRules;
  /** A walk of our own that answers, for most records, that the engine would report nothing (synchronous engines only). */
  fast?: FastConformance;
}

/** Options of {@link prepareEngine}. */
export interface PrepareEngineOptions {
  /** How `sh:sparql` constraints run (see `RecordValidatorOptions.sparql`). Defaults to `native`. */
  sparql?: 'native' | 'engine';
  /**
   * Triples of the data graph that say what is a class (`rdfs:subClassOf`) or give a shape a type: SHACL
   * reads class targets and `sh:class` with them (whole-graph validation passes them). Defaults to none.
   */
  dataClassTriples?: readonly RDF.Quad[];
  /** The faster pointer lists of {@link createValidator} (benchmarks compare). Defaults to true. */
  tune?: boolean;
  /** The walk of our own for conforming records ({@link FastConformance}; tests and benchmarks compare). Defaults to true. */
  fast?: boolean;
}

/**
 * Builds shacl-engine's validator for `shapes`: `sh:sparql` constraints run natively (or, `sparql: 'engine'`, and
 * for a constraint with no native equivalent, through shacl-engine's SPARQL plugin), every shape compiled now
 * (a shape that cannot be compiled throws a `parse` error naming it), the target filter of each targeted shape read.
 */
export async function prepareEngine(shapes: ShapesGraph, options: PrepareEngineOptions = {}): Promise<PreparedEngine> {
  const mode = options.sparql ?? 'native';
  const { validations, sync } = await sparqlValidations(shapes, mode);
  // The shapes graph as class targets read it: with the data's class triples when given.
  const graph = options.dataClassTriples?.length ? new Store([...shapes.dataset.getQuads(null, null, null, null), ...options.dataClassTriples]) : shapes.dataset;
  // The engine reads the shapes through plain-field terms in an indexed dataset
  // (n3's Store answers each match() with a new store and stream).
  const interner = new TermInterner();
  const shapesDataset = new RecordDataset(graph.getQuads(null, null, null, null).map((q) => interner.quad(q)));
  let validator: Validator;
  try {
    validator = createValidator(shapesDataset, { factory: DataFactory as unknown as RDF.DataFactory, validations }, options.tune ?? true, sync);
  } catch (err) {
    throw new ToolkitError(`the shapes cannot be used: ${(err as Error).message}`, 'parse', { cause: err });
  }
  compileAllShapes(validator);
  const { terms, implicit } = targetedShapes(graph);
  const filters = terms.map((t) => targetFilter(validator, interner.term(t), targetClassesOf(graph, t, implicit.has(shapeKey(t))).map((c) => interner.term(c))));
  const scope = analyseShapes(graph, terms);
  const fast = options.fast !== false && isSyncValidator(validator) && filters.every((f) => f.engine) ? new FastConformance((shape) => silentPredicateOf(shape as unknown as SyncShape)) : undefined;
  return { validator, targeted: filters, interner, scope, rules: scopeRules(scope, filters, graph), ...(fast ? { fast } : {}) };
}

/**
 * The `sh:datatype` and `sh:sparql` validations: SPARQL natively, or through shacl-engine's plugin where needed;
 * `sync` when no constraint runs through the plugin (whose validations are asynchronous).
 */
async function sparqlValidations(shapes: ShapesGraph, mode: 'native' | 'engine'): Promise<{ validations: [RDF.Term, CompileValidation][]; sync: boolean }> {
  const hasSparql = shapes.dataset.countQuads(null, DataFactory.namedNode(`${SH}sparql`), null, null) > 0;
  let fallback: CompileValidation | undefined;
  if (hasSparql) {
    const foreign = shapes.dataset
      .getObjects(null, DataFactory.namedNode(`${SH}sparql`), null)
      .filter((c) => c.termType !== 'NamedNode' || !NATIVE_CONSTRAINTS.has(c.value));
    if (mode === 'engine' || foreign.length > 0) {
      // shacl-engine's SPARQL plugin (Comunica, an optional peer) is loaded only when a shape needs it.
      fallback = await loadSparqlPlugin(
        mode === 'engine'
          ? "`sparql: 'engine'` runs every SPARQL constraint of the shapes through the SPARQL engine"
          : `the shapes hold ${foreign.length} SPARQL constraint(s) with no native implementation (${describe(foreign)}), which only the SPARQL engine runs`,
      );
    }
  }
  const sparql: CompileValidation = mode === 'engine' && fallback ? fallback : compileNativeSparql(fallback);
  return {
    validations: [
      [DataFactory.namedNode(`${SH}datatype`), compileStrictDatatype],
      [DataFactory.namedNode(`${SH}sparql`), sparql],
    ],
    sync: fallback === undefined,
  };
}

/** {@link ScopeRules} of the targeted shapes: their reads by target class and by `sh:targetSubjectsOf` predicate. */
function scopeRules(scope: ShapesScope, filters: readonly TargetFilter[], graph: Store): ScopeRules {
  const readsByClass = new Map<string, NodeReads[]>();
  const readsBySubjectOf = new Map<string, NodeReads[]>();
  const push = (map: Map<string, NodeReads[]>, key: string, reads: NodeReads) => {
    const list = map.get(key);
    if (list) list.push(reads);
    else map.set(key, [reads]);
  };
  for (const f of filters) {
    const reads = scope.focusReads.get(keyOf(f.terms[0]!));
    if (!reads) continue;
    for (const c of f.classes) push(readsByClass, c.startsWith('N') ? c.slice(1) : c, reads);
    for (const p of f.subjectsOf) push(readsBySubjectOf, p, reads);
  }
  const shape = shapeTest(graph);
  const shapeKeys = new Set<string>();
  for (const q of graph.getQuads(null, null, null, null)) if (shape(q.subject)) shapeKeys.add(termKey(q.subject));
  const agreed = (map: Map<string, NodeReads[]>) => new Map([...map].map(([k, reads]) => [k, agreedOf([...reads, scope.valueReads])] as const));
  const shapesClassTriples = new Set<string>();
  for (const p of [RDF_TYPE, `${RDFS}subClassOf`]) for (const q of graph.getQuads(null, DataFactory.namedNode(p), null, null)) shapesClassTriples.add(classTriple(q));
  return {
    shapesClassTriples,
    shapeKeys,
    flags: predicateFlags(scope, readsBySubjectOf.keys()),
    agreedByClass: agreed(readsByClass),
    agreedBySubjectOf: agreed(readsBySubjectOf),
    agreedOfValues: agreedOf([scope.valueReads]),
    predicateHashes: new Map(),
  };
}

/** The first constraints of a list, by IRI (a blank node as `[]`), for a message. */
function describe(constraints: RDF.Term[]): string {
  const names = constraints.slice(0, 3).map((c) => (c.termType === 'NamedNode' ? `<${c.value}>` : '[]'));
  return constraints.length > 3 ? `${names.join(', ')}, …` : names.join(', ');
}

/**
 * The target filter of a shape, read from shacl-engine's own target resolver of the shape, whose target classes
 * become `classes` (explicit and implicit class targets with their subclasses, as SHACL defines them: the engine
 * would also take every sh:NodeShape for a class, and no other shape that is one).
 */
function targetFilter(validator: Validator, term: RDF.Term, classes: RDF.Term[]): TargetFilter {
  const engine = validator as unknown as {
    shapesPtr: { node(terms: RDF.Term[]): unknown };
    shape(ptr: unknown): {
      targetResolver: {
        targetClass: Iterable<RDF.Term>;
        targetNode: RDF.Term[];
        targetSubjectsOf: RDF.Term[];
        targetObjectsOf: RDF.Term[];
        targets: unknown[];
      };
    } | null;
  };
  const shape = engine.shape(engine.shapesPtr.node([term]));
  const resolver = shape?.targetResolver;
  const known =
    resolver &&
    resolver.targetClass?.[Symbol.iterator] &&
    Array.isArray(resolver.targetNode) &&
    Array.isArray(resolver.targetSubjectsOf) &&
    Array.isArray(resolver.targetObjectsOf) &&
    Array.isArray(resolver.targets);
  // Another version of the engine: no filter, every targeted shape is validated.
  if (!known) return { terms: [term], classes: [], predicates: [], subjectsOf: [], always: true };
  resolver.targetClass = classes;
  return {
    terms: [term],
    classes: classes.map(termKey),
    predicates: [...resolver.targetSubjectsOf, ...resolver.targetObjectsOf].map((p) => p.value),
    subjectsOf: resolver.targetSubjectsOf.map((p) => p.value),
    always: resolver.targetNode.length > 0 || resolver.targets.length > 0,
    engine: { shape, resolver },
  };
}

/**
 * Compiles every shape now, the shapes the compiled ones reach included:
 * shacl-engine compiles a shape when it first validates with it, and a shape
 * it cannot compile (an `sh:pattern` that is no regular expression, ...) would
 * then fail in the middle of a run, and pass silently after that. Throws a
 * `parse` error naming the shape.
 */
function compileAllShapes(validator: Validator): void {
  const engine = validator as unknown as {
    shapes: { values(): Iterable<{ ptr: { term: RDF.Term }; shapeValidator: { compiled: unknown } }> };
  };
  if (typeof engine.shapes?.values !== 'function') return; // another version of the engine: it compiles as it goes
  const done = new Set<unknown>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const shape of [...engine.shapes.values()]) {
      if (done.has(shape)) continue;
      done.add(shape);
      grew = true;
      try {
        void shape.shapeValidator.compiled;
      } catch (err) {
        const term = shape.ptr.term;
        const name = term.termType === 'NamedNode' ? `<${term.value}>` : `a shape (blank node) ${describeBlankShape(validator, term)}`;
        throw new ToolkitError(`the shapes cannot be used: ${name}: ${(err as Error).message}`, 'parse', { cause: err });
      }
    }
  }
}

/** Where a blank-node shape is: its `sh:path` and the shape whose property it is, when it has them. */
function describeBlankShape(validator: Validator, term: RDF.Term): string {
  const engine = validator as unknown as { shapesPtr: { dataset: RDF.DatasetCore } };
  const dataset = engine.shapesPtr?.dataset;
  if (!dataset) return '';
  const path = [...dataset.match(term, DataFactory.namedNode(`${SH}path`), null)][0]?.object;
  const owner = [...dataset.match(null, DataFactory.namedNode(`${SH}property`), term)][0]?.subject;
  return [path?.termType === 'NamedNode' ? `with sh:path <${path.value}>` : '', owner?.termType === 'NamedNode' ? `in <${owner.value}>` : ''].filter(Boolean).join(' ');
}

/** What the shapes read around a focus node ({@link analyseShapes}), without making an engine. */
export function shapesScope(shapes: ShapesGraph): ShapesScope {
  return analyseShapes(shapes.dataset, targetedShapes(shapes.dataset).terms);
}
