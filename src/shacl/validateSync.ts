/**
 * shacl-engine's validation run without `await`: the same walk as its
 * `Validator.validate`, `TargetResolver.resolve`, `Shape.validate` and
 * `ShapeValidator` (shacl-engine 1.x), for validators whose every compiled
 * constraint is synchronous ({@link syncShapeValidations} in place of the
 * engine's `sh:node`, `sh:property`, `sh:and`, ...). The engine awaits every
 * constraint of every shape for every value, most of which return nothing:
 * each `await` is a promise and a trip through the microtask queue, which
 * cost more than the checks themselves.
 *
 * Results, their order and the run's caches (`processed`, `results`) are the
 * engine's ({@link SyncContext}); the lists of distinct terms
 * (the engine's `TermSet` and `TermMap`, keyed by N-Triples strings) are kept
 * in maps keyed by the numbers of {@link TermIds}, which tell terms apart exactly as
 * N-Triples does, in the same first-seen order.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { EngineReport, ValidatorOptions } from './shaclEngine.js';
import { SyncContext, processedKey, type PtrList, type SyncShape, type TermIds } from './SyncContext.js';

const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');

/** The engine validator's fields the walk reads. */
export interface SyncEngine {
  readonly factory: RDF.DataFactory;
  readonly options: ValidatorOptions;
  readonly shapesPtr: PtrList;
  readonly shapes: { values(): Iterable<SyncShape> };
  readonly targetResolverRegistry: { targetResolvers: { size?: number } & Iterable<unknown> };
  shape(ptr: PtrList): SyncShape | null;
}

/** The distinct terms of some terms, the first of each in order (the engine's `new TermSet(terms)`). */
export function distinctTerms(ids: TermIds, terms: readonly RDF.Term[]): RDF.Term[] {
  if (terms.length < 2) return terms.slice();
  const seen = new Map<number, RDF.Term>();
  for (const t of terms) {
    const id = ids.of(t);
    if (!seen.has(id)) seen.set(id, t);
  }
  return seen.size === terms.length ? terms.slice() : [...seen.values()];
}

/** Calls a compiled constraint, which must not return a promise (the walk would not wait for it). */
function run(fn: (context: SyncContext) => unknown, context: SyncContext): void {
  const returned = fn(context) as { then?: unknown } | undefined;
  if (returned && typeof returned.then === 'function') throw new Error('a constraint of the shapes is asynchronous: the synchronous walk cannot run it');
}

/** shacl-engine's `Validator.validate`, without `await` (`pathList`: the class of the root pointer list). */
export function validateSync(
  engine: SyncEngine,
  pathList: new (args: object) => PtrList,
  data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> },
  shapes?: { terms: RDF.Term[] }[],
): EngineReport {
  const focusNode = new pathList({ ...data, factory: engine.factory });
  const context = SyncContext.root(engine.factory, focusNode, engine.options);
  const selected = shapes ? shapes.map((s) => engine.shape(engine.shapesPtr.node(s.terms))!) : [...engine.shapes.values()].map((s) => engine.shape(s.ptr)!);
  const any = focusNode.isAny();
  for (const shape of selected) {
    const shapeContext = context.create({ shape });
    const targets = any ? resolveTargets(engine, shape, shapeContext) : focusNode;
    for (const target of targets) validateShape(shape, shapeContext.create({ focusNode: target }));
  }
  return context.report as unknown as EngineReport;
}

/** shacl-engine's `TargetResolver.resolve` (targets of the registry, SPARQL's, are asynchronous: none here). */
function resolveTargets(engine: SyncEngine, shape: SyncShape, context: SyncContext): PtrList {
  const resolver = shape.targetResolver;
  if (resolver.targets.length > 0 && [...engine.targetResolverRegistry.targetResolvers].length > 0) {
    throw new Error('a target of the shapes is resolved asynchronously: the synchronous walk cannot run it');
  }
  const focusNode = context.focusNode;
  const dataset = focusNode.dataset;
  if (dataset) {
    // The terms the engine's pointers would reach, in their order, read from the data directly: its
    // `hasOut`, `node` and `execute` over the pointer to any node find them with these very questions.
    const terms: RDF.Term[] = [];
    for (const c of resolver.targetClass) for (const q of dataset.match(null, RDF_TYPE, c, null)) terms.push(q.subject);
    for (const t of resolver.targetNode) terms.push(t);
    for (const p of resolver.targetObjectsOf) for (const q of dataset.match(null, p, null, null)) terms.push(q.object);
    for (const p of resolver.targetSubjectsOf) for (const q of dataset.match(null, p, null, null)) terms.push(q.subject);
    return focusNode.node(distinctTerms(context.ids, terms));
  }
  const any = focusNode.node([null]);
  const ptrs = [
    ...focusNode.hasOut([RDF_TYPE], resolver.targetClass).ptrs,
    ...focusNode.node(resolver.targetNode).ptrs,
    ...any.execute({ start: 'object', end: 'object', predicates: resolver.targetObjectsOf }).ptrs,
    ...any.execute({ start: 'subject', end: 'subject', predicates: resolver.targetSubjectsOf }).ptrs,
  ];
  const resolved = focusNode.clone({ ptrs });
  return resolved.node(distinctTerms(context.ids, resolved.terms));
}


/** shacl-engine's `Shape.validate` and `ShapeValidator.validate`: each shape once per focus node and value paths, its results repeated. */
export function validateShape(shape: SyncShape, context: SyncContext): SyncContext {
  const key = processedKey(context.ids, shape, context.focusNode, context.valuePaths);
  if (context.processed.has(key)) {
    const cached = context.results.get(key);
    if (cached) for (const result of cached) context.report.results.push(result);
    return context;
  }
  context.processed.add(key);
  // The engine ignores an empty data graph.
  if (context.focusNode.dataset?.size === 0) return context;
  if (shape.isPropertyShape) validateProperty(shape, context);
  else validateNode(shape, context);
  return context;
}

function validateNode(shape: SyncShape, context: SyncContext): void {
  const shapeContext = context.create({ shape, valueOrNode: context.value || context.focusNode });
  for (const validation of shape.shapeValidator.compiled) {
    if (validation.node) run(validation.node, shapeContext);
    if (validation.generic) run(validation.generic, shapeContext);
  }
}

function validateProperty(shape: SyncShape, context: SyncContext): void {
  const predicate = predicateOfSilentShape(shape, context);
  if (predicate && noValue(context.focusNode, predicate)) return;
  // Traversing happens in the SPARQL constraints.
  const resolved = shape.isSparqlShape ? context.focusNode : context.focusNode.executeAll(shape.path);
  const terms = resolved.terms;
  const values = resolved.node(distinctTerms(context.ids, terms));
  // Each distinct value with the paths that reach it, in order of first appearance (most shapes reach none or one).
  let valuesPaths: Iterable<{ value: PtrList; valuePaths: PtrList[] }> = [];
  if (terms.length === 1) {
    // One value: the list of values is its pointer, and the list reached the one path to it (the lists the
    // engine would build anew hold the same pointers, and nothing changes a list).
    valuesPaths = [{ value: values, valuePaths: [resolved] }];
  } else if (terms.length > 1) {
    const byTerm = new Map<number, { value: PtrList; valuePaths: PtrList[] }>();
    let i = 0;
    for (const valuePaths of resolved) {
      const term = terms[i++]!;
      const id = context.ids.of(term);
      let entry = byTerm.get(id);
      if (!entry) byTerm.set(id, (entry = { value: resolved.node([term]), valuePaths: [] }));
      entry.valuePaths.push(valuePaths);
    }
    valuesPaths = byTerm.values();
  }
  const compiled = shape.shapeValidator.compiled;
  const valuesContext = context.create({ shape, values });
  for (const validation of compiled) if (validation.property) run(validation.property, valuesContext);
  for (const { value, valuePaths } of valuesPaths) {
    const valueContext = context.create({ shape, value, valueOrNode: value, valuePaths });
    for (const validation of compiled) if (validation.generic) run(validation.generic, valueContext);
  }
}

/**
 * The constraints (keys of the engine's registry) that report nothing for a focus node without values (each
 * checks one value at a time, or, `sh:maxCount`, an upper bound), but in debug runs.
 */
const SILENT_WITHOUT_VALUES = new Set(
  ['maxCount', 'datatype', 'nodeKind', 'pattern', 'minLength', 'maxLength', 'class', 'in', 'node', 'property', 'or', 'and', 'not', 'xone', 'languageIn', 'disjoint', 'minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive'].map(
    (local) => `http://www.w3.org/ns/shacl#${local}`,
  ),
);

/** {@link predicateOfSilentShape} of each shape met (null: none). */
const silentShapes = new WeakMap<SyncShape, RDF.Term | null>();

/**
 * The predicate of a property shape whose path is that one predicate and whose constraints all are
 * {@link SILENT_WITHOUT_VALUES}: a focus node with no triple of it gives no result, so the shape is not walked
 * (the engine would find no value, and report nothing). Null for any other shape, and in debug runs.
 */
function predicateOfSilentShape(shape: SyncShape, context: SyncContext): RDF.Term | null {
  if (context.options.debug || context.options.details || context.options.trace) return null;
  return silentPredicateOf(shape);
}

/** {@link predicateOfSilentShape} outside debug runs. */
export function silentPredicateOf(shape: SyncShape): RDF.Term | null {
  let predicate = silentShapes.get(shape);
  if (predicate === undefined) {
    predicate = null;
    const path = shape.path as { quantifier: string; start: string; end: string; predicates: RDF.Term[] }[] | null;
    const registry = shape.validator.registry?.validations;
    const step = Array.isArray(path) && path.length === 1 ? path[0]! : undefined;
    if (!shape.isSparqlShape && step?.quantifier === 'one' && step.start === 'subject' && step.end === 'object' && step.predicates.length === 1 && typeof registry?.has === 'function') {
      // The constraints the engine's registry compiles for the shape (as its `Registry.compile` finds them).
      const constraints = (shape.ptr as unknown as { execute(i: { start: string; end: string }): PtrList }).execute({ start: 'subject', end: 'predicate' });
      if (constraints.terms.every((p) => !registry.has!(p) || SILENT_WITHOUT_VALUES.has(p.value))) predicate = step.predicates[0]!;
    }
    silentShapes.set(shape, predicate);
  }
  return predicate;
}

/** Whether the focus node has no triple of `predicate`. */
function noValue(focusNode: PtrList, predicate: RDF.Term): boolean {
  const term = focusNode.term;
  const dataset = focusNode.dataset;
  if (!term || !dataset) return false;
  for (const _ of dataset.match(term, predicate, null, null)) return false;
  return true;
}
