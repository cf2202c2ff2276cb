/**
 * shacl-engine as the toolkit uses it: the only module that imports it, with
 * the types of the parts used (shacl-engine has none of its own).
 *
 * In the published package this module is a bundle (`npm run build`,
 * scripts/bundleShaclEngine.mjs): shacl-engine and its dependencies are
 * inside it, except Comunica, which only its SPARQL plugin needs; the plugin
 * ({@link importSparqlPlugin}) is a chunk loaded on demand that imports
 * Comunica, an optional peer dependency. So this module must import nothing
 * of the toolkit's own (a bundled copy would be a second one), and its
 * declarations name no module but `@rdfjs/types`.
 */
import type * as RDF from '@rdfjs/types';
import { Validator as EngineValidator } from 'shacl-engine';
import EngineValidationContext from 'shacl-engine/lib/Context.js';
import EngineResultClass from 'shacl-engine/lib/Result.js';
import { compileDatatype as engineCompileDatatype } from 'shacl-engine/lib/validations/type.js';

/** One step of a property path as shacl-engine parses it. */
export interface EnginePathStep {
  quantifier: 'one' | 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne';
  start: 'subject' | 'object';
  end: 'subject' | 'object';
  predicates: RDF.Term[];
}

/** A grapoi pointer list (only what we read). */
export interface EnginePointer {
  readonly term: RDF.Term;
  readonly terms: RDF.Term[];
  readonly dataset: RDF.DatasetCore;
  node(terms: RDF.Term[]): EnginePointer;
  out(predicates: RDF.Term[]): EnginePointer;
}

/** A shape as shacl-engine compiles it. */
export interface EngineShape {
  readonly ptr: EnginePointer;
  readonly path: EnginePathStep[] | null;
  readonly sparql: EnginePointer;
  readonly validator: Validator;
}

/** One result of a shacl-engine report. */
export interface EngineResult {
  readonly focusNode: EnginePointer;
  readonly shape: EngineShape;
  readonly path: EnginePathStep[] | null | undefined;
  readonly severity: RDF.NamedNode;
  readonly message: RDF.Literal[];
  readonly value: EnginePointer | undefined;
  readonly constraintComponent: RDF.NamedNode;
  readonly source: RDF.Term[];
}

/** A shacl-engine validation report. */
export interface EngineReport {
  readonly conforms: boolean;
  readonly results: EngineResult[];
}

/** What a compiled validation is given for one focus node or value. */
export interface EngineContext {
  readonly factory: RDF.DataFactory;
  readonly focusNode: EnginePointer;
  readonly valueOrNode: EnginePointer;
  readonly shape: EngineShape;
  violation(constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void;
}

/** A constraint compiled for one shape. */
export interface CompiledValidation {
  generic?: (context: EngineContext) => void | Promise<void>;
  node?: (context: EngineContext) => void | Promise<void>;
  property?: (context: EngineContext) => void | Promise<void>;
}

/** Compiles a constraint of a shape (an entry of shacl-engine's validation registry). */
export type CompileValidation = (shape: EngineShape) => CompiledValidation | undefined;

/** Options of shacl-engine's `Validator`. */
export interface ValidatorOptions {
  factory: RDF.DataFactory;
  validations?: Iterable<[RDF.Term, CompileValidation]>;
  targetResolvers?: Iterable<[RDF.Term, unknown]>;
  debug?: boolean;
  details?: boolean;
}

/** shacl-engine's validator for one shapes graph. */
export interface Validator {
  /** The pointer list over the shapes graph (a grapoi `PathList`). */
  readonly shapesPtr: EnginePointer;
  validate(data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> }, shapes?: { terms: RDF.Term[] }[]): Promise<EngineReport>;
}

/** The `Validator` class of shacl-engine. */
export interface ValidatorClass {
  new (shapes: RDF.DatasetCore, options: ValidatorOptions): Validator;
}

/** The state of one `validate` run of shacl-engine (its `Context`): the report, and a context per shape and focus node. */
export interface ValidationContextLike {
  readonly report: EngineReport;
  create(args: { shape?: unknown; focusNode?: unknown }): ValidationContextLike;
}

/** shacl-engine's `Context` class. */
export interface ValidationContextClass {
  new (args: { factory: RDF.DataFactory; focusNode: unknown; options: object; validator: Validator }): ValidationContextLike;
}

/** shacl-engine's SPARQL plugin (`shacl-engine/sparql.js`): the `sh:sparql` validation and the SPARQL target resolver. */
export interface SparqlPlugin {
  validations: Map<RDF.Term, CompileValidation>;
  targetResolvers: Map<RDF.Term, unknown>;
}

/** shacl-engine's `Validator`. */
export const Validator: ValidatorClass = EngineValidator;

/** shacl-engine's `Context` (what its `Validator.validate` makes for a run). */
export const ValidationContext: ValidationContextClass = EngineValidationContext;

/** shacl-engine's `Result` class (what a `Context` makes of a violation; its `message` is built when read). */
export const ValidationResultClass: new (args: Record<string, unknown>) => EngineResult = EngineResultClass;

/** shacl-engine's own `sh:datatype` validation. */
export const compileDatatype: CompileValidation = engineCompileDatatype;

/**
 * Imports shacl-engine's SPARQL plugin, and with it Comunica (an optional peer
 * dependency of the package): rejects with `ERR_MODULE_NOT_FOUND` when Comunica
 * is not installed (see loadSparqlPlugin.ts for the error a person reads).
 */
export function importSparqlPlugin(): Promise<SparqlPlugin> {
  return import('shacl-engine/sparql.js');
}
