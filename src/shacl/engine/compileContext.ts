import type * as RDF from '@rdfjs/types';
import { pathToString, type PathStep } from '../reports/ValidationResult.js';
import type { Check, CompiledShape, RunContext, SetCheck, ValueCheck } from './CompiledShape.js';
import { DEFAULT_MESSAGES, fillParameters } from './messages.js';
import type { ShapesReader } from './ShapesReader.js';
import { SH } from './vocabulary.js';

/** What compiling one constraint needs: the shapes graph, the shape, and the compiled shape of any node. */
export interface CompileContext {
  readonly shapes: ShapesReader;
  readonly shape: CompiledShape;
  /** The compiled shape of a node of the shapes graph (compiled on first use). */
  shapeOf(node: RDF.Term): CompiledShape;
  /** The interned term of an IRI. */
  named(iri: string): RDF.NamedNode;
  /** The shapes whose `sh:property` is this shape (for `sh:qualifiedValueShapesDisjoint`). */
  parentsOf(shape: RDF.Term): RDF.Term[];
}

/** Thrown for a constraint the engine does not implement (a SPARQL constraint with no native equivalent): the record goes to shacl-engine. */
export class UnsupportedShapes extends Error {}

export type Reporter = (
  context: RunContext,
  focus: RDF.Term,
  value: RDF.Term | undefined,
  extra?: {
    path?: readonly PathStep[] | undefined;
    message?: readonly string[];
    source?: RDF.Term;
    parameters?: Record<string, string>;
  },
) => false;

/** A reporter of results of `component` for `shape`, its message filled with `parameters`. */
export function reporter(
  c: CompileContext,
  component: string,
  parameters: Record<string, string>,
  defaultMessage?: string,
): Reporter {
  const shape = c.shape;
  const constraintComponent = c.named(`${SH}${component}ConstraintComponent`);
  const own = shape.messages.map((m) => fillParameters(m, parameters));
  const fallback = defaultMessage ?? DEFAULT_MESSAGES[component];
  const shapePath = shape.resultPath && pathToString(shape.resultPath);
  const message =
    (own.length ? own.join(' ') : fallback ? fillParameters(fallback, parameters) : '') || 'does not conform';
  return (context, focus, value, extra) => {
    const out = context.out;
    if (!out) return false;
    const shapes = !extra || !('path' in extra) || extra.path === shape.resultPath;
    const resultPath = shapes ? shape.resultPath : extra.path;
    const text = extra?.message
      ? extra.message.join(' ') || 'does not conform'
      : extra?.parameters
        ? (own.length ? own : fallback ? [fallback] : [])
            .map((m) => fillParameters(fillParameters(m, parameters), extra.parameters!))
            .join(' ') || 'does not conform'
        : message;
    out.push({
      focusNode: focus,
      shape: shape.term,
      path: shapes ? shapePath : resultPath && pathToString(resultPath),
      resultPath,
      severity: shape.severity,
      message: text,
      value,
      constraintComponent,
      sourceConstraint: extra?.source,
    });
    return false;
  };
}

export function integer(c: CompileContext, term: RDF.Term, name: string): number {
  const n = Number(term.value);
  if (term.termType !== 'Literal' || !Number.isInteger(n))
    throw new Error(`sh:${name} of ${c.shapes.label(c.shape.term)} is not an integer`);
  return n;
}

export function listOf(c: CompileContext, node: RDF.Term, name: string): RDF.Term[] {
  const items = c.shapes.list(node);
  if (!items) throw new Error(`sh:${name} of ${c.shapes.label(c.shape.term)} is not a list`);
  return items;
}

export const set = (run: SetCheck): Check => ({ kind: 'set', run });

/** The compiled shape of a node, looked up when first run (shapes refer to each other, so not while compiling) and then kept. */
export function shapeRef(c: CompileContext, node: RDF.Term): () => CompiledShape {
  let shape: CompiledShape | undefined;
  return () => (shape ??= c.shapeOf(node));
}
export const each = (run: ValueCheck): Check => ({ kind: 'value', run });
