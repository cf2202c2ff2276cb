/**
 * The constraints of one shape of shacl-engine (1.x), compiled for {@link FastConformance}: each check answers
 * whether the engine's own validation of the constraint would report nothing (`true`) or a result (`false`), and
 * throws {@link Unknown} when it cannot tell (the engine then validates the record). A check either does what the
 * engine's code does, on the record's terms directly, or calls the very closure the engine's registry compiled for
 * the shape with a context that only notes whether it reports ({@link Probe}); a shape holding a constraint that is
 * neither (SPARQL through the engine, `sh:hasValue`, `sh:lessThan`, ...) is not compiled, and never answered.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { NATIVE_CONSTRAINTS } from './nativeConstraints.js';
import { NODE_KINDS, subclassKeys } from './quickConstraints.js';
import type { RecordDataset } from './RecordDataset.js';
import { distinctKey } from './SyncContext.js';
import { qualifiedCounts } from './syncShapeValidations.js';

const SH = 'http://www.w3.org/ns/shacl#';
const sh = (local: string) => DataFactory.namedNode(`${SH}${local}`);
const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const XSD_BOOLEAN = 'http://www.w3.org/2001/XMLSchema#boolean';
/** A string of characters XML allows, as `compileStrictDatatype` reads `xsd:string` values. */
const XML_STRING = /^[^\p{Cs}\uFFFE\uFFFF]*$/u;

/** Thrown by a check that cannot tell what the engine would do: the walk leaves the record to the engine. */
export class Unknown extends Error {
  constructor() {
    super('not known to the fast walk');
  }
}

/** What a check reads: the engine's context (focus node, value, value or node, values), as terms. */
export interface FastContext {
  readonly data: RecordDataset;
  readonly focus: RDF.Term;
  /** The context's value: inherited by the shapes validated from it, as the engine's contexts inherit it. */
  readonly value: RDF.Term | undefined;
  /** The engine's `valueOrNode`. */
  readonly von: RDF.Term;
  /** The distinct values of a property shape (property checks only). */
  readonly values: readonly RDF.Term[];
}

export type Check = (c: FastContext) => boolean;

/** A shape of the engine as the checks read it. */
export interface FastShape {
  readonly ptr: FastPtr;
  readonly path: unknown;
  readonly deactivated: unknown;
  readonly severity: RDF.Term | undefined;
  readonly isPropertyShape: boolean;
  readonly isSparqlShape: boolean;
  readonly sparql: FastPtr;
  readonly validator: { shape(ptr: FastPtr): FastShape | null; readonly registry?: { readonly validations?: { get?(term: RDF.Term): unknown } } };
}

/** A grapoi pointer list of the shapes graph, as read here. */
export interface FastPtr extends Iterable<FastPtr> {
  readonly term: RDF.Term | undefined;
  readonly terms: RDF.Term[];
  readonly value: string | undefined;
  readonly ptrs: readonly unknown[];
  readonly dataset: RDF.DatasetCore | null;
  out(predicates: RDF.Term[]): FastPtr;
  node(terms: RDF.Term[]): FastPtr;
  list(): Iterable<FastPtr> | undefined;
  execute(instruction: { start: string; end: string }): FastPtr;
}

/** A shape's check of another shape on a focus node (what the engine's `reportOn` asks): whether it conforms (else throws {@link Unknown}). */
export type Nested = (shape: FastShape, c: FastContext, focus: RDF.Term) => boolean;

/** The checks of a constraint by the kind of validation (the engine's `node`, `property`, `generic`). */
export interface ConstraintChecks {
  node?: Check;
  property?: Check;
  generic?: Check;
}

/** Whether some shapes all conform on the value (or focus node) of a context: each is asked, as the engine validates each. */
function every(shapes: readonly FastShape[], nested: Nested, c: FastContext): boolean {
  let conforms = true;
  for (const s of shapes) if (!nested(s, c, c.von)) conforms = false;
  return conforms;
}

/**
 * A context for a compiled validation of the engine that reads only `valueOrNode` (its `term` and `value`) and
 * `factory`: it notes whether the validation reports.
 */
class Probe {
  ok = true;
  readonly options = {};
  readonly factory = DataFactory;
  valueOrNode: { term: RDF.Term; value: string } = { term: RDF_TYPE, value: '' };
  test(ok: boolean): void {
    if (!ok) this.ok = false;
  }
  violation(): void {
    this.ok = false;
  }
  debug(): void {}
  trace(): void {}
}

/** The engine's compiled `generic` validation of `local` for a shape, asked through a {@link Probe}. */
function probed(shape: FastShape, local: string): ConstraintChecks | undefined {
  const compile = shape.validator.registry?.validations?.get?.(sh(local)) as ((s: FastShape) => { generic?: (c: Probe) => unknown } | null | undefined) | undefined;
  const generic = compile?.(shape)?.generic;
  if (!generic) return undefined;
  const probe = new Probe();
  return {
    generic: (c) => {
      probe.ok = true;
      probe.valueOrNode = { term: c.von, value: c.von.value };
      const returned = generic(probe) as { then?: unknown } | undefined;
      if (returned && typeof returned.then === 'function') throw new Unknown();
      return probe.ok;
    },
  };
}

/** The shapes a shape's `predicate` names, as the engine makes them. */
function shapesOf(shape: FastShape, predicate: string): FastShape[] {
  return [...shape.ptr.out([sh(predicate)])].map((ptr) => shape.validator.shape(ptr)!);
}

/** The shapes of the RDF lists a shape's `predicate` names (`sh:or ( ... )`). */
function listShapesOf(shape: FastShape, predicate: string): FastShape[] {
  return [...shape.ptr.out([sh(predicate)])].flatMap((ptr) => [...(ptr.list() ?? [])]).map((ptr) => shape.validator.shape(ptr)!);
}

const count = (local: string, test: (n: number, bound: number) => boolean) => (shape: FastShape): ConstraintChecks => {
  const bound = parseInt(shape.ptr.out([sh(local)]).value as string);
  return { property: (c) => test(c.values.length, bound) };
};

/** The distinct keys of some terms (the engine's `TermSet`). */
const keysOf = (terms: Iterable<RDF.Term>): Set<string> => {
  const keys = new Set<string>();
  for (const t of terms) keys.add(distinctKey(t));
  return keys;
};

function objects(data: RecordDataset, subject: RDF.Term, predicate: RDF.Term): RDF.Term[] {
  return data.withSubjectPredicate(subject, predicate).map((q) => q.object);
}

/** The compile functions of the constraints known here, by local name; each mirrors the engine's (1.x) or probes it. */
const COMPILE: Record<string, (shape: FastShape, nested: Nested) => ConstraintChecks | undefined> = {
  maxCount: count('maxCount', (n, max) => n <= max),
  minCount: count('minCount', (n, min) => n >= min),
  nodeKind: (shape) => {
    const term = shape.ptr.out([sh('nodeKind')]).term;
    const kinds = term?.termType === 'NamedNode' ? NODE_KINDS.get(term.value) : undefined;
    return kinds && { generic: (c) => kinds.includes(c.von.termType) };
  },
  pattern: (shape) => {
    const pattern = shape.ptr.out([sh('pattern')]).value;
    const flags = shape.ptr.out([sh('flags')]).value;
    // A global or sticky expression keeps state from one test to the next: the engine's alone.
    if (/[gy]/.test(flags ?? '')) return undefined;
    const regex = new RegExp(pattern as string, flags);
    return { generic: (c) => regex.test(c.von.value) };
  },
  minLength: (shape) => {
    const min = parseInt(shape.ptr.out([sh('minLength')]).value as string);
    return { generic: (c) => c.von.termType !== 'BlankNode' && c.von.value.length >= min };
  },
  maxLength: (shape) => {
    const max = parseInt(shape.ptr.out([sh('maxLength')]).value as string);
    return { generic: (c) => c.von.termType !== 'BlankNode' && c.von.value.length <= max };
  },
  in: (shape) => {
    const lists = [...shape.ptr.out([sh('in')])];
    if (lists.length !== 1) return undefined;
    const keys = keysOf([...(lists[0]!.list() ?? [])].map((item) => item.term!));
    return { generic: (c) => keys.has(distinctKey(c.von)) };
  },
  class: (shape) => {
    const classes = shape.ptr.out([sh('class')]).terms.map((cls) => subclassKeys(shape.ptr.dataset!, cls));
    return {
      generic: (c) => {
        const types = objects(c.data, c.von, RDF_TYPE).map(distinctKey);
        return classes.every((keys) => types.some((t) => keys.has(t)));
      },
    };
  },
  datatype: (shape) => {
    const datatype = shape.ptr.out([sh('datatype')]).term;
    if (datatype?.value !== XSD_STRING) return probed(shape, 'datatype');
    return { generic: (c) => c.von.termType === 'Literal' && c.von.datatype.value === XSD_STRING && XML_STRING.test(c.von.value) };
  },
  minInclusive: (shape) => probed(shape, 'minInclusive'),
  maxInclusive: (shape) => probed(shape, 'maxInclusive'),
  minExclusive: (shape) => probed(shape, 'minExclusive'),
  maxExclusive: (shape) => probed(shape, 'maxExclusive'),
  languageIn: (shape) => probed(shape, 'languageIn'),
  equals: (shape) => {
    const equals = shape.ptr.out([sh('equals')]).term;
    if (!equals) return undefined;
    return {
      node: (c) => {
        const reference = objects(c.data, c.focus, equals);
        return reference.length !== 0 && reference.every((t) => t.equals(c.focus));
      },
      property: (c) => {
        const references = keysOf(objects(c.data, c.focus, equals));
        const values = keysOf(c.values);
        if (values.size !== references.size) return false;
        for (const v of values) if (!references.has(v)) return false;
        return true;
      },
    };
  },
  disjoint: (shape) => {
    const disjoint = shape.ptr.out([sh('disjoint')]).term;
    if (!disjoint) return undefined;
    return { generic: (c) => !objects(c.data, c.focus, disjoint).some((t) => t.equals(c.von)) };
  },
  closed: (shape) => {
    const closed = shape.ptr.out([sh('closed')]).term;
    if (closed?.termType !== 'Literal' || closed.datatype.value !== XSD_BOOLEAN) return undefined;
    if (closed.value !== 'true' && closed.value !== '1') return {};
    const properties = shapesOf(shape, 'property').filter((s) => !s.deactivated);
    const allowed = keysOf(properties.map((s) => (s.path as { predicates: RDF.Term[] }[])[0]!.predicates[0]!));
    for (const item of shape.ptr.out([sh('ignoredProperties')]).list() ?? []) allowed.add(distinctKey(item.term!));
    return { node: (c) => c.data.withSubject(c.focus).every((q) => allowed.has(distinctKey(q.predicate))) };
  },
  sparql: (shape) => {
    const native = shape.sparql.terms.map((t) => NATIVE_CONSTRAINTS.get(t.value));
    if (native.some((n) => n === undefined)) return undefined;
    return { generic: (c) => native.every((run) => run!(c.von, c.data).length === 0) };
  },
  node: (shape, nested) => {
    const node = shapesOf(shape, 'node');
    return { generic: (c) => every(node, nested, c) };
  },
  property: (shape, nested) => {
    const property = shapesOf(shape, 'property');
    return { generic: (c) => every(property, nested, c) };
  },
  and: (shape, nested) => {
    const and = listShapesOf(shape, 'and');
    return { generic: (c) => every(and, nested, c) };
  },
  or: (shape, nested) => {
    const or = listShapesOf(shape, 'or');
    // The engine stops at the first shape that conforms.
    return { generic: (c) => or.some((s) => nested(s, c, c.von)) };
  },
  not: (shape, nested) => {
    const not = shape.validator.shape(shape.ptr.out([sh('not')]));
    if (!not) return undefined;
    return { generic: (c) => !nested(not, c, c.von) };
  },
  xone: (shape, nested) => {
    const xone = listShapesOf(shape, 'xone');
    return { generic: (c) => xone.map((s) => nested(s, c, c.von)).filter((a) => a).length === 1 };
  },
  qualifiedValueShape: (shape, nested) => compileQualified(shape, nested),
};

/** `sh:qualifiedValueShape` as the engine counts (without `sh:qualifiedValueShapesDisjoint`). */
function compileQualified(shape: FastShape, nested: Nested): ConstraintChecks | undefined {
  const ptr = shape.ptr;
  if (ptr.out([sh('qualifiedValueShapesDisjoint')]).terms.length > 0) return undefined;
  const valueShape = shape.validator.shape(ptr.out([sh('qualifiedValueShape')]));
  if (!valueShape) return undefined;
  const { maxCount: max, minCount: min } = qualifiedCounts(ptr);
  return {
    property: (c) => {
      // The engine validates each value with the value of the context it was given (not the value itself):
      // only the contexts without one are answered here.
      if (c.value !== undefined) throw new Unknown();
      let n = 0;
      for (const v of c.values) if (nested(valueShape, c, v)) n++;
      return (max === null || n <= max) && (min === null || n >= min);
    },
  };
}

/** The severities whose results make a report not conform (the only ones answered here). */
const SEVERITIES = new Set([`${SH}Violation`, `${SH}Warning`, `${SH}Info`]);

/**
 * The checks of a shape's constraints (those of the engine's registry among its predicates), or undefined when one
 * is not known here, or the shape's severity is one of its own (whose results do not make a report fail).
 */
export function compileConstraints(shape: FastShape, nested: Nested): ConstraintChecks[] | undefined {
  if (shape.severity && !SEVERITIES.has(shape.severity.value)) return undefined;
  const registry = shape.validator.registry?.validations;
  if (typeof registry?.get !== 'function') return undefined;
  const out: ConstraintChecks[] = [];
  const seen = new Set<unknown>();
  for (const predicate of shape.ptr.execute({ start: 'subject', end: 'predicate' }).terms) {
    const compileOfEngine = registry.get(predicate);
    if (!compileOfEngine || seen.has(compileOfEngine)) continue;
    seen.add(compileOfEngine);
    const local = predicate.value.startsWith(SH) ? predicate.value.slice(SH.length) : '';
    const compile = Object.hasOwn(COMPILE, local) ? COMPILE[local] : undefined;
    const checks = compile?.(shape, nested);
    if (!checks) return undefined;
    out.push(checks);
  }
  return out;
}
