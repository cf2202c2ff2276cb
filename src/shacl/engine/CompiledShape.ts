import type * as RDF from '@rdfjs/types';
import type { PathStep, Severity, ValidationResult } from '../reports/ValidationResult.js';
import type { PathFunction } from './paths.js';
import type { RecordIndex } from './RecordIndex.js';

/** What one validation of a record carries: the record, where results go, and the shapes being checked. */
export interface RunContext {
  readonly index: RecordIndex;
  /** Where results go; null while a shape is only asked whether a node conforms (`sh:node`, `sh:or`, ...). */
  out: ValidationResult[] | null;
  /** Whether a node is a SHACL instance of a class (`rdf:type`/`rdfs:subClassOf*`). */
  isInstance(node: RDF.Term, cls: RDF.Term): boolean;
  /** The shapes being checked and their nodes, pairwise, deepest last (a shape met again on the same node inside itself conforms). */
  readonly active: (CompiledShape | RDF.Term)[];
}

/**
 * A check of a constraint: true when it holds. When it does not, it reports its results to `context.out`
 * (when not null) and returns false. `set` checks see all value nodes at once (`sh:minCount`, `sh:equals`...),
 * `value` checks one value node at a time.
 */
export type SetCheck = (context: RunContext, focus: RDF.Term, values: readonly RDF.Term[]) => boolean;
export type ValueCheck = (context: RunContext, focus: RDF.Term, value: RDF.Term) => boolean;

/** A constraint compiled for one shape. */
export type Check = { kind: 'set'; run: SetCheck } | { kind: 'value'; run: ValueCheck };

/** A shape compiled once: its path, its constraints as closures over interned terms, and what its results say. */
export interface CompiledShape {
  readonly term: RDF.Term;
  /** The value nodes of a focus node: its path's, or the node itself. */
  readonly path: PathFunction | null;
  readonly resultPath: readonly PathStep[] | undefined;
  readonly severity: Severity;
  /** `sh:message` values (none: the components' own). */
  readonly messages: readonly string[];
  readonly deactivated: boolean;
  /** The checks in the shapes graph's order (a property shape runs its set checks first, then its value checks on each value) (filled after the shape is made: shapes refer to each other). */
  readonly checks: Check[];
  /** Whether a check may validate a shape (`sh:node`, `sh:property`, `sh:and`...: set as the checks are compiled). */
  nests: boolean;
  /** {@link checks} split by kind, made when first run (undefined before: the checks are filled after the shape is made). */
  split: SplitChecks | undefined;
}

/** A property shape's checks as {@link validateShape} runs them: set checks, then value checks. */
export interface SplitChecks {
  readonly set: readonly SetCheck[];
  readonly value: readonly ValueCheck[];
}

/** The checks of a shape split by kind, in order (made when first run: the checks are filled after the shape is made). */
function splitChecks(shape: CompiledShape): SplitChecks {
  let found = shape.split;
  if (found && found.set.length + found.value.length === shape.checks.length) return found;
  const set: SetCheck[] = [];
  const value: ValueCheck[] = [];
  for (const c of shape.checks) {
    if (c.kind === 'set') set.push(c.run);
    else value.push(c.run);
  }
  found = { set, value };
  shape.split = found;
  return found;
}

/** Validates `focus` against `shape`: true when no result was found (results go to `context.out`). */
export function validateShape(shape: CompiledShape, focus: RDF.Term, context: RunContext): boolean {
  if (shape.deactivated || shape.checks.length === 0) return true;
  const checks = splitChecks(shape);
  // A shape that validates no other shape cannot be met again inside itself.
  if (!shape.nests) return runChecks(shape, checks, focus, context);
  const active = context.active;
  // The stack is a few pairs deep: a scan costs less than a map of sets.
  for (let i = 0; i < active.length; i += 2) if (active[i] === shape && active[i + 1] === focus) return true;
  active.push(shape, focus);
  try {
    return runChecks(shape, checks, focus, context);
  } finally {
    active.pop();
    active.pop();
  }
}

/** The checks of a shape on a focus node: a node shape's on the node itself, a property shape's set checks, then its value checks on each value in turn. */
function runChecks(shape: CompiledShape, checks: SplitChecks, focus: RDF.Term, context: RunContext): boolean {
  let ok = true;
  if (!shape.path) {
    // In the shapes graph's order.
    for (const c of shape.checks) {
      const passed = c.kind === 'value' ? c.run(context, focus, focus) : c.run(context, focus, [focus]);
      if (!passed) {
        ok = false;
        if (!context.out) return false;
      }
    }
    return ok;
  }
  const values = shape.path(context.index, focus);
  for (const c of checks.set) {
    if (!c(context, focus, values)) {
      ok = false;
      if (!context.out) return false;
    }
  }
  const each = checks.value;
  if (each.length === 0) return ok;
  for (const value of values) {
    for (const c of each) {
      if (!c(context, focus, value)) {
        ok = false;
        if (!context.out) return false;
      }
    }
  }
  return ok;
}

/** Whether `node` conforms to `shape` (no result of any severity), without building results. */
export function conforms(shape: CompiledShape, node: RDF.Term, context: RunContext): boolean {
  const out = context.out;
  context.out = null;
  try {
    return validateShape(shape, node, context);
  } finally {
    context.out = out;
  }
}
