/**
 * shacl-engine's `Validator` with two getters of grapoi's `PathList` (the
 * pointer class the engine walks every graph with) answered without building
 * a set, for the toolkit's own validators only.
 *
 * `PathList.term` builds a `TermSet` of all its pointers' terms (an N-Triples
 * string for each) to see whether they are one term, and `PathList.dataset`
 * a `Set` of their datasets; shacl-engine reads both several times for every
 * value of every shape, nearly always on a list of a single pointer. The
 * subclass made here returns the very same values (for one pointer its term
 * or dataset; for several, the original `term`, and for `dataset` the common
 * dataset by identity, as the `Set` compares them) and costs a property read.
 *
 * Nothing of the engine or of grapoi is patched: a validator made by
 * {@link createValidator} gives its own root pointer lists (over the shapes,
 * and over the data of each `validate`) the subclass, and grapoi makes every
 * pointer list it derives from them with the constructor of the list it
 * derives from (`new this.constructor(...)`). Any other validator in the
 * process, and grapoi's `PathList` itself, are left as they are. The subclass
 * is made only when the getters have the form this code was written against;
 * otherwise the validator is the engine's own.
 */
import type * as RDF from '@rdfjs/types';
import { ValidationContext, Validator, type EngineReport, type EngineShape, type ValidatorOptions } from './shaclEngine.js';
import { addQuickChecks, type QuickValidations } from './quickConstraints.js';
import { syncShapeValidations } from './syncShapeValidations.js';
import type { PtrList } from './SyncContext.js';
import { validateSync, type SyncEngine } from './validateSync.js';

interface PointerLike {
  readonly term: unknown;
  readonly dataset: unknown;
}

interface PathListLike {
  readonly ptrs: readonly PointerLike[];
  isAny(): boolean;
  node(terms: RDF.Term[]): PathListLike;
  [Symbol.iterator](): Iterator<PathListLike>;
}

type PathListClass = new (args: object) => PathListLike;

/** The faster subclass of each `PathList` class met (null: its getters are not the expected ones). */
const subclasses = new WeakMap<object, PathListClass | null>();

/** The subclass of `base` (a grapoi `PathList` class) with the two getters, or undefined when they are not plain getters. */
export function tunedPathList(base: PathListClass): PathListClass | undefined {
  const known = subclasses.get(base);
  if (known !== undefined) return known ?? undefined;
  const term = Object.getOwnPropertyDescriptor(base.prototype, 'term');
  const dataset = Object.getOwnPropertyDescriptor(base.prototype, 'dataset');
  if (!term?.get || !dataset?.get) {
    subclasses.set(base, null);
    return undefined;
  }
  const termOfMany = term.get;
  const Tuned = class TunedPathList extends base {
    get term(): unknown {
      const ptrs = this.ptrs;
      return ptrs.length === 1 ? ptrs[0]!.term : termOfMany.call(this);
    }

    get dataset(): unknown {
      const ptrs = this.ptrs;
      if (ptrs.length === 0) return null;
      const first = ptrs[0]!.dataset;
      for (let i = 1; i < ptrs.length; i++) if (ptrs[i]!.dataset !== first) return null;
      return first;
    }
  };
  subclasses.set(base, Tuned);
  return Tuned;
}

/** The engine's fields {@link TunedValidator} reads (shacl-engine 1.x). */
interface EngineInternals {
  factory: RDF.DataFactory;
  options: object;
  shapes: { values(): Iterable<EngineShape> };
  shape(ptr: unknown): (EngineShape & { resolveTargets(context: unknown): Promise<Iterable<unknown>>; validate(context: unknown): Promise<unknown> }) | null;
}

/** shacl-engine's `Validator` whose pointer lists are {@link tunedPathList}'s. */
class TunedValidator extends Validator {
  private readonly pathList: PathListClass;

  constructor(
    shapes: RDF.DatasetCore,
    options: ValidatorOptions,
    pathList: PathListClass,
    private readonly sync: boolean,
    /** The engine's own registry (of a validator made without `options.validations`): only its constraints get quick checks. */
    own?: QuickValidations,
  ) {
    super(shapes, sync ? { ...options, validations: [...(options.validations ?? []), ...syncShapeValidations()] } : options);
    this.pathList = pathList;
    // The engine's own constraints behind cheap checks of the tests that pass ({@link addQuickChecks}).
    const validations = registryOf(this);
    if (sync && validations && own) addQuickChecks(validations, own);
    // The pointers the engine's constructor made (over the shapes graph, and one per shape) become the subclass's;
    // every list derived from them is made with their constructor.
    Object.setPrototypeOf(this.shapesPtr, pathList.prototype);
    for (const shape of (this as unknown as EngineInternals).shapes.values()) Object.setPrototypeOf(shape.ptr, pathList.prototype);
  }

  /**
   * shacl-engine's `Validator.validate`, the root pointer list over the data made with the subclass; without
   * `await` ({@link validateSync}) when every constraint is synchronous.
   */
  /** Whether every constraint is synchronous (the walk runs without `await`). */
  get isSync(): boolean {
    return this.sync;
  }

  override async validate(data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> }, shapes?: { terms: RDF.Term[] }[]): Promise<EngineReport> {
    if (this.sync) return validateSync(this as unknown as SyncEngine, this.pathList as unknown as new (args: object) => PtrList, data, shapes);
    const engine = this as unknown as EngineInternals;
    const focusNode = new this.pathList({ ...data, factory: engine.factory });
    const context = new ValidationContext({ factory: engine.factory, focusNode, options: engine.options, validator: this });
    const selected = shapes ? shapes.map((s) => engine.shape(this.shapesPtr.node(s.terms))!) : [...engine.shapes.values()].map((s) => engine.shape(s.ptr)!);
    for (const shape of selected) {
      const shapeContext = context.create({ shape });
      // Focus nodes given with the data are validated against every shape, as the engine does.
      const targets = focusNode.isAny() ? await shape.resolveTargets(shapeContext) : focusNode;
      for (const target of targets) await shape.validate(shapeContext.create({ focusNode: target }));
    }
    return context.report;
  }
}

/**
 * A shacl-engine validator for `shapes`: with the faster pointer lists
 * (`tune`, the default) when the engine's are of the expected form, else the
 * engine's own. `sync`: every constraint of `options.validations` is
 * synchronous (no SPARQL engine), so that the validator runs without `await`
 * ({@link validateSync}), the engine's shape-validating constraints replaced
 * ({@link syncShapeValidations}); only with `tune`.
 */
export function createValidator(shapes: RDF.DatasetCore, options: ValidatorOptions, tune = true, sync = false): Validator {
  if (!tune) return new Validator(shapes, options);
  const probe = new Validator(new EmptyDataset(), { factory: options.factory });
  const base = (probe.shapesPtr as unknown as { constructor: PathListClass }).constructor;
  const pathList = typeof (probe.shapesPtr as unknown as PathListLike).isAny === 'function' ? tunedPathList(base) : undefined;
  return pathList ? new TunedValidator(shapes, options, pathList, sync, registryOf(probe)) : new Validator(shapes, options);
}

/** Whether a validator runs without `await` ({@link validateSync}): one of {@link createValidator}'s with `sync`. */
export function isSyncValidator(validator: Validator): boolean {
  return validator instanceof TunedValidator && validator.isSync;
}

/** The validations of a validator's registry (shacl-engine 1.x: a map of constraint IRIs to compile functions), when they have that form. */
function registryOf(validator: Validator): QuickValidations | undefined {
  const validations = (validator as unknown as { registry?: { validations?: QuickValidations } }).registry?.validations;
  return typeof validations?.get === 'function' && typeof validations.set === 'function' ? validations : undefined;
}

/** A dataset with nothing in it (the probe of {@link createValidator}). */
class EmptyDataset implements RDF.DatasetCore {
  readonly size = 0;
  add(): this {
    return this;
  }
  delete(): this {
    return this;
  }
  has(): boolean {
    return false;
  }
  match(): RDF.DatasetCore {
    return this;
  }
  *[Symbol.iterator](): Iterator<RDF.Quad> {}
}
