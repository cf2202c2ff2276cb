/**
 * shacl-engine's `Context` and `Report` (1.x) for {@link validateSync}: the
 * same fields and methods, read by the engine's compiled constraints, but
 * lighter: a report is an array and a memo of whether it conforms (no RDF is
 * built of it), and a result is filed under {@link processedKey} of its shape,
 * focus node and value paths, which is equal exactly when the engine's
 * N-Triples `id` of them is, and costs no N-Triples. Results are the engine's
 * own `Result` objects (their messages are built as the engine builds them).
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { ValidationResultClass } from './shaclEngine.js';
import { termKey } from './TermInterner.js';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
/** The severities that make a report not conform (the engine's `Report.conforms`). */
const FAILING = new Set([`${SH}Info`, `${SH}Violation`, `${SH}Warning`]);
const VIOLATION = DataFactory.namedNode(`${SH}Violation`);
const DEBUG = DataFactory.namedNode('https://schemas.link/shacl-next#Debug');
const TRACE = DataFactory.namedNode('https://schemas.link/shacl-next#Trace');

/** A grapoi pointer list as the walk reads it. */
export interface PtrList extends Iterable<PtrList> {
  quads(): Iterable<RDF.Quad>;
  readonly ptrs: readonly { readonly term: RDF.Term | null }[];
  readonly term: RDF.Term | undefined;
  readonly terms: RDF.Term[];
  readonly dataset: RDF.DatasetCore | null;
  isAny(): boolean;
  node(terms: Iterable<RDF.Term | null>): PtrList;
  clone(args: { ptrs: readonly unknown[] }): PtrList;
  hasOut(predicates: RDF.Term[], objects: Iterable<RDF.Term>): PtrList;
  execute(instruction: { start: string; end: string; predicates: RDF.Term[] }): PtrList;
  executeAll(instructions: unknown): PtrList;
}

/** One compiled constraint (what the engine's registry makes of a shape). */
interface Compiled {
  node?: (context: SyncContext) => unknown;
  property?: (context: SyncContext) => unknown;
  generic?: (context: SyncContext) => unknown;
}

/** A shape of the engine, as the walk reads it. */
export interface SyncShape {
  readonly ptr: PtrList;
  readonly path: unknown;
  readonly isPropertyShape: boolean;
  readonly isSparqlShape: boolean;
  readonly severity: RDF.Term | undefined;
  readonly shapeValidator: { readonly compiled: Compiled[] };
  readonly targetResolver: { targetClass: Iterable<RDF.Term>; targetNode: RDF.Term[]; targetObjectsOf: RDF.Term[]; targetSubjectsOf: RDF.Term[]; targets: unknown[] };
  readonly validator: { shape(ptr: PtrList): SyncShape | null; readonly registry?: { readonly validations?: { has?(term: RDF.Term): boolean } } };
}

/**
 * A key per term, equal for two terms exactly when their N-Triples forms are (what the engine's `TermSet` and
 * `TermMap` compare): an interned term's precomputed key ({@link termKey}: `N<iri>`, `B<label>`,
 * `"value"@lang^^datatype`, which tells well-formed literals apart as N-Triples does), else the same built; a
 * literal whose language N-Triples drops (one on a datatype other than `rdf:langString`, RDF 1.2 directional
 * strings) as the same literal without it.
 */
export function distinctKey(term: RDF.Term): string {
  if (term.termType === 'Literal' && term.language !== '') {
    const dt = term.datatype.value;
    if (dt !== RDF_LANG_STRING) return `"${term.value}"@^^${dt}`;
  }
  return termKey(term);
}

/**
 * Small numbers for the terms of one run, equal exactly when their {@link distinctKey}s are: a term object is
 * keyed once, then found by identity (a run meets the same term objects again and again).
 */
export class TermIds {
  private readonly byObject = new Map<RDF.Term, number>();
  private readonly byKey = new Map<string, number>();
  private readonly quads = new Map<RDF.Quad, string>();

  /** The number of a term. */
  of(term: RDF.Term): number {
    let id = this.byObject.get(term);
    if (id === undefined) {
      const key = distinctKey(term);
      id = this.byKey.get(key);
      if (id === undefined) this.byKey.set(key, (id = this.byKey.size));
      this.byObject.set(term, id);
    }
    return id;
  }

  /** The numbers of a quad's subject, predicate and object, as text (`s,p,o;`). */
  ofQuad(q: RDF.Quad): string {
    let text = this.quads.get(q);
    if (text === undefined) this.quads.set(q, (text = `${this.of(q.subject)},${this.of(q.predicate)},${this.of(q.object)};`));
    return text;
  }
}

/** A {@link processedKey}: a number, or text when there are value paths (never equal to a number). */
export type ProcessedKey = number | string;

/** The focus node numbers a numeric {@link processedKey} holds (2^26: the pair stays an exact integer). */
const ID_LIMIT = 2 ** 26;

/**
 * The key of a shape's validation of a focus node along some value paths: equal exactly when the engine's
 * `Context.id` is (N-Triples of the shape, the focus node and the quads of the paths), cheaper to build.
 */
export function processedKey(ids: TermIds, shape: SyncShape, focusNode: PtrList, valuePaths: readonly (PtrList | undefined)[] | undefined): ProcessedKey {
  const shapeId = ids.of(shape.ptr.term!);
  const focusId = ids.of(focusNode.term!);
  // Without value paths (most validations), a number: no text to build and hash.
  if ((!valuePaths || valuePaths.length === 0) && focusId < ID_LIMIT) return shapeId * ID_LIMIT + focusId;
  let key = `${shapeId} ${focusId}`;
  if (!valuePaths) return key;
  for (const path of valuePaths) {
    key += '|';
    if (path) for (const q of path.quads()) key += ids.ofQuad(q);
  }
  return key;
}

/** A result as the report reads it. */
interface ResultLike {
  readonly severity: RDF.Term;
}

/** The engine's `Report`, as the walk and the toolkit read it: the results, and whether they conform. */
export class SyncReport {
  readonly results: ResultLike[] = [];
  private conformsMemo: boolean | undefined;

  /** No result of severity Info, Violation or Warning (the shapes' own severities do not count), as first asked. */
  get conforms(): boolean {
    return (this.conformsMemo ??= !this.results.some((r) => r.severity.termType === 'NamedNode' && FAILING.has(r.severity.value)));
  }
}

/** What {@link SyncContext.create} may change. */
export interface SyncContextChanges {
  child?: boolean;
  focusNode?: PtrList;
  shape?: SyncShape;
  value?: PtrList;
  valueOrNode?: PtrList;
  valuePaths?: readonly (PtrList | undefined)[];
  values?: PtrList;
}

/** The engine's `Context`: one per shape, focus node and value of a run, sharing the run's caches. */
export class SyncContext {
  constructor(
    readonly factory: RDF.DataFactory,
    readonly focusNode: PtrList,
    readonly options: { debug?: boolean; details?: boolean; trace?: boolean },
    /** Keys ({@link processedKey}) of the validations done in the run. */
    readonly processed: Set<ProcessedKey>,
    /** The numbers of the run's terms. */
    readonly ids: TermIds,
    readonly report: SyncReport,
    /** The results of the run by {@link processedKey}. */
    readonly results: Map<ProcessedKey, Set<ResultLike>>,
    readonly shape: SyncShape | undefined,
    readonly value: PtrList | undefined,
    readonly valueOrNode: PtrList | undefined,
    readonly valuePaths: readonly (PtrList | undefined)[] | undefined,
    readonly values: PtrList | undefined,
  ) {}

  /** The root context of a run over `focusNode`. */
  static root(factory: RDF.DataFactory, focusNode: PtrList, options: object): SyncContext {
    return new SyncContext(factory, focusNode, options, new Set(), new TermIds(), new SyncReport(), new Map(), undefined, undefined, undefined, undefined, undefined);
  }

  /** A context with some fields changed (a field given as `undefined` is kept), and a report of its own when `child`. */
  create(c: SyncContextChanges): SyncContext {
    return new SyncContext(
      this.factory,
      c.focusNode === undefined ? this.focusNode : c.focusNode,
      this.options,
      this.processed,
      this.ids,
      c.child ? new SyncReport() : this.report,
      this.results,
      c.shape === undefined ? this.shape : c.shape,
      c.value === undefined ? this.value : c.value,
      c.valueOrNode === undefined ? this.valueOrNode : c.valueOrNode,
      c.valuePaths === undefined ? this.valuePaths : c.valuePaths,
      c.values === undefined ? this.values : c.values,
    );
  }

  result(args: Record<string, unknown>): void {
    const result = new ValidationResultClass({
      factory: this.factory,
      focusNode: this.focusNode,
      shape: this.shape,
      value: this.value,
      valuePaths: this.valuePaths,
      ...args,
    }) as ResultLike;
    const key = processedKey(this.ids, this.shape!, this.focusNode, this.valuePaths);
    const filed = this.results.get(key);
    if (filed) filed.add(result);
    else this.results.set(key, new Set([result]));
    this.report.results.push(result);
  }

  debug(constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void {
    if (this.options.debug) this.result({ severity: DEBUG, constraintComponent, ...args });
  }

  trace(constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void {
    if (this.options.trace) this.result({ severity: TRACE, constraintComponent, ...args });
  }

  test(success: boolean, constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void {
    if (success) this.debug(constraintComponent, args);
    else this.violation(constraintComponent, args);
  }

  violation(constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void {
    this.result({ constraintComponent, severity: this.shape!.severity || VIOLATION, ...args });
  }
}
