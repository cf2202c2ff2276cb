/**
 * Cheap checks in front of shacl-engine's own constraints (1.x): the engine's
 * `sh:minCount`, `sh:class`, `sh:pattern`, ... build their result's arguments
 * and message (objects, a literal) for every value they test, and drop them
 * when the test passes, which is nearly always. Each check here answers
 * "passes" only when the engine's test certainly passes (and then, outside
 * debug runs, the engine would report nothing); otherwise the engine's own
 * compiled constraint runs, so every result is still the engine's.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { distinctKey, type PtrList } from './SyncContext.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const SUBCLASS_OF = DataFactory.namedNode('http://www.w3.org/2000/01/rdf-schema#subClassOf');

/** What a check reads of the engine's context. */
interface QuickContext {
  readonly options: { debug?: boolean };
  readonly focusNode: PtrList;
  readonly valueOrNode: PtrList | undefined;
  readonly values: PtrList | undefined;
}

/** A shape as the checks read it: its pointer in the shapes graph. */
interface QuickShape {
  readonly ptr: PtrList & { out(predicates: RDF.Term[]): PtrList & { value?: string } };
}

type Run = (context: QuickContext) => unknown;
interface Compiled {
  node?: Run;
  property?: Run;
  generic?: Run;
}
export type Compile = (shape: QuickShape) => Compiled | null | undefined;
/** A check of one shape's constraint, by the kind of validation it stands in front of. */
type Checks = Partial<Record<keyof Compiled, (context: QuickContext) => boolean>>;

const sh = (local: string) => DataFactory.namedNode(`${SH}${local}`);
/** The value of a shape's parameter when it has exactly one (the engine reads no single value of several). */
const valueOf = (shape: QuickShape, local: string): string | undefined => {
  const terms = shape.ptr.out([sh(local)]).terms;
  return terms.length === 1 ? terms[0]!.value : undefined;
};

/** The term types of each `sh:nodeKind` (the engine's `toTermType`). */
export const NODE_KINDS = new Map<string, readonly string[]>([
  ['BlankNode', ['BlankNode']],
  ['BlankNodeOrIRI', ['BlankNode', 'NamedNode']],
  ['BlankNodeOrLiteral', ['BlankNode', 'Literal']],
  ['IRI', ['NamedNode']],
  ['IRIOrLiteral', ['NamedNode', 'Literal']],
  ['Literal', ['Literal']],
].map(([k, v]) => [`${SH}${k as string}`, v as readonly string[]]));

/** The term of the value or focus node of a context. */
const termOf = (context: QuickContext): RDF.Term | undefined => context.valueOrNode?.term;

/** The checks of each constraint, by its local name, for a shape (undefined: the engine alone). */
const CHECKS: Record<string, (shape: QuickShape) => Checks | undefined> = {
  maxCount: (shape) => {
    const max = parseInt(valueOf(shape, 'maxCount') ?? '');
    return Number.isNaN(max) ? undefined : { property: (c) => c.values!.ptrs.length <= max };
  },
  minCount: (shape) => {
    const min = parseInt(valueOf(shape, 'minCount') ?? '');
    return Number.isNaN(min) ? undefined : { property: (c) => c.values!.ptrs.length >= min };
  },
  nodeKind: (shape) => {
    const kinds = NODE_KINDS.get(valueOf(shape, 'nodeKind') ?? '');
    return kinds && { generic: (c) => kinds.includes(termOf(c)!.termType) };
  },
  pattern: (shape) => {
    const pattern = valueOf(shape, 'pattern');
    const flags = valueOf(shape, 'flags');
    // A global or sticky expression keeps state from one test to the next: the engine's alone (and several flags).
    if (pattern === undefined || /[gy]/.test(flags ?? '') || shape.ptr.out([sh('flags')]).terms.length > 1) return undefined;
    const regex = new RegExp(pattern, flags);
    return { generic: (c) => regex.test(termOf(c)!.value) };
  },
  minLength: (shape) => {
    const min = parseInt(valueOf(shape, 'minLength') ?? '');
    return Number.isNaN(min) ? undefined : { generic: (c) => termOf(c)!.termType !== 'BlankNode' && termOf(c)!.value.length >= min };
  },
  maxLength: (shape) => {
    const max = parseInt(valueOf(shape, 'maxLength') ?? '');
    return Number.isNaN(max) ? undefined : { generic: (c) => termOf(c)!.termType !== 'BlankNode' && termOf(c)!.value.length <= max };
  },
  in: (shape) => {
    const lists = [...(shape.ptr.out([sh('in')]) as unknown as Iterable<{ list(): Iterable<PtrList> | undefined }>)];
    if (lists.length !== 1) return undefined;
    const keys = new Set([...(lists[0]!.list() ?? [])].map((item) => distinctKey(item.term!)));
    return { generic: (c) => keys.has(distinctKey(termOf(c)!)) };
  },
  class: (shape) => {
    const classes = shape.ptr.out([sh('class')]).terms.map((c) => subclassKeys(shape.ptr.dataset!, c));
    return {
      generic: (c) => {
        const term = termOf(c)!;
        const dataset = c.valueOrNode!.dataset;
        if (!dataset) return false;
        const types: string[] = [];
        for (const q of dataset.match(term, RDF_TYPE, null, null)) types.push(distinctKey(q.object));
        return classes.every((keys) => types.some((t) => keys.has(t)));
      },
    };
  },
  equals: (shape) => {
    const equals = shape.ptr.out([sh('equals')]).terms[0];
    if (!equals) return undefined;
    return {
      property: (c) => {
        const focus = c.focusNode.term;
        const dataset = c.focusNode.dataset;
        if (!focus || !dataset) return false;
        const references = new Set<string>();
        for (const q of dataset.match(focus, equals, null, null)) references.add(distinctKey(q.object));
        const values = new Set(c.values!.terms.map(distinctKey));
        if (values.size !== references.size) return false;
        for (const v of values) if (!references.has(v)) return false;
        return true;
      },
    };
  },
};

/** The keys of a class and of its subclasses in the shapes graph (the engine's `resolveClasses`). */
export function subclassKeys(shapes: RDF.DatasetCore, cls: RDF.Term): Set<string> {
  const keys = new Set([distinctKey(cls)]);
  const todo = [cls];
  for (let next = todo.pop(); next; next = todo.pop()) {
    for (const q of shapes.match(null, SUBCLASS_OF, next, null)) {
      const key = distinctKey(q.subject);
      if (keys.has(key)) continue;
      keys.add(key);
      todo.push(q.subject);
    }
  }
  return keys;
}

/** A compiled constraint whose validations first ask `checks` (outside debug runs), and run only when a check does not pass. */
function guarded(compiled: Compiled, checks: Checks): Compiled {
  const out: Compiled = { ...compiled };
  for (const kind of ['node', 'property', 'generic'] as const) {
    const run = compiled[kind];
    const check = checks[kind];
    if (!run || !check) continue;
    out[kind] = (context) => (!context.options.debug && check(context) ? undefined : run(context));
  }
  return out;
}

/** A shacl-engine registry's validations: a map of constraint IRIs to compile functions. */
export interface QuickValidations {
  get(term: RDF.Term): Compile | undefined;
  set(term: RDF.Term, compile: Compile): unknown;
}

/**
 * Puts the checks in front of the compile functions of a shacl-engine registry (changed in place) that are the
 * engine's own (those of `own`, a registry made without the toolkit's or a caller's validations): one wrapper
 * per compile function, as the registry compiles each function once per shape.
 */
export function addQuickChecks(validations: QuickValidations, own: QuickValidations): void {
  const wrappers = new Map<Compile, Compile>();
  for (const [local, checksOf] of Object.entries(CHECKS)) {
    const term = sh(local);
    const compile = validations.get(term);
    if (!compile || compile !== own.get(term)) continue;
    let wrapper = wrappers.get(compile);
    if (!wrapper) {
      const inner = compile;
      wrapper = (shape) => {
        const compiled = inner(shape);
        const checks = compiled ? checksOf(shape) : undefined;
        return compiled && checks ? guarded(compiled, checks) : compiled;
      };
      wrappers.set(compile, wrapper);
    }
    validations.set(term, wrapper);
  }
}
