import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { termKey as keyOf } from '../../rdf/termKey.js';
import { NATIVE_READS } from '../engine/nativeConstraints.js';
import { NS } from '../../rdf/namespaces.js';
import type { QuadLookup } from './QuadIndex.js';

const SH = NS.sh;
const RDF_NS = NS.rdf;
const RDF_TYPE = `${RDF_NS}type`;
const sh = (name: string) => DataFactory.namedNode(`${SH}${name}`);

/** Predicates of a node whose triples a constraint counts or compares (an upper bound, a nested shape): every copy of the node must agree on them. */
export class NodeReads {
  readonly predicates = new Set<string>();
  /** Every predicate (a nested closed shape). */
  all = false;
  /** Shapes walked with these reads (recursive shapes end). */
  readonly walked = new Set<string>();
}

/**
 * What the shapes read around a focus node, for deciding whether validating
 * a dump record by record gives what SHACL gives on the whole graph
 * ({@link analyseShapes}; docs/validation.md, "Record by record or the whole graph").
 */
export interface ShapesScope {
  /** Why record by record can differ from the whole graph whatever the data (empty: it cannot, for records that are self-contained). */
  reasons: readonly string[];
  /** Every predicate of every path, forward or inverse: a record's triple with one of them naming another record's node makes the record not self-contained. */
  pathPredicates: ReadonlySet<string>;
  /** Predicates whose values' own triples are read (`sh:class`, `sh:node`, nested shapes, the steps of a longer path). */
  inspected: ReadonlySet<string>;
  /** Predicates of value nodes read by upper bounds or nested shapes. */
  valueReads: NodeReads;
  /** The same for the focus nodes of each targeted shape, by the shape's key (`N<iri>`, `B<label>`). */
  focusReads: ReadonlyMap<string, NodeReads>;
}

/** Parameters that bound the number of values from above, or compare them with another predicate's. */
const UPPER = new Set([
  'maxCount',
  'uniqueLang',
  'qualifiedMaxCount',
  'equals',
  'disjoint',
  'lessThan',
  'lessThanOrEquals',
]);
const PAIR = ['equals', 'disjoint', 'lessThan', 'lessThanOrEquals'];
/** Annotations and parameters that do not read the data graph. */
const QUIET = new Set([
  'name',
  'description',
  'message',
  'severity',
  'order',
  'group',
  'defaultValue',
  'deactivated',
  'path',
  'targetClass',
  'targetSubjectsOf',
  'targetNode',
  'targetObjectsOf',
  'target',
  'ignoredProperties',
  'qualifiedValueShapesDisjoint',
  'qualifiedMinCount',
  'minCount',
  'labelTemplate',
  'prefixes',
  'declare',
]);

/**
 * Reads the shapes for what each constraint can reach from a focus node. Record
 * by record validation is exact for a record that holds every triple of its own
 * nodes and its copies of the shared nodes it names (checked while validating:
 * {@link recordScopeOf}) when the shapes select focus nodes by class or by
 * `sh:targetSubjectsOf` (the focus node's own triples), follow paths forward,
 * and go backwards only through a single `sh:inversePath` bounded from below
 * (`sh:minCount`, also inside `sh:or`/`sh:and`: more triples elsewhere can only
 * remove a violation, which the record check notices). Anything else is a
 * reason: such shapes are validated on the whole graph.
 */
export function analyseShapes(graph: QuadLookup, targeted: readonly RDF.Term[]): ShapesScope {
  const walker = new ShapeWalker(graph);
  const focusReads = new Map<string, NodeReads>();
  for (const shape of targeted) {
    for (const [p, why] of [
      ['targetNode', 'validated in every record, its triples in one'],
      ['targetObjectsOf', 'its focus nodes are objects, whose triples may stand in other records'],
      ['target', 'a SPARQL-based target can select any node'],
    ] as const) {
      if (graph.countQuads(shape, sh(p), null, null) > 0) walker.reason(shape, `sh:${p}: ${why}`);
    }
    const reads = new NodeReads();
    focusReads.set(keyOf(shape), reads);
    walker.walk(shape, { nested: false, polarity: 1, reads });
  }
  if (graph.countQuads(null, DataFactory.namedNode(RDF_TYPE), sh('ConstraintComponent'), null) > 0) {
    walker.reasons.push(
      'the shapes declare constraint components of their own (sh:ConstraintComponent): what they read is not known',
    );
  }
  return {
    reasons: [...new Set(walker.reasons)],
    pathPredicates: walker.pathPredicates,
    inspected: walker.inspected,
    valueReads: walker.valueReads,
    focusReads,
  };
}

interface Context {
  /** Inside a shape whose conformance is one answer (sh:node, sh:and, sh:or, sh:xone, sh:not, qualified shapes). */
  nested: boolean;
  /** 1: as stated; -1: under sh:not; 0: both (sh:xone, qualified counts). */
  polarity: 1 | -1 | 0;
  /** Where the predicates of the node the shape applies to go. */
  reads: NodeReads;
}

/** What a path reads: its first predicates (from the focus), every predicate, those whose values are walked on, and whether any step is inverse. */
interface PathReads {
  first: Set<string>;
  last: Set<string>;
  all: Set<string>;
  through: Set<string>;
  inverse: boolean;
  /** A single `[ sh:inversePath <p> ]`. */
  simpleInverse: boolean;
  multi: boolean;
}

class ShapeWalker {
  readonly reasons: string[] = [];
  readonly pathPredicates = new Set<string>();
  readonly inspected = new Set<string>();
  readonly valueReads = new NodeReads();

  constructor(private readonly graph: QuadLookup) {}

  reason(shape: RDF.Term, why: string): void {
    this.reasons.push(`${describeShape(this.graph, shape)}: ${why}`);
  }

  walk(shape: RDF.Term, ctx: Context): void {
    const seen = `${keyOf(shape)} ${ctx.nested} ${ctx.polarity}`;
    if (ctx.reads.walked.has(seen)) return;
    ctx.reads.walked.add(seen);
    if (this.one(shape, 'deactivated')?.value === 'true') return;
    const path = this.one(shape, 'path');
    if (path) this.walkProperty(shape, path, ctx);
    else this.walkNode(shape, ctx);
  }

  /** A node shape (or a nested one) applied to a node whose predicates go to `ctx.reads`. */
  private walkNode(shape: RDF.Term, ctx: Context): void {
    const { reads } = ctx;
    const mayDiffer = ctx.nested || ctx.polarity !== 1;
    if (this.has(shape, 'class') && mayDiffer) reads.predicates.add(RDF_TYPE);
    if (this.one(shape, 'closed')?.value === 'true' && mayDiffer) reads.all = true;
    for (const p of PAIR) for (const q of this.all(shape, p)) this.readPair(q, reads);
    this.walkShapeRefs(shape, ctx, reads);
    for (const property of this.all(shape, 'property')) this.walk(property, ctx);
    for (const constraint of this.all(shape, 'sparql')) this.walkSparql(shape, constraint, ctx);
  }

  /** A property shape applied to a node whose predicates go to `ctx.reads`. */
  private walkProperty(shape: RDF.Term, pathTerm: RDF.Term, ctx: Context): void {
    const path = this.pathReads(pathTerm);
    if (!path) {
      this.reason(shape, 'a path scholarly-rdf does not read');
      return;
    }
    for (const p of path.all) this.pathPredicates.add(p);
    const params = this.params(shape);
    if (path.inverse) {
      const onlyMinCount = [...params].every((p) => p === 'minCount' || (QUIET.has(p) && p !== 'qualifiedMinCount'));
      if (!path.simpleInverse || !onlyMinCount || ctx.polarity !== 1) {
        this.reason(
          shape,
          'an inverse path with constraints other than sh:minCount reads the nodes that point at a node, which may stand in other records',
        );
      }
      return;
    }
    for (const p of path.through) this.inspected.add(p);
    if (path.multi) for (const p of path.all) this.valueReads.predicates.add(p);
    const counts =
      ctx.nested || ctx.polarity !== 1 || [...params].some((p) => UPPER.has(p)) || params.has('qualifiedValueShape');
    if (counts) for (const p of path.first) ctx.reads.predicates.add(p);
    for (const p of PAIR) for (const q of this.all(shape, p)) this.readPair(q, ctx.reads);
    // Constraints on each value that read the value's own triples.
    if (!this.readsGraph(shape, true)) return;
    for (const p of path.last) this.inspected.add(p);
    const values: Context = { nested: ctx.nested, polarity: ctx.polarity, reads: this.valueReads };
    if (params.has('class') && (ctx.nested || ctx.polarity !== 1)) this.valueReads.predicates.add(RDF_TYPE);
    if (this.one(shape, 'closed')?.value === 'true') this.valueReads.all = true;
    this.walkShapeRefs(shape, values, this.valueReads);
    for (const property of this.all(shape, 'property')) this.walk(property, values);
    for (const q of this.all(shape, 'qualifiedValueShape'))
      this.walk(q, { nested: true, polarity: 0, reads: this.valueReads });
    for (const constraint of this.all(shape, 'sparql')) this.walkSparql(shape, constraint, values);
  }

  /** sh:node, sh:and, sh:or, sh:xone, sh:not of a shape: nested shapes on the same node. */
  private walkShapeRefs(shape: RDF.Term, ctx: Context, reads: NodeReads): void {
    const nested = (polarity: 1 | -1 | 0) => ({ nested: true, polarity, reads });
    for (const s of this.all(shape, 'node')) this.walk(s, nested(ctx.polarity));
    for (const p of ['and', 'or'] as const)
      for (const list of this.all(shape, p)) for (const s of this.list(list)) this.walk(s, nested(ctx.polarity));
    for (const list of this.all(shape, 'xone')) for (const s of this.list(list)) this.walk(s, nested(0));
    const flipped = ctx.polarity === 0 ? 0 : ctx.polarity === 1 ? -1 : 1;
    for (const s of this.all(shape, 'not')) this.walk(s, nested(flipped));
  }

  /**
   * Whether applying a shape to a node reads triples of the graph (not the node's term alone). `values`: of a
   * property shape, whether its constraints on each value do (its path aside).
   */
  private readsGraph(shape: RDF.Term, values = false, depth = 0): boolean {
    if (depth > 32) return true;
    const params = this.params(shape);
    if (!values && params.has('path')) return true;
    // sh:equals and its kind compare a property shape's values with the focus node's: the values' own triples are not read.
    if (['class', 'closed', 'property', 'sparql', ...(values ? [] : PAIR)].some((p) => params.has(p))) return true;
    const nested = [...this.all(shape, 'node'), ...this.all(shape, 'not'), ...this.all(shape, 'qualifiedValueShape')];
    for (const p of ['and', 'or', 'xone']) for (const list of this.all(shape, p)) nested.push(...this.list(list));
    return nested.some((s) => this.readsGraph(s, false, depth + 1));
  }

  private readPair(predicate: RDF.Term, reads: NodeReads): void {
    this.pathPredicates.add(predicate.value);
    reads.predicates.add(predicate.value);
  }

  /** The toolkit's SPARQL constraints run natively and say what they read; any other can read anything. */
  private walkSparql(shape: RDF.Term, constraint: RDF.Term, ctx: Context): void {
    const native = constraint.termType === 'NamedNode' ? NATIVE_READS.get(constraint.value) : undefined;
    if (!native || ctx.nested) {
      this.reason(shape, 'a SPARQL constraint can read any node of the graph');
      return;
    }
    for (const p of [...native.upper, ...native.through, ...native.perValue]) this.pathPredicates.add(p);
    for (const p of native.upper) ctx.reads.predicates.add(p);
    for (const p of native.through) {
      this.inspected.add(p);
      this.valueReads.predicates.add(p);
    }
  }

  /** What a path reads, or undefined for a path that is not one. */
  private pathReads(term: RDF.Term, depth = 0): PathReads | undefined {
    if (depth > 32) return undefined;
    if (term.termType === 'NamedNode') {
      const one = new Set([term.value]);
      return {
        first: one,
        last: one,
        all: one,
        through: new Set(),
        inverse: false,
        simpleInverse: false,
        multi: false,
      };
    }
    if (term.termType !== 'BlankNode') return undefined;
    if (this.graph.countQuads(term, DataFactory.namedNode(`${RDF_NS}first`), null, null) > 0) {
      const steps = this.list(term).map((s) => this.pathReads(s, depth + 1));
      if (steps.length === 0 || steps.some((s) => !s)) return undefined;
      const all = steps as PathReads[];
      const merged = merge(all);
      const through = new Set(merged.through);
      for (const s of all.slice(0, -1)) for (const p of s.all) through.add(p);
      return { ...merged, through, simpleInverse: false, multi: all.length > 1 || merged.multi };
    }
    const alternatives = this.one(term, 'alternativePath');
    if (alternatives) {
      const options = this.list(alternatives).map((s) => this.pathReads(s, depth + 1));
      if (options.length === 0 || options.some((s) => !s)) return undefined;
      return { ...merge(options as PathReads[]), simpleInverse: false };
    }
    const inverse = this.one(term, 'inversePath');
    if (inverse) {
      const inner = this.pathReads(inverse, depth + 1);
      return inner && { ...inner, inverse: true, simpleInverse: inverse.termType === 'NamedNode' };
    }
    for (const [p, repeated] of [
      ['zeroOrMorePath', true],
      ['oneOrMorePath', true],
      ['zeroOrOnePath', false],
    ] as const) {
      const inner = this.one(term, p);
      if (!inner) continue;
      const reads = this.pathReads(inner, depth + 1);
      if (!reads) return undefined;
      return repeated
        ? { ...reads, through: new Set([...reads.through, ...reads.all]), simpleInverse: false, multi: true }
        : { ...reads, simpleInverse: false };
    }
    return undefined;
  }

  /** The SHACL parameters a shape has (local names). */
  private params(shape: RDF.Term): Set<string> {
    const out = new Set<string>();
    for (const q of this.graph.getQuads(shape, null, null, null))
      if (q.predicate.value.startsWith(SH)) out.add(q.predicate.value.slice(SH.length));
    return out;
  }

  private has(shape: RDF.Term, p: string): boolean {
    return this.graph.countQuads(shape, sh(p), null, null) > 0;
  }

  private one(shape: RDF.Term, p: string): RDF.Term | undefined {
    return this.graph.getObjects(shape, sh(p), null)[0];
  }

  private all(shape: RDF.Term, p: string): RDF.Term[] {
    return this.graph.getObjects(shape, sh(p), null);
  }

  /** The members of an RDF list (cut at 10,000, or at a cycle). */
  list(head: RDF.Term): RDF.Term[] {
    const out: RDF.Term[] = [];
    const seen = new Set<string>();
    for (let cell: RDF.Term | undefined = head; cell && cell.value !== `${RDF_NS}nil` && out.length < 10_000;) {
      if (seen.has(keyOf(cell))) break;
      seen.add(keyOf(cell));
      const first = this.graph.getObjects(cell, DataFactory.namedNode(`${RDF_NS}first`), null)[0];
      if (first) out.push(first);
      cell = this.graph.getObjects(cell, DataFactory.namedNode(`${RDF_NS}rest`), null)[0];
    }
    return out;
  }
}

/** The union of several paths' reads (alternatives, or the steps of a sequence). */
function merge(paths: readonly PathReads[]): PathReads {
  const union = (f: (p: PathReads) => Set<string>) => new Set(paths.flatMap((p) => [...f(p)]));
  return {
    first: union((p) => p.first),
    last: union((p) => p.last),
    all: union((p) => p.all),
    through: union((p) => p.through),
    inverse: paths.some((p) => p.inverse),
    simpleInverse: false,
    multi: paths.some((p) => p.multi),
  };
}

/** `N<iri>` or `B<label>`: the key of a shape in {@link ShapesScope.focusReads}. */
export { keyOf };

/** A shape for a person: `<iri>`, or a blank node with its path and the shape that holds it. */
function describeShape(graph: QuadLookup, shape: RDF.Term): string {
  if (shape.termType === 'NamedNode') return `<${shape.value}>`;
  const path = graph.getObjects(shape, sh('path'), null)[0];
  const owner = graph.getSubjects(sh('property'), shape, null)[0];
  const where = [
    path?.termType === 'NamedNode' ? `sh:path <${path.value}>` : '',
    owner?.termType === 'NamedNode' ? `in <${owner.value}>` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `a shape (blank node)${where ? ` with ${where}` : ''}`;
}
