/**
 * A walk of the shapes of our own for the common case, a record that conforms: it answers whether shacl-engine's
 * walk ({@link validateSync}) would report nothing for a record, without building a pointer list, a context or a
 * result. It answers only "nothing to report", and only when certain; for any other record (a constraint fails, or
 * the walk meets something it does not know: see {@link compileConstraints}) the engine validates the record, and
 * builds every result reported, so that reports stay the engine's.
 *
 * Exactness rests on three things. Each constraint check does what the engine's does ({@link compileConstraints}).
 * The walk asks what the engine's walk asks, in the same order, and stops early only where the engine does
 * (`sh:or`; a property shape whose only predicate the focus node lacks). And the engine validates a shape once
 * per focus node and value paths: when it meets them again it repeats the results it filed under them (for a shape
 * whose results came from the shapes it reached, only part of them), and when it meets the shape and focus node
 * on other value paths it validates them again, repeating the results of the shapes below. Both give what the
 * first validation gave only when no constraint failed anywhere below the shape: the walk remembers each shape's
 * answer on each focus node of the record and whether anything below it failed, and meeting the pair again it
 * answers only in that case (else the record goes to the engine). The engine validates a shape reached through
 * `sh:qualifiedValueShape` with the value of the context (not the value counted): not answered either, so that
 * each shape's answer depends on the shape and the focus node alone.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Unknown, compileConstraints, type Check, type ConstraintChecks, type FastContext, type FastShape } from './fastConstraints.js';
import type { RecordDataset } from './RecordDataset.js';
import { distinctKey } from './SyncContext.js';

const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
/** Deeper nesting than this is left to the engine (recursive shapes). */
const MAX_DEPTH = 32;

/** One step of a property path as the engine parses it. */
interface Step {
  quantifier: 'one' | 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne';
  start: 'subject' | 'object';
  predicates: RDF.Term[];
}

/** A shape compiled for the walk. */
interface Compiled {
  /** The property path, null for a node shape. */
  path: Step[] | null;
  node: Check[];
  property: Check[];
  generic: Check[];
  /** The predicate of a property shape the toolkit's walk skips for a focus node without it (`predicateOfSilentShape`). */
  silent: RDF.Term | null;
  /** Its answers in the record being walked. */
  answers: Answers;
}

/** A targeted shape of the engine, with its targets as the engine resolves them. */
interface Targeted {
  shape: FastShape;
  resolver: { targetClass: Iterable<RDF.Term>; targetNode: RDF.Term[]; targetObjectsOf: RDF.Term[]; targetSubjectsOf: RDF.Term[]; targets: unknown[] };
}

/** What a shape's validation on a focus node gave: still running, conforms with no failure below, or anything else. */
const PENDING = 0;
const CLEAN = 1;
const FAILED_BELOW = 2;

/** The answers of one shape on the focus nodes of the record being walked (kept from record to record, emptied). */
class Answers {
  private run = -1;
  /** The first answers (most shapes meet one or two focus nodes in a record), `size` of them this run. */
  private readonly keys: (RDF.Term | string)[] = [];
  private readonly states: number[] = [];
  private size = 0;
  /** By key, when there are many. */
  private map: Map<RDF.Term | string, number> | undefined;

  /** The answer on a focus node in run `run`, if any. */
  get(run: number, key: RDF.Term | string): number | undefined {
    if (run !== this.run) {
      this.run = run;
      this.size = 0;
      this.map = undefined;
      return undefined;
    }
    if (this.map) return this.map.get(key);
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.states[i];
  }

  /** Sets an answer (after {@link get} in the same run). */
  set(key: RDF.Term | string, state: number): void {
    if (this.map) {
      this.map.set(key, state);
      return;
    }
    const i = this.indexOf(key);
    if (i >= 0) this.states[i] = state;
    else if (this.size < 16) {
      this.keys[this.size] = key;
      this.states[this.size++] = state;
    } else {
      this.map = new Map(this.keys.map((k, j) => [k, this.states[j]!]));
      this.map.set(key, state);
    }
  }

  private indexOf(key: RDF.Term | string): number {
    for (let i = 0; i < this.size; i++) if (this.keys[i] === key) return i;
    return -1;
  }
}

/** The state of one record's walk. */
interface Run {
  readonly id: number;
  readonly data: RecordDataset;
  /** Constraints that failed so far. */
  failures: number;
  depth: number;
}

/** The walk over the shapes of one engine validator. */
export class FastConformance {
  private readonly compiled = new Map<FastShape, Compiled | null>();
  /** The record being walked (the walk is synchronous: one at a time). */
  private current: Run | undefined;
  private runs = 0;

  /**
   * @param silentPredicate the predicate of a property shape that the toolkit's walk does not walk on a focus
   * node without it (or null), as that walk decides.
   */
  constructor(private readonly silentPredicate: (shape: FastShape) => RDF.Term | null) {}

  /**
   * Whether the engine would report nothing for `data` with these targeted shapes, in this order (the engine's
   * shape and target resolver of each): `false` when that is not certain (the engine must validate).
   */
  conforms(data: RecordDataset, shapes: readonly { shape: unknown; resolver: unknown }[]): boolean {
    if (data.size === 0) return false;
    const run: Run = { id: this.runs++, data, failures: 0, depth: 0 };
    this.current = run;
    try {
      for (const { shape, resolver } of shapes as readonly Targeted[]) {
        if (resolver.targets.length > 0) return false;
        for (const focus of targetsOf(data, resolver)) if (!this.validate(run, shape, focus, undefined)) return false;
      }
      return true;
    } catch {
      // Unknown, or anything this walk did not expect of the shapes (a shape it cannot compile...): the engine's turn.
      return false;
    } finally {
      this.current = undefined;
    }
  }

  /** A shape on a focus node (the engine's `validateShape`), with the context's value. */
  private validate(run: Run, shape: FastShape | null, focus: RDF.Term, value: RDF.Term | undefined): boolean {
    const compiled = shape && this.compile(shape);
    if (!compiled || run.depth >= MAX_DEPTH) throw new Unknown();
    const answers = compiled.answers;
    const key = focus.termType === 'Literal' ? distinctKey(focus) : focus;
    const known = answers.get(run.id, key);
    if (known !== undefined) {
      if (known !== CLEAN) throw new Unknown();
      return true;
    }
    answers.set(key, PENDING);
    const failures = run.failures;
    run.depth++;
    const conforms = compiled.path ? this.validateProperty(run, compiled, compiled.path, focus, value) : this.validateNode(run, compiled, focus, value);
    run.depth--;
    // (A shape that does not conform has a failure below it.)
    answers.set(key, run.failures === failures ? CLEAN : FAILED_BELOW);
    return conforms;
  }

  private validateNode(run: Run, compiled: Compiled, focus: RDF.Term, value: RDF.Term | undefined): boolean {
    const c: FastContext = { data: run.data, focus, value, von: value ?? focus, values: NO_TERMS };
    // Node validations do not reach other shapes: in the engine's order or not, the same shapes are asked.
    const node = runChecks(run, compiled.node, c);
    return runChecks(run, compiled.generic, c) && node;
  }

  private validateProperty(run: Run, compiled: Compiled, path: Step[], focus: RDF.Term, value: RDF.Term | undefined): boolean {
    if (compiled.silent && run.data.withSubjectPredicate(focus, compiled.silent).length === 0) return true;
    const values = distinct(walkPath(run.data, path, focus));
    let conforms = runChecks(run, compiled.property, { data: run.data, focus, value, von: value ?? focus, values });
    if (compiled.generic.length === 0) return conforms;
    for (const v of values) if (!runChecks(run, compiled.generic, { data: run.data, focus, value: v, von: v, values: NO_TERMS })) conforms = false;
    return conforms;
  }

  /** A shape compiled (null: not answered here). */
  private compile(shape: FastShape): Compiled | null {
    let compiled = this.compiled.get(shape);
    if (compiled !== undefined) return compiled;
    this.compiled.set(shape, null);
    compiled = compileShape(shape, (s, c, focus) => this.validate(this.current!, s, focus, c.value), this.silentPredicate(shape));
    this.compiled.set(shape, compiled);
    return compiled;
  }
}

/** Runs every check on a context (as the engine runs every validation): whether all pass. */
function runChecks(run: Run, checks: readonly Check[], c: FastContext): boolean {
  let conforms = true;
  for (const check of checks) {
    if (check(c)) continue;
    run.failures++;
    conforms = false;
  }
  return conforms;
}

const NO_TERMS: readonly RDF.Term[] = [];

/** A shape's checks, or null when a constraint or its path is not known here. */
function compileShape(shape: FastShape, nested: (s: FastShape, c: FastContext, focus: RDF.Term) => boolean, silent: RDF.Term | null): Compiled | null {
  let path: Step[] | null = null;
  if (shape.isPropertyShape) {
    if (shape.isSparqlShape) return null;
    path = stepsOf(shape.path);
    if (!path) return null;
  }
  // A deactivated shape: the engine compiles no constraint of it.
  const constraints: ConstraintChecks[] | undefined = shape.deactivated ? [] : compileConstraints(shape, nested);
  if (!constraints) return null;
  const pick = (kind: keyof ConstraintChecks) => constraints.map((c) => c[kind]).filter((c): c is Check => c !== undefined);
  return { path, node: path ? [] : pick('node'), property: path ? pick('property') : [], generic: pick('generic'), silent: path ? silent : null, answers: new Answers() };
}

/** The steps of a parsed path, or null when one is not plain (predicates that are IRIs). */
function stepsOf(path: unknown): Step[] | null {
  if (!Array.isArray(path)) return null;
  const steps: Step[] = [];
  for (const step of path as ({ quantifier?: string; start?: string; end?: string; predicates?: RDF.Term[] } | undefined)[]) {
    if (!step || !Array.isArray(step.predicates) || !step.predicates.every((p) => p.termType === 'NamedNode')) return null;
    const inverse = step.start === 'object' && step.end === 'subject';
    if (!inverse && !(step.start === 'subject' && step.end === 'object')) return null;
    if (!['one', 'zeroOrMore', 'oneOrMore', 'zeroOrOne'].includes(step.quantifier ?? '')) return null;
    steps.push({ quantifier: step.quantifier as Step['quantifier'], start: inverse ? 'object' : 'subject', predicates: step.predicates });
  }
  return steps;
}

/** The nodes one step of predicates away from `node`. */
function oneStep(data: RecordDataset, step: Step, node: RDF.Term, out: RDF.Term[]): void {
  for (const p of step.predicates) {
    if (step.start === 'subject') for (const q of data.withSubjectPredicate(node, p)) out.push(q.object);
    else for (const q of data.withPredicateObject(p, node)) out.push(q.subject);
  }
}

/** The nodes a path reaches from `focus` (with repeats: grapoi's `executeAll` as a set). */
function walkPath(data: RecordDataset, path: Step[], focus: RDF.Term): RDF.Term[] {
  let nodes: RDF.Term[] = [focus];
  for (const step of path) {
    const next: RDF.Term[] = [];
    if (step.quantifier === 'one' || step.quantifier === 'zeroOrOne') {
      if (step.quantifier === 'zeroOrOne') next.push(...nodes);
      for (const node of nodes) oneStep(data, step, node, next);
    } else {
      // Every node reached in one or more steps (and, zeroOrMore, the start nodes).
      const seen = new Set<RDF.Term | string>();
      let frontier = nodes;
      if (step.quantifier === 'zeroOrMore') for (const n of nodes) if (add(seen, n)) next.push(n);
      while (frontier.length) {
        const reached: RDF.Term[] = [];
        for (const node of frontier) oneStep(data, step, node, reached);
        frontier = reached.filter((n) => add(seen, n));
        next.push(...frontier);
      }
    }
    nodes = next;
  }
  return nodes;
}

/** Adds a term to a set of terms (literals by key); whether it was new. */
function add(seen: Set<RDF.Term | string>, term: RDF.Term): boolean {
  const key = term.termType === 'Literal' ? distinctKey(term) : term;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** The distinct terms of some terms (the engine's `TermSet`; interned terms are one object per term but literals). */
function distinct(terms: RDF.Term[]): RDF.Term[] {
  if (terms.length < 2) return terms;
  const seen = new Set<RDF.Term | string>();
  return terms.filter((t) => add(seen, t));
}

/** The focus nodes of a targeted shape in the record, as the toolkit's walk resolves them (`resolveTargets`): distinct, in order. */
function targetsOf(data: RecordDataset, resolver: Targeted['resolver']): RDF.Term[] {
  const terms: RDF.Term[] = [];
  for (const c of resolver.targetClass) for (const q of data.withPredicateObject(RDF_TYPE, c)) terms.push(q.subject);
  for (const t of resolver.targetNode) terms.push(t);
  for (const p of resolver.targetObjectsOf) for (const q of data.withPredicateOnly(p)) terms.push(q.object);
  for (const p of resolver.targetSubjectsOf) for (const q of data.withPredicateOnly(p)) terms.push(q.subject);
  return distinct(terms);
}
