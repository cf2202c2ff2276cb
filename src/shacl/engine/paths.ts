import type * as RDF from '@rdfjs/types';
import type { PathStep } from '../reports/ValidationResult.js';
import type { RecordIndex } from './RecordIndex.js';
import type { ShapesReader } from './ShapesReader.js';
import { DistinctTerms } from './DistinctTerms.js';
import { SH } from './vocabulary.js';

/** A SHACL property path (SHACL 2.3.1), as a tree. */
export type Path =
  | { kind: 'predicate'; predicate: RDF.NamedNode }
  | { kind: 'inverse'; path: Path }
  | { kind: 'sequence'; items: Path[] }
  | { kind: 'alternative'; items: Path[] }
  | { kind: 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne'; path: Path };

/** The value nodes a path reaches from a node: distinct, in the order first reached. */
export type PathFunction = (index: RecordIndex, focus: RDF.Term) => readonly RDF.Term[];

/** Reads the path of the shapes graph at `node` (a `ToolkitError`-free `Error` names what is malformed). */
export function readPath(shapes: ShapesReader, node: RDF.Term, seen: Set<RDF.Term> = new Set()): Path {
  if (seen.has(node)) throw new Error(`the property path at ${shapes.label(node)} is recursive`);
  seen.add(node);
  try {
    if (node.termType === 'NamedNode') return { kind: 'predicate', predicate: node };
    if (node.termType !== 'BlankNode')
      throw new Error(`a property path cannot be the literal ${JSON.stringify(node.value)}`);
    const list = shapes.list(node);
    if (list) {
      if (list.length < 2) throw new Error(`a sequence path needs at least two members (${shapes.label(node)})`);
      return { kind: 'sequence', items: list.map((item) => readPath(shapes, item, seen)) };
    }
    const one = (p: string) => shapes.one(node, SH + p);
    const inverse = one('inversePath');
    if (inverse) return { kind: 'inverse', path: readPath(shapes, inverse, seen) };
    const alternative = one('alternativePath');
    if (alternative) {
      const items = shapes.list(alternative);
      if (!items || items.length < 2)
        throw new Error(`sh:alternativePath needs a list of at least two paths (${shapes.label(node)})`);
      return { kind: 'alternative', items: items.map((item) => readPath(shapes, item, seen)) };
    }
    for (const kind of ['zeroOrMore', 'oneOrMore', 'zeroOrOne'] as const) {
      const inner = one(`${kind}Path`);
      if (inner) return { kind, path: readPath(shapes, inner, seen) };
    }
    throw new Error(`${shapes.label(node)} is not a property path`);
  } finally {
    seen.delete(node);
  }
}

/** Compiles a path into a function over a record's index. */
export function compilePath(path: Path): PathFunction {
  // The record's triples are distinct: so are a subject's objects of one predicate, and an object's subjects.
  if (path.kind === 'predicate') {
    const predicate = path.predicate;
    return (index, focus) => index.objects(focus, predicate);
  }
  if (path.kind === 'inverse' && path.path.kind === 'predicate') {
    const predicate = path.path.predicate;
    return (index, focus) => index.subjects(focus, predicate);
  }
  const step = compileStep(path);
  return (index, focus) => {
    const out = new DistinctTerms();
    step(index, focus, out);
    return out.items;
  };
}

/** Adds what `path` reaches from `node` to `out`. */
type Step = (index: RecordIndex, node: RDF.Term, out: DistinctTerms) => void;

function compileStep(path: Path): Step {
  switch (path.kind) {
    case 'predicate': {
      const p = path.predicate;
      return (index, node, out) => {
        for (const o of index.objects(node, p)) out.add(o);
      };
    }
    case 'inverse': {
      if (path.path.kind === 'predicate') {
        const p = path.path.predicate;
        return (index, node, out) => {
          for (const s of index.subjects(node, p)) out.add(s);
        };
      }
      // The inverse of a complex path: the nodes from which it reaches `node`.
      const inner = inverted(path.path);
      return compileStep(inner);
    }
    case 'sequence': {
      const steps = path.items.map(compileStep);
      return (index, node, out) => {
        let current: readonly RDF.Term[] = [node];
        for (let i = 0; i < steps.length; i++) {
          const next = i === steps.length - 1 ? out : new DistinctTerms();
          for (const n of current) steps[i]!(index, n, next);
          current = next.items;
        }
      };
    }
    case 'alternative': {
      const steps = path.items.map(compileStep);
      return (index, node, out) => {
        for (const s of steps) s(index, node, out);
      };
    }
    case 'zeroOrOne': {
      const inner = compileStep(path.path);
      return (index, node, out) => {
        out.add(node);
        inner(index, node, out);
      };
    }
    case 'zeroOrMore':
    case 'oneOrMore': {
      const inner = compileStep(path.path);
      const zero = path.kind === 'zeroOrMore';
      return (index, node, out) => {
        if (zero) out.add(node);
        // Breadth first from the node: the nodes reached, in the order first reached, are the queue (each walked
        // from once).
        const reached = new DistinctTerms();
        inner(index, node, reached);
        for (let i = 0; i < reached.items.length; i++) inner(index, reached.items[i]!, reached);
        for (const r of reached.items) out.add(r);
      };
    }
  }
}

/** The path that reaches, from a node, the nodes from which `path` reaches it. */
function inverted(path: Path): Path {
  switch (path.kind) {
    case 'predicate':
      return { kind: 'inverse', path };
    case 'inverse':
      return path.path;
    case 'sequence':
      return { kind: 'sequence', items: path.items.map(inverted).reverse() };
    case 'alternative':
      return { kind: 'alternative', items: path.items.map(inverted) };
    default:
      return { kind: path.kind, path: inverted(path.path) };
  }
}

/**
 * The path as the steps of a result (a sequence of predicates or alternatives of predicates, each maybe inverse,
 * maybe repeated); undefined for a path those cannot state (a sequence inside an alternative, say).
 */
export function pathSteps(path: Path): PathStep[] | undefined {
  const items = path.kind === 'sequence' ? path.items : [path];
  const steps: PathStep[] = [];
  for (const item of items) {
    const s = stepOf(item);
    if (!s) return undefined;
    steps.push(s);
  }
  return steps;
}

function stepOf(path: Path): PathStep | undefined {
  let quantifier: PathStep['quantifier'] = 'one';
  let p = path;
  if (p.kind === 'zeroOrMore' || p.kind === 'oneOrMore' || p.kind === 'zeroOrOne') {
    quantifier = p.kind;
    p = p.path;
  }
  let inverse = false;
  if (p.kind === 'inverse') {
    inverse = true;
    p = p.path;
  }
  if (p.kind === 'predicate') return { predicates: [p.predicate], inverse, quantifier };
  if (p.kind === 'alternative' && p.items.every((i) => i.kind === 'predicate')) {
    return { predicates: p.items.map((i) => (i as { predicate: RDF.NamedNode }).predicate), inverse, quantifier };
  }
  return undefined;
}
