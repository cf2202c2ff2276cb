// Types for the parts of shacl-engine (no types of its own) that src/shacl uses.
declare module 'shacl-engine' {
  import type * as RDF from '@rdfjs/types';

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

  export interface EngineShape {
    readonly ptr: EnginePointer;
    readonly path: EnginePathStep[] | null;
    readonly sparql: EnginePointer;
    readonly validator: Validator;
  }

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

  export interface EngineReport {
    readonly conforms: boolean;
    readonly results: EngineResult[];
  }

  export interface EngineContext {
    readonly factory: RDF.DataFactory;
    readonly focusNode: EnginePointer;
    readonly valueOrNode: EnginePointer;
    readonly shape: EngineShape;
    violation(constraintComponent: RDF.NamedNode, args: Record<string, unknown>): void;
  }

  export interface CompiledValidation {
    generic?: (context: EngineContext) => void | Promise<void>;
    node?: (context: EngineContext) => void | Promise<void>;
    property?: (context: EngineContext) => void | Promise<void>;
  }

  export type CompileValidation = (shape: EngineShape) => CompiledValidation | undefined;

  export interface ValidatorOptions {
    factory: RDF.DataFactory;
    validations?: Iterable<[RDF.Term, CompileValidation]>;
    targetResolvers?: Iterable<[RDF.Term, unknown]>;
    debug?: boolean;
    details?: boolean;
  }

  export class Validator {
    constructor(shapes: RDF.DatasetCore, options: ValidatorOptions);
    /** The pointer list over the shapes graph (a grapoi `PathList`). */
    readonly shapesPtr: EnginePointer;
    validate(data: { dataset: RDF.DatasetCore; terms?: Iterable<RDF.Term> }, shapes?: { terms: RDF.Term[] }[]): Promise<EngineReport>;
  }
}

declare module 'shacl-engine/lib/validations/type.js' {
  import type { CompileValidation } from 'shacl-engine';
  export const compileDatatype: CompileValidation;
}

declare module 'shacl-engine/sparql.js' {
  import type * as RDF from '@rdfjs/types';
  import type { CompileValidation } from 'shacl-engine';
  export const validations: Map<RDF.Term, CompileValidation>;
  export const targetResolvers: Map<RDF.Term, unknown>;
}
