import type * as RDF from '@rdfjs/types';
import { DataFactory, Store } from 'n3';
import { ToolkitError } from '../errors.js';
import { analyseShapes, keyOf, type NodeReads, type ShapesScope } from './scope/analyseShapes.js';
import { shapeKey, shapeTest, targetClassesOf, targetedShapes } from './scope/classTargets.js';
import { CoreEngine } from './engine/CoreEngine.js';
import { UnsupportedShapes } from './engine/compileContext.js';
import type { ShapesGraph } from './loadShapes.js';
import { NATIVE_CONSTRAINTS } from './engine/nativeConstraints.js';
import { agreedOf, classTriple, predicateFlags, type ScopeRules } from './scope/recordScope.js';
import { termKey } from './engine/TermInterner.js';
import type { WholeRecordEngine } from './shaclEngine/WholeRecordEngine.js';
import { QuadIndex, type QuadLookup } from './scope/QuadIndex.js';
import { NS, RDF_TYPE } from '../rdf/namespaces.js';

const SH = NS.sh;
const RDFS = NS.rdfs;

/** What selects the focus nodes of a targeted shape (for the scope rules of {@link recordScopeOf}). */
export interface TargetFilter {
  terms: RDF.Term[];
  /** Keys of the target classes (with their subclasses). */
  classes: string[];
  /** IRIs of `sh:targetSubjectsOf` and `sh:targetObjectsOf`. */
  predicates: string[];
  /** IRIs of `sh:targetSubjectsOf`. */
  subjectsOf: string[];
  /** `sh:targetNode` or `sh:target` (SPARQL, ...): in every record. */
  always: boolean;
}

/** The validation of one shapes graph made ready (see {@link prepareEngine}): one of two engines. */
export interface PreparedEngine {
  /** The SHACL Core engine of our own, when it runs the shapes (SHACL Core and the shipped SPARQL constraints). */
  core?: CoreEngine;
  /** shacl-engine, whole record by whole record, for anything else (and every SPARQL constraint as SPARQL, `sparql: 'engine'`). */
  whole?: WholeRecordEngine;
  /** The shapes that have targets. */
  targeted: TargetFilter[];
  /** What the shapes read around a focus node ({@link analyseShapes}). */
  scope: ShapesScope;
  /** The same, ready for checking each record ({@link recordScopeOf}). */
  rules: ScopeRules;
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
}

/**
 * Compiles the shapes with the engine of our own ({@link CoreEngine}: a shape that cannot be compiled throws a
 * `parse` error naming it); shapes it does not run (SHACL-SPARQL with no native implementation, SPARQL targets, a
 * path a result cannot state), and `sparql: 'engine'`, go to shacl-engine's public API ({@link WholeRecordEngine}),
 * with its SPARQL plugin when the shapes need it.
 */
export async function prepareEngine(shapes: ShapesGraph, options: PrepareEngineOptions = {}): Promise<PreparedEngine> {
  const mode = options.sparql ?? 'native';
  const quads = shapes.dataset.getQuads(null, null, null, null);
  const graph = options.dataClassTriples?.length ? new Store([...quads, ...options.dataClassTriples]) : shapes.dataset;
  // The store read once, its questions answered from the quads (in its order): a third of a worker's start otherwise.
  const index = new QuadIndex(graph === shapes.dataset ? quads : graph.getQuads(null, null, null, null));
  const isShape = shapeTest(index);
  const { terms, implicit } = targetedShapes(index, isShape);
  const filters = terms.map((t) => targetFilter(index, t, implicit.has(shapeKey(t))));
  const scope = analyseShapes(index, terms);
  const rules = scopeRules(scope, filters, index, isShape);
  let why: string | undefined =
    mode === 'engine'
      ? "`sparql: 'engine'` runs every SPARQL constraint of the shapes through the SPARQL engine"
      : undefined;
  if (!why) {
    try {
      const core = CoreEngine.compile(
        quads,
        options.dataClassTriples ? { dataClassTriples: options.dataClassTriples } : {},
      );
      if (core.inexact.length === 0) return { core, targeted: filters, scope, rules };
      why = core.inexact.join('; ');
    } catch (err) {
      if (!(err instanceof UnsupportedShapes))
        throw new ToolkitError(`the shapes cannot be used: ${(err as Error).message}`, 'parse', { cause: err });
      why = err.message;
    }
  }
  const needsPlugin =
    graph.countQuads(null, DataFactory.namedNode(`${SH}sparql`), null, null) > 0 ||
    graph.countQuads(null, DataFactory.namedNode(`${SH}target`), null, null) > 0;
  const foreign = graph
    .getObjects(null, DataFactory.namedNode(`${SH}sparql`), null)
    .filter((c) => c.termType !== 'NamedNode' || !NATIVE_CONSTRAINTS.has(c.value));
  // shacl-engine (and its SPARQL plugin, Comunica, an optional peer, when a shape needs it) is loaded only now.
  const { WholeRecordEngine } = await import('./shaclEngine/WholeRecordEngine.js');
  const { loadSparqlPlugin } = await import('./shaclEngine/loadSparqlPlugin.js');
  const plugin = needsPlugin
    ? await loadSparqlPlugin(
        mode === 'engine'
          ? why
          : foreign.length
            ? `the shapes hold ${foreign.length} SPARQL constraint(s) with no native implementation (${describe(foreign)}), which only the SPARQL engine runs`
            : why,
      )
    : undefined;
  return {
    whole: WholeRecordEngine.create(graph.getQuads(null, null, null, null), plugin),
    targeted: filters,
    scope,
    rules,
  };
}

/** The target filter of a shape: its target classes (explicit and implicit, with their subclasses) and predicates. */
function targetFilter(graph: QuadLookup, term: RDF.Term, implicit: boolean): TargetFilter {
  const objects = (p: string) => graph.getObjects(term, DataFactory.namedNode(`${SH}${p}`), null);
  const subjectsOf = objects('targetSubjectsOf').map((p) => p.value);
  return {
    terms: [term],
    classes: targetClassesOf(graph, term, implicit).map(termKey),
    predicates: [...subjectsOf, ...objects('targetObjectsOf').map((p) => p.value)],
    subjectsOf,
    always: objects('targetNode').length > 0 || objects('target').length > 0,
  };
}

/** {@link ScopeRules} of the targeted shapes: their reads by target class and by `sh:targetSubjectsOf` predicate. */
function scopeRules(
  scope: ShapesScope,
  filters: readonly TargetFilter[],
  graph: QuadLookup,
  shape: (term: RDF.Term) => boolean,
): ScopeRules {
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
  const shapeKeys = new Set<string>();
  for (const q of graph.getQuads(null, null, null, null)) if (shape(q.subject)) shapeKeys.add(termKey(q.subject));
  const agreed = (map: Map<string, NodeReads[]>) =>
    new Map([...map].map(([k, reads]) => [k, agreedOf([...reads, scope.valueReads])] as const));
  const shapesClassTriples = new Set<string>();
  for (const p of [RDF_TYPE, `${RDFS}subClassOf`])
    for (const q of graph.getQuads(null, DataFactory.namedNode(p), null, null)) shapesClassTriples.add(classTriple(q));
  return {
    shapesClassTriples,
    shapeKeys,
    flags: predicateFlags(scope, readsBySubjectOf.keys()),
    agreedByClass: agreed(readsByClass),
    agreedBySubjectOf: agreed(readsBySubjectOf),
    agreedOfValues: agreedOf([scope.valueReads]),
    predicateHashes: new Map(),
    recordKeys: new Map(),
  };
}

/** The first constraints of a list, by IRI (a blank node as `[]`), for a message. */
function describe(constraints: RDF.Term[]): string {
  const names = constraints.slice(0, 3).map((c) => (c.termType === 'NamedNode' ? `<${c.value}>` : '[]'));
  return constraints.length > 3 ? `${names.join(', ')}, …` : names.join(', ');
}

/** What the shapes read around a focus node ({@link analyseShapes}), without making an engine. */
export function shapesScope(shapes: ShapesGraph): ShapesScope {
  return analyseShapes(shapes.dataset, targetedShapes(shapes.dataset).terms);
}
